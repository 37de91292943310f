"""Workers: take page tasks from the queue, audit each page, commit its result, acknowledge.

One ``Worker`` is one queue consumer auditing up to ``concurrency`` pages at a time with the
browser of a ``BrowserSource``. The order for each delivery is what makes the queue's
at-least-once delivery exactly-once in results:

1. a delivery handed out more than ``max_deliveries`` times (a page that kills its worker
   every time) is recorded failed and acknowledged, never run again;
2. the store's start gate (``Store.start_page``) refuses pages of cancelled or finished runs
   and pages already done: those are acknowledged unrun;
3. the page is audited under the origin's politeness slot, the delivery ``touch``-ed every
   third of the lease so that no other worker reclaims it meanwhile; its final URL and
   links are written as soon as the engine knows them (``crawl_scan.note_page``), so the
   crawl decides the pages they lead to while this one is still audited;
4. a transient failure (net error other than a guard block, crashed browser, timeout) is
   retried once, as a new task with ``attempt + 1``; anything else is the page's result;
5. the result is written with the idempotent ``record_page``, then the delivery is
   acknowledged. A crash between the two repeats the page; the write replaces itself.

Deliveries whose worker died are taken over with ``reclaim`` (XAUTOCLAIM on Redis) every
half lease. ``run_worker`` is the process entry point of ``a11y worker``.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from collections import OrderedDict
from contextlib import nullcontext
from dataclasses import replace
from functools import partial

import trio

from audit.crawl import PageProgress
from audit.engine import EngineLimits, audit_page
from audit.failures import AuditFailed
from audit.page_audit import PageAudit
from audit.screenshots import ScreenshotPolicy
from audit.spares import warm_up
from audit.urls import scrub_credentials
from cdpdriver import single_exception
from cdpdriver.supervisor import (
    BrowserFactory,
    BrowserSource,
    BrowserSupervisor,
    BrowserUnavailable,
)

from .backends import open_backends
from .blocking import in_thread
from .events import PAGE_DONE, PAGE_FAILED, PAGE_STARTED, emit, page_done, page_failed
from .frontier import wants_links
from .ids import site_of
from .models import JobRequest
from .page_records import PageRecord, audited, failed
from .politeness import OriginGate
from .queue import Delivery, PageQueue, PageTask, QueueUnavailable
from .run_tabs import RunTabs
from .screenshots import keep_page_shots, page_budget
from .secrets import merge_secrets, with_credentials
from .store import NotFound, Store, StoreError
from .store.crawl_scan import note_page
from .wakeup import Wakeup

log = logging.getLogger(__name__)

MAX_DELIVERIES = 3
RETRIES = 1
TRANSIENT_CODES = frozenset({"browser_crashed", "timeout"})
BROWSER_WAIT_SECONDS = 30.0
TIMEOUT_GRACE_SECONDS = 5.0
_RECEIVE_BLOCK_MS = 500
_QUEUE_RETRY_SECONDS = 1.0
_KNOWN_RUNS = 256


def consumer_name(role: str = "worker") -> str:
    """A consumer name unique per live worker: host, pid and a random suffix."""
    return f"{role}-{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


def transient(failure: AuditFailed) -> bool:
    """Worth one more try: the browser or the network may do better next time; a page the
    private-network guard refused (its details name the addresses) will not."""
    if failure.code in TRANSIENT_CODES:
        return True
    blocked = any(isinstance(d, dict) and "addresses" in d for d in failure.details)
    return failure.code == "navigation_failed" and not blocked


class Worker:
    def __init__(
        self,
        store: Store,
        queue: PageQueue,
        browsers: BrowserSource,
        limits: EngineLimits,
        *,
        concurrency: int,
        consumer: str | None = None,
        changed: Wakeup | None = None,
        events: Wakeup | None = None,
        max_deliveries: int = MAX_DELIVERIES,
        screenshots: ScreenshotPolicy | None = ScreenshotPolicy(),  # noqa: B008 - frozen
    ) -> None:
        self._store = store
        self._screenshots = screenshots
        self._queue = queue
        self._browsers = browsers
        self._limits = limits
        self._concurrency = max(1, concurrency)
        self.consumer = consumer or consumer_name()
        self._changed = changed
        self._events = events
        self._max_deliveries = max_deliveries
        self._gate = OriginGate()
        self._requests: OrderedDict[str, JobRequest | None] = OrderedDict()
        self._run_tabs: RunTabs | None = None
        self._reports: trio.Nursery | None = None

    async def run(self) -> None:
        """Receive, reclaim and audit until cancelled; a page in flight is then abandoned
        unacknowledged, for another worker to reclaim."""
        free = trio.Semaphore(self._concurrency)
        reclaim_every = self._queue.lease_ms / 2000
        next_reclaim = trio.current_time()
        async with trio.open_nursery() as nursery:
            self._reports = nursery
            if self._limits.share_crawl_context:
                self._run_tabs = RunTabs(nursery, guarded=self._limits.block_private_networks)
            while True:
                async with free:  # wait for a free slot, without keeping it
                    pass
                deliveries: list[Delivery] = []
                try:
                    if trio.current_time() >= next_reclaim:
                        next_reclaim = trio.current_time() + reclaim_every
                        deliveries = await self._queue.reclaim(self.consumer, count=free.value)
                    if not deliveries:
                        block_ms = min(_RECEIVE_BLOCK_MS, reclaim_every * 1000)
                        deliveries = await self._queue.receive(self.consumer, free.value, block_ms)
                except QueueUnavailable as exc:
                    log.warning("queue unavailable (%s); trying again in %g s", exc, _QUEUE_RETRY_SECONDS)
                    await trio.sleep(_QUEUE_RETRY_SECONDS)
                    continue
                for delivery in deliveries:
                    free.acquire_nowait()
                    nursery.start_soon(self._handle, delivery, free)

    async def _handle(self, delivery: Delivery, free: trio.Semaphore) -> None:
        try:
            with single_exception():
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._keep_leased, delivery)
                    await self._process(delivery)
                    nursery.cancel_scope.cancel()
        except BrowserUnavailable as exc:
            log.warning("no browser for %s (%s); leaving it to be reclaimed", delivery.task.url, exc)
            await trio.sleep(1)
        except Exception:  # noqa: BLE001 - unacknowledged, the page is reclaimed and retried
            log.exception("page %s of run %s: not processed", delivery.task.url, delivery.task.run_id)
        finally:
            free.release()

    async def _keep_leased(self, delivery: Delivery) -> None:
        """Touch the delivery every third of the lease while its page runs; a queue that
        does not answer for a while costs at worst a second delivery, never this audit."""
        while True:
            await trio.sleep(self._queue.lease_ms / 3000)
            try:
                held = await self._queue.touch(delivery)
            except QueueUnavailable as exc:
                log.warning("cannot renew the lease of %s: %s", delivery.task.url, exc)
                continue
            if not held:
                log.warning("lost the lease of %s", delivery.task.url)
                return

    async def _process(self, delivery: Delivery) -> None:
        task = delivery.task
        request = await self._request(task.run_id)
        page = None
        if request is not None:
            page = await in_thread(self._store.start_page, task.run_id, task.url_key)
        if request is None or page is None:
            await self._queue.ack(delivery)  # cancelled or finished run, or a page already done
            return
        if delivery.times_delivered > self._max_deliveries:
            message = (
                f"The page was handed to workers {delivery.times_delivered} times without a "
                "result (it may crash them); not tried again."
            )
            poisoned = failed(task.url, AuditFailed("audit_failed", message))
            await self._record(task, poisoned, None)
            await self._queue.ack(delivery)
            return
        crawl = request.crawl
        keep_links = wants_links(request, task.depth)
        async with self._gate.slot(site_of(task.url), crawl.per_origin, crawl.delay_ms / 1000):
            started_event = {"url": task.url, "depth": task.depth}
            await emit(self._store, self._events, task.run_id, PAGE_STARTED, started_event)
            started = time.monotonic()
            try:
                record = audited(await self._audit(task, request, keep_links, page.seq), keep_links=keep_links)
            except AuditFailed as failure:
                if transient(failure) and task.attempt < RETRIES:
                    log.info("page %s: %s; trying again", task.url, failure.code)
                    await self._queue.enqueue([replace(task, attempt=task.attempt + 1)])
                    await self._queue.ack(delivery)
                    return
                record = failed(task.url, failure)
        duration_ms = int((time.monotonic() - started) * 1000)
        await self._record(task, record, duration_ms)
        await self._queue.ack(delivery)

    async def _audit(self, task: PageTask, request: JobRequest, keep_links: bool, seq: int) -> PageAudit:
        """The page's audit; its screenshots (``jobs.screenshots``) are stored before its
        result, so a page that shows as done has them."""
        browser = await self._browsers.wait_ready(BROWSER_WAIT_SECONDS)
        policy = self._screenshots if request.screenshots else None
        shots = await in_thread(page_budget, self._store, task.run_id, policy)
        limits = self._limits if shots is None else replace(self._limits, screenshots=shots)
        limit = self._limits.audit_timeout + TIMEOUT_GRACE_SECONDS
        shared = self._run_tabs.tabs(task.run_id, browser) if self._run_tabs else nullcontext()
        with trio.move_on_after(limit) as scope:
            async with shared as tabs:
                url = with_credentials(task.url, [request.url, *request.crawl.urls])
                audit = await audit_page(
                    browser, url, request, limits, collect_links=keep_links, tabs=tabs,
                    progress=self._progress(task) if keep_links else None,
                )
        if scope.cancelled_caught:
            message = f"{task.url} was not audited within {limit:g} s"
            raise AuditFailed("timeout", message, [{"url": task.url}])
        audit.axe_results = None
        if shots is not None:
            try:
                await in_thread(keep_page_shots, self._store, task.run_id, seq, shots.pages.get(url))
            except NotFound:
                pass  # the run was deleted while its page was audited: recording it drops it too
        return audit

    def _progress(self, task: PageTask) -> PageProgress | None:
        """The engine's early reports of a page whose links the crawl reads, each written in
        a task of its own (the engine calls them synchronously, mid-audit)."""
        reports = self._reports
        if reports is None:
            return None

        def loaded(final_url: str) -> None:
            reports.start_soon(self._note, task, scrub_credentials(final_url), None)

        def linked(links: list[str]) -> None:
            reports.start_soon(self._note, task, None, scrub_credentials(list(links)))

        return PageProgress(loaded, linked)

    async def _note(self, task: PageTask, final_url: str | None, links: list[str] | None) -> None:
        """Write an early report and wake the local coordinator; one that cannot be written
        only makes the crawl wait for the page's result, which says the same."""
        try:
            noted = await in_thread(
                note_page, self._store, task.run_id, task.url_key, final_url=final_url, links=links
            )
        except StoreError as exc:
            log.warning("page %s of run %s: its links are not noted early: %s", task.url, task.run_id, exc)
            return
        if noted and self._changed is not None:
            self._changed.notify()

    async def _record(self, task: PageTask, record: PageRecord, duration_ms: int | None) -> None:
        """Record the page's result, unless it already has one (``if_pending``): a worker
        that lost its lease (frozen, or too slow to renew it) finishes late, after the worker
        that took the page over recorded it, and the first result stays."""
        run_id = task.run_id
        # The page's event goes in with its result: written after it, the event could find the
        # run finished by the coordinator in between (this was the last page) and be dropped.
        event = ((PAGE_FAILED, page_failed(record.data)) if record.status == "failed"
                 else (PAGE_DONE, page_done(record.data, record.items, duration_ms)))
        try:
            kept = await in_thread(
                self._store.record_page, run_id, task.url_key, record.status, record.data, record.items,
                duration_ms=duration_ms, timings=record.timings, final_url=record.final_url,
                links=record.links, if_pending=True, event=event,
            )
        except NotFound:
            return  # the run was deleted
        if not kept:  # acknowledging it is harmless: the page is done, or its run is
            log.info("page %s of run %s: dropped; the page already has a result, or the run "
                     "has finished", task.url, run_id)
            return
        if self._events is not None:
            self._events.notify()
        if self._changed is not None:
            self._changed.notify()

    async def _request(self, run_id: str) -> JobRequest | None:
        """The run's request as it was given, secrets included (runs never change it); None
        for a run that is gone, finished (its secrets are) or not a job. A few hundred
        kept."""
        if run_id in self._requests:
            self._requests.move_to_end(run_id)
            return self._requests[run_id]
        request = None
        try:
            run = await in_thread(self._store.get_run, run_id)
            if run.kind == "job" and not run.finished:
                secrets = await in_thread(self._store.run_secrets, run_id)
                request = JobRequest.model_validate(merge_secrets(run.request, secrets))
        except (NotFound, ValueError):
            pass
        self._requests[run_id] = request
        if len(self._requests) > _KNOWN_RUNS:
            self._requests.popitem(last=False)
        return request


