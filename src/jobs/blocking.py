"""The one way Trio code of this package calls the store's (and other) blocking clients.

Each call runs in a worker thread and is short and bounded (one transaction, one socket
round trip). Threads are not abandoned on cancellation: a transaction in flight commits or
rolls back before the caller unwinds, so a cancelled task never leaves half a write behind.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import ParamSpec, TypeVar

import trio

P = ParamSpec("P")
T = TypeVar("T")

THREADS = 8
"""Blocking calls in flight per process: below SQLAlchemy's default pool (5 + 10 overflow),
so a burst of calls queues here, in Trio, rather than on the pool's 30 s checkout timeout."""

_limiter: trio.lowlevel.RunVar[trio.CapacityLimiter] = trio.lowlevel.RunVar("jobs_threads")


async def in_thread(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    try:
        limiter = _limiter.get()
    except LookupError:
        limiter = trio.CapacityLimiter(THREADS)
        _limiter.set(limiter)
    return await trio.to_thread.run_sync(partial(function, *args, **kwargs), limiter=limiter)
