"""The jobs system as the front ends see it: one facade over the store, the queue, the run
coordinator and (optionally) local workers.

``Jobs.open`` owns one nursery for everything it starts: the coordinator (which starts,
advances, finishes and resumes runs) and, when given a browser source and ``workers > 0``,
a local worker that audits ``workers`` pages at a time. Leaving the ``async with`` cancels
them, closes the queue and the store; runs in flight stay in the store and the next
``Jobs.open`` on the same database resumes them.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import trio

from audit.engine import EngineLimits
from audit.failures import AuditFailed
from audit.models import AuditRequest, AuditResult
from audit.screenshots import RunScreenshots
from cdpdriver.supervisor import BrowserSource

from .backends import open_backends
from .blocking import in_thread
from .coordinator import Coordinator
from .dependencies import State, queue_state, store_state
from .models import JobRequest
from .queue import PageQueue
from .results import read_result
from .secrets import split_secrets
from .seeds import SiteSeeds
from .store import Conflict, Event, NotFound, Run, Store
from .sync_runs import record_sync_run
from .wakeup import Wakeup
from .worker import Worker, consumer_name

__all__ = ["BrowserSource", "Conflict", "Event", "Jobs", "NotFound", "Run"]

EVENT_POLL_SECONDS = 0.5
"""How often ``wait_for_event`` looks at the store for events written by other processes."""

WRITE_BEHIND_DRAIN = 30.0
"""How long closing the jobs system waits for writes still running behind their answers."""

ANSWER_WAIT = 5.0
"""How long a write behind an answer waits for the answer to go out (``Jobs.write_behind``)."""


class Jobs:
    """Submit, follow, read and cancel runs. Every method is a Trio checkpoint; the store's
    blocking calls run in threads. Errors: ``NotFound`` (no such run), ``Conflict`` (the
    run's state forbids it)."""

    def __init__(
        self, store: Store, coordinator: Coordinator, events: Wakeup, nursery: trio.Nursery,
        queue: PageQueue,
    ) -> None:
        """Use ``Jobs.open``."""
        self.store = store
        self.queue = queue
        self._coordinator = coordinator
        self._events = events
        self._nursery = nursery
        self._writing = 0
        self._written = trio.Event()

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        *,
        database: str,
        queue: str | None,
        limits: EngineLimits,
        browsers: BrowserSource | None,
        workers: int,
        prefix: str = "a11y",
        lease_ms: int | None = None,
    ) -> AsyncIterator[Jobs]:
        """The jobs system on ``database`` (a directory or a database URL) and ``queue``
        (None: in process; a Redis URL: shared with ``run_worker`` processes). Unfinished
        runs resume at once. ``lease_ms`` overrides the queue's lease (tests)."""
        async with (
            open_backends(database, queue, prefix, lease_ms=lease_ms) as (store, page_queue),
            cls._running(store, page_queue, limits, browsers, workers, queue is None) as jobs,
        ):
            yield jobs

    @classmethod
    @asynccontextmanager
    async def _running(
        cls, store: Store, page_queue: PageQueue, limits: EngineLimits,
        browsers: BrowserSource | None, workers: int, in_process_queue: bool,
    ) -> AsyncIterator[Jobs]:
        """The coordinator and the local worker in one nursery, cancelled on the way out."""
        changed, events = Wakeup(), Wakeup()
        coordinator = Coordinator(
            store, page_queue, changed=changed, events=events,
            seeds=SiteSeeds(block_private=limits.block_private_networks),
            in_process_queue=in_process_queue,
        )
        async with trio.open_nursery() as nursery:
            await nursery.start(coordinator.run)
            if browsers is not None and workers > 0:
                worker = Worker(
                    store, page_queue, browsers, limits, concurrency=workers,
                    consumer=consumer_name("local"), changed=changed, events=events,
                )
                nursery.start_soon(worker.run)
            jobs = cls(store, coordinator, events, nursery, page_queue)
            try:
                yield jobs
            finally:
                with trio.move_on_after(WRITE_BEHIND_DRAIN, shield=True):
                    await jobs.written()
                nursery.cancel_scope.cancel()

    def write_behind(self, write: Callable[[], Awaitable[None]], after: trio.Event | None = None) -> None:
        """Run a store write after its caller has answered, in the jobs nursery: storing a
        synchronous audit's run takes 10-40 ms that its client need not wait for. ``after``,
        if given, is set once the caller's answer has gone out: the write waits for it, at
        most ``ANSWER_WAIT``, since a thread storing beside the answer holds the answer up
        for Python's lock (5-7 ms of a small page's audit). Readers that must see the write wait for :meth:`written`; closing
        the jobs system waits for it before the store closes. ``write`` handles its own
        failures."""
        self._writing += 1
        self._nursery.start_soon(self._write, write, after)

    async def _write(self, write: Callable[[], Awaitable[None]], after: trio.Event | None) -> None:
        try:
            if after is not None:
                with trio.move_on_after(ANSWER_WAIT):
                    await after.wait()
            await write()
        finally:
            self._writing -= 1
            if not self._writing:
                self._written.set()
                self._written = trio.Event()

    async def dependencies(self) -> dict[str, State]:
        """Whether the store and the queue answer now (:mod:`jobs.dependencies`), both asked
        at once: while one is down, ``/health`` waits for its timeout once, not twice."""
        states: dict[str, State] = {}

        async def ask(name: str, probe: Callable[[Any], Awaitable[State]], target: Any) -> None:
            states[name] = await probe(target)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(ask, "store", store_state, self.store)
            nursery.start_soon(ask, "queue", queue_state, self.queue)
        return {"store": states["store"], "queue": states["queue"]}

    async def written(self) -> None:
        """Return once no write started by :meth:`write_behind` is still running."""
        while self._writing:
            await self._written.wait()

    async def submit(self, request: JobRequest, *, submitted_by: str | None = None) -> Run:
        """Store a new run of ``request`` (queued), its secrets apart (``jobs.secrets``),
        owned by the API token named ``submitted_by`` if any; the coordinator seeds and
        starts it.

        The queue is asked first, and while it cannot be reached ``QueueUnavailable`` is
        raised with nothing stored (the service answers ``503 queue_unavailable`` with
        ``Retry-After``). Accepting the run instead would answer 202 for a run that cannot
        start, with no word to its client until the queue is back."""
        await self.queue.length()
        redacted, secrets = split_secrets(request.model_dump(mode="json"))
        run = await in_thread(
            self.store.create_run, redacted["url"], redacted, kind="job", secrets=secrets,
            submitted_by=submitted_by,
        )
        self._coordinator.adopt(run.id)
        return run

    async def get(self, run_id: str) -> Run:
        return await in_thread(self.store.get_run, run_id)

    async def result(self, run_id: str, *, offset: int = 0, limit: int = 1000) -> dict[str, Any]:
        """The completed run as the ``/audit`` result JSON, with a window of its findings
        (and of its needs-review and best-practice items): ``offset``/``limit`` index each
        list, ids stay those of the whole result (``f{offset + 1}`` first). ``Conflict``
        unless the run completed."""
        return await in_thread(read_result, self.store, run_id, offset, limit)

    async def cancel(self, run_id: str) -> Run:
        """Cancel a queued or running run (``Conflict`` when it is finished): no page starts
        after this; pages in flight finish unrecorded."""
        return await self._coordinator.cancel(run_id)

    async def list(
        self, *, url: str | None = None, status: str | None = None, limit: int = 50,
        sites: builtins.list[str] | None = None,
    ) -> builtins.list[Run]:
        """Runs newest first; ``status`` one of ``jobs.store.RUN_STATUSES``; only runs of
        ``sites`` (origins) when given."""
        return await in_thread(self.store.list_runs, url=url, status=status, limit=limit, sites=sites)

    async def events_after(self, run_id: str, last_id: int, limit: int = 100) -> builtins.list[Event]:
        return await in_thread(self.store.events_after, run_id, last_id, limit=limit)

    async def wait_for_event(self, run_id: str, last_id: int, timeout: float) -> None:
        """Return once the run may have events after ``last_id``, or after ``timeout`` s.
        Events of this process wake it at once; those of other processes within
        ``EVENT_POLL_SECONDS``."""
        with trio.move_on_after(timeout):
            while True:
                seen = self._events.generation
                if await in_thread(self.store.events_after, run_id, last_id, limit=1):
                    return
                with trio.move_on_after(EVENT_POLL_SECONDS):
                    await self._events.wait(seen)

    async def record_sync(self, request: AuditRequest, outcome: AuditResult | AuditFailed,
                          shots: RunScreenshots | None = None, *, submitted_by: str | None = None) -> Run:
        """Keep a finished ``POST /audit`` as a run of kind ``sync``: completed with its
        result (and screenshots), or failed with its error; owned as :meth:`submit`'s."""
        run = await in_thread(record_sync_run, self.store, request, outcome, shots,
                              submitted_by=submitted_by)
        self._events.notify()
        return run