async def run_worker(
    database: str,
    queue: str,
    browsers: BrowserFactory,
    concurrency: int | None = None,
    *,
    limits: EngineLimits | None = None,
    prefix: str = "a11y",
    lease_ms: int | None = None,
    consumer: str | None = None,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """A worker process: audit pages of ``queue`` (a Redis URL) into ``database`` with one
    browser opened by ``browsers`` (relaunched when it dies), ``concurrency`` pages at a
    time (default: what ``limits`` allow, its page limiter's tokens or its concurrency),
    until cancelled. ``limits`` default to the engine's."""
    if limits is None:
        limits = EngineLimits() if concurrency is None else EngineLimits(concurrency=concurrency)
    if concurrency is None:
        limiter = limits.page_limiter
        concurrency = int(limiter.total_tokens) if limiter is not None else limits.concurrency
    warm = partial(warm_up, guarded=limits.block_private_networks)
    supervisor = BrowserSupervisor(browsers, on_ready=warm, logger=log)
    async with open_backends(database, queue, prefix, lease_ms=lease_ms) as (store, page_queue):
        worker = Worker(store, page_queue, supervisor, limits, concurrency=concurrency, consumer=consumer)
        log.info("worker %s: %d page(s) at a time", worker.consumer, concurrency)
        async with trio.open_nursery() as nursery:
            await nursery.start(supervisor.run)
            try:
                task_status.started()
                await worker.run()
            finally:
                supervisor.request_stop()
