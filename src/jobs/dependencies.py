"""Whether the servers behind the jobs system answer now, for ``/health``: the store and the
queue, each ``ok``, ``unavailable`` or, for the embedded SQLite store, ``full`` (its
filesystem has less than :data:`MIN_FREE_BYTES` left, so the next write may fail).

Each answer takes one round trip, bounded by :data:`PING_TIMEOUT`: a server that does not
answer in time is unavailable, whatever it would have said later.
"""

from __future__ import annotations

import os
from typing import Literal

import trio

from .queue import PageQueue, QueueError
from .store import Store, StoreError

State = Literal["ok", "unavailable", "full"]
#: Seconds one dependency may take to answer.
PING_TIMEOUT = 3.0
#: Free bytes under which an embedded store counts as full.
MIN_FREE_BYTES = 1 << 20


async def store_state(store: Store) -> State:
    with trio.move_on_after(PING_TIMEOUT):
        try:
            # Abandoned when too slow: a ping holds no transaction worth finishing.
            await trio.to_thread.run_sync(store.ping, abandon_on_cancel=True)
        except StoreError:
            return "unavailable"
        return "full" if store.file is not None and _free_bytes(store.file) < MIN_FREE_BYTES else "ok"
    return "unavailable"


async def queue_state(queue: PageQueue) -> State:
    with trio.move_on_after(PING_TIMEOUT):
        try:
            await queue.length()
        except QueueError:
            return "unavailable"
        return "ok"
    return "unavailable"


def _free_bytes(database_file: str) -> int:
    try:
        stats = os.statvfs(os.path.dirname(os.path.abspath(database_file)))
    except OSError:
        return MIN_FREE_BYTES  # cannot tell: not reported as full
    return stats.f_bavail * stats.f_frsize
