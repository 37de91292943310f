"""The store and the queue of a deployment, opened together and closed together.

The service (``system.Jobs``) and a worker process (``worker.run_worker``) both work on
one store and one queue for their lifetime; closing them is shielded, so a cancelled
process still returns its connections (a Redis client, the database pool) on the way out.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

from .blocking import in_thread
from .queue import PageQueue, open_queue
from .store import Store, open_store


@asynccontextmanager
async def open_backends(
    database: str, queue: str | None, prefix: str, *, lease_ms: int | None = None
) -> AsyncIterator[tuple[Store, PageQueue]]:
    """The migrated store at ``database`` and the queue at ``queue`` (None: in process)
    under the key ``prefix``, for the block."""
    store = await in_thread(open_store, database)
    try:
        page_queue = open_queue(queue, prefix, lease_ms=lease_ms)
        try:
            yield store, page_queue
        finally:
            with trio.CancelScope(shield=True):
                await page_queue.close()
    finally:
        with trio.CancelScope(shield=True):
            await in_thread(store.close)
