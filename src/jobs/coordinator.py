"""The run coordinator: starts runs, hands their pages to the queue, admits pages as the
crawl decides them, and finishes runs. All of its state is in the store.

Each unfinished run is driven by ``_advance``, a step that reads the run from the store and
does what its state calls for; it is idempotent, so a restarted coordinator (or a second one
on the same database) simply continues:

- queued → add the start pages (insert-or-ignore), mark the run running, ``run.started``;
- pages not yet enqueued → robots.txt check (a disallowed page is recorded ``skipped``),
  then enqueue and mark them (a crash in between enqueues twice; the store's idempotent
  result write and the workers' start gate make that harmless);
- a start page done but not ``ok`` fails the run (as ``/audit`` fails);
- admit every page whose place the crawl has decided (:func:`.frontier.advance`: as soon
  as the links before it are known, not when a level is done) and enqueue them;
- pages pending → a ``run.progress`` event now and then; none, and nothing left for the
  crawl to decide → assemble the result header and complete the run.

The coordinator steps every run it knows whenever a local worker or a caller signals a
change (a page's links known, a page done), and at least every ``POLL_SECONDS`` (workers in
other processes signal nothing).
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Any

import trio

from .blocking import in_thread
from .events import (
    PAGE_DONE,
    RUN_DONE,
    RUN_PROGRESS,
    RUN_STARTED,
    emit,
    page_done,
    run_done,
    run_progress,
)
from .frontier import Scan, advance, start_pages
from .ids import site_of, url_key
from .models import JobRequest
from .page_records import skipped
from .queue import PageQueue, PageTask
from .results import result_header
from .secrets import public_request
from .seeds import SiteSeeds
from .store import Conflict, NotFound, Page, Run, Store
from .wakeup import Wakeup

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5
PROGRESS_SECONDS = 0.5
SEND_BATCH = 500
ROBOTS_SKIP = "robots_disallowed"


class Coordinator:
    def __init__(
        self,
        store: Store,
        queue: PageQueue,
        *,
        changed: Wakeup,
        events: Wakeup,
        seeds: SiteSeeds,
        in_process_queue: bool,
    ) -> None:
        self._store = store
        self._queue = queue
        self._changed = changed
        self._events = events
        self._seeds = seeds
        self._in_process_queue = in_process_queue
        self._active: set[str] = set()
        self._requests: dict[str, JobRequest] = {}
        self._progress: dict[str, tuple[float, tuple[int, ...]]] = {}
        self._started_ok: set[str] = set()

    def adopt(self, run_id: str) -> None:
        """Drive this (new) run from now on."""
        self._active.add(run_id)
        self._changed.notify()

    async def cancel(self, run_id: str) -> Run:
        run = await in_thread(self._store.set_run_status, run_id, "cancelled")
        await self._finished(run)
        return run

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Resume the unfinished runs, then step runs until cancelled."""
        for run in await in_thread(self._store.unfinished_runs):
            if self._in_process_queue:  # its tasks and audits died with the last process
                await in_thread(self._store.requeue_running, run.id, lost_queue=True)
            self._active.add(run.id)
            log.info("resuming run %s (%s)", run.id, run.status)
        task_status.started()
        while True:
            seen = self._changed.generation
            for run_id in sorted(self._active):
                try:
                    await self._advance(run_id)
                except Exception:  # noqa: BLE001 - one run's trouble must not stop the others
                    log.exception("run %s: step failed; retrying", run_id)
            with trio.move_on_after(POLL_SECONDS):
                await self._changed.wait(seen)

    # ------------------------------------------------------------------ steps

    async def _advance(self, run_id: str) -> None:
        try:
            run = await in_thread(self._store.get_run, run_id)
        except NotFound:
            self._forget(run_id)
            return
        if run.finished or run.kind != "job":  # a synchronous run is its recorder's business
            self._forget(run_id)
            return
        request = self._request(run)
        if request is None:
            await self._fail(run, "audit_failed", "The stored request is not a valid job request.")
            return
        if run.status == "queued":
            run = await self._start(run, request)
            if run.finished:
                return
        await self._send(run, request)
        run = await in_thread(self._store.get_run, run_id)
        if run.finished:
            return
        if not await self._start_page_ok(run, request):
            return
        scan = await self._scan(run, request)
        if scan.added:
            run = await in_thread(self._store.get_run, run_id)
        if run.pages_queued:
            await self._maybe_progress(run)
        elif scan.finished and run.id in self._started_ok:  # else the next step fails it
            await self._complete(run, request)

    async def _start(self, run: Run, request: JobRequest) -> Run:
        await in_thread(self._store.add_pages, run.id, start_pages(request))
        try:
            run = await in_thread(self._store.set_run_status, run.id, "running")
        except Conflict:
            return await in_thread(self._store.get_run, run.id)
        await emit(self._store, self._events, run.id, RUN_STARTED, {"runId": run.id})
        return run

    async def _send(self, run: Run, request: JobRequest) -> None:
        """Enqueue the run's pages that are not in the queue yet, except those robots.txt
        disallows, which are recorded skipped instead."""
        while pages := await in_thread(self._store.unsent_pages, run.id, limit=SEND_BATCH):
            allowed = await self._skip_disallowed(run, request, pages)
            tasks = [PageTask(run.id, p.url, p.url_key, p.depth) for p in allowed]
            await self._queue.enqueue(tasks)
            await in_thread(self._store.mark_enqueued, run.id, [p.url_key for p in allowed])

    async def _skip_disallowed(self, run: Run, request: JobRequest, pages: list[Page]) -> list[Page]:
        if not request.crawl.respect_robots:
            return pages
        allowed = []
        for page in pages:
            rules = await self._seeds.robots(site_of(page.url))
            if rules.allows(page.url):
                allowed.append(page)
                continue
            record = skipped(
                page.url, ROBOTS_SKIP,
                f"{rules.why} disallows this page for the a11y user agent; not audited.",
            )
            kept = await in_thread(  # its event with it, as a worker's (Worker._record)
                self._store.record_page, run.id, page.url_key, record.status, record.data,
                event=(PAGE_DONE, page_done(record.data, [], None)),
            )
            if kept and self._events is not None:
                self._events.notify()
        return allowed

    async def _scan(self, run: Run, request: JobRequest) -> Scan:
        """Admit and enqueue the pages the crawl has decided, a bounded batch at a time (the
        first are audited while the rest are decided); the sitemap is read (once per run)
        when the crawl reaches it, after the start pages' links."""
        added, sitemap = 0, None
        while True:
            scan = await in_thread(advance, self._store, run.id, request, sitemap)
            added += scan.added
            for depth, count in scan.levels:
                log.info("run %s: depth %d decided, %d page(s)", run.id, depth, count)
            if scan.added:
                await self._send(run, request)
            if scan.sitemap is not None and sitemap is None:
                sitemap = await self._seeds.sitemap_urls(site_of(request.url), scan.sitemap) if scan.sitemap else []
            elif not scan.more:
                return replace(scan, added=added)

    async def _start_page_ok(self, run: Run, request: JobRequest) -> bool:
        """The start page decides the run as it decides ``/audit``: not audited, no run.
        False once it has failed the run; True while the start page is still pending (the
        pages it links to need not wait for its audit to end)."""
        if run.id in self._started_ok:
            return True
        start = await in_thread(self._store.get_page, run.id, url_key(request.url))
        if start.status == "ok":
            self._started_ok.add(run.id)
            return True
        if start.status in ("queued", "running"):
            return True
        error = start.error or {}
        if start.status == "skipped" and error.get("code") != ROBOTS_SKIP:
            code, message = "audit_failed", f"{request.url} is not an HTML page and cannot be audited."
        else:
            code = error.get("code", "audit_failed")
            message = error.get("message", f"{request.url} could not be audited.")
        status = (start.data or {}).get("httpStatus")
        await self._fail(run, code, message, [{"url": request.url, "status": status}])
        return False

    async def _complete(self, run: Run, request: JobRequest) -> None:
        started = run.started_at or run.created_at
        duration_ms = int((time.time() - started.timestamp()) * 1000)
        header = await in_thread(result_header, self._store, run.id, request, duration_ms)
        try:
            done = await in_thread(self._store.set_run_status, run.id, "completed", result=header)
        except Conflict:
            return  # cancelled meanwhile, or another coordinator finished it
        log.info("run %s completed: %d page(s), score %s", run.id, done.pages_done, done.score)
        await self._finished(done)

    async def _fail(self, run: Run, code: str, message: str, details: list[Any] | None = None) -> None:
        error = {"code": code, "message": message, "details": details or []}
        try:
            failed = await in_thread(self._store.set_run_status, run.id, "failed", error=error)
        except Conflict:
            return
        log.info("run %s failed: %s: %s", run.id, code, message)
        await self._finished(failed)

    async def _finished(self, run: Run) -> None:
        await emit(self._store, self._events, run.id, RUN_DONE, run_done(run))
        self._forget(run.id)

    async def _maybe_progress(self, run: Run) -> None:
        figures = (run.pages_done, run.pages_queued, run.pages_failed, run.findings_total)
        last = self._progress.get(run.id)
        now = trio.current_time()
        if last is not None and (last[1] == figures or now - last[0] < PROGRESS_SECONDS):
            return
        self._progress[run.id] = (now, figures)
        await emit(self._store, self._events, run.id, RUN_PROGRESS, run_progress(run))

    # ---------------------------------------------------------------- helpers

    def _request(self, run: Run) -> JobRequest | None:
        """The request the run is steered by, without its secrets (none is needed to seed,
        queue or finish a run), so no page row, task or result header gets one."""
        request = self._requests.get(run.id)
        if request is None:
            try:
                request = JobRequest.model_validate(public_request(run.request))
            except ValueError:
                return None
            self._requests[run.id] = request
        return request

    def _forget(self, run_id: str) -> None:
        self._active.discard(run_id)
        self._requests.pop(run_id, None)
        self._progress.pop(run_id, None)
        self._started_ok.discard(run_id)
