"""The HTTP service in a thread of its own (its own Trio loop), for a module-scoped fixture
that many plain (synchronous) tests share: one start, then a request per test. A Trio test
cannot share a service across tests (each runs its own loop); a subprocess could, but costs
an interpreter start and cannot be seeded through the same objects."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import trio

from a11y.service import RunningService, ServiceConfig, running_service

START_TIMEOUT = 60


@contextmanager
def service_in_thread(config: ServiceConfig) -> Iterator[RunningService]:
    """The service, listening, for the body of the block; stopped (and its thread joined)
    on the way out. A failure to start, or of the service while it ran, is raised here."""
    started: queue.Queue[tuple[RunningService, trio.lowlevel.TrioToken] | BaseException] = queue.Queue()
    failures: list[BaseException] = []

    async def serve() -> None:
        async with running_service(config) as svc:
            started.put((svc, trio.lowlevel.current_trio_token()))
            await svc.shutdown.wait()

    def main() -> None:
        try:
            trio.run(serve)
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            failures.append(exc)
            started.put(exc)

    thread = threading.Thread(target=main, name="a11y-service", daemon=True)
    thread.start()
    first = started.get(timeout=START_TIMEOUT)
    if isinstance(first, BaseException):
        raise first
    svc, token = first
    try:
        yield svc
    finally:
        trio.from_thread.run_sync(svc.shutdown.set, trio_token=token)
        thread.join(timeout=START_TIMEOUT)
        assert not thread.is_alive(), "the service did not stop"
    if failures:
        raise failures[0]
