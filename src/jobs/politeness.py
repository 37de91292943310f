"""Politeness per origin, within one worker process: at most ``limit`` pages of an origin
in flight, and page starts of an origin at least ``delay`` apart.

Per process, not per deployment: N worker processes may have N times the limit in flight
on one origin (a deployment that must be gentler gives ``perOrigin`` divided by its worker
count). Runs of the same origin share its gate, with the limit and delay of the page that
asks last.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import trio


@dataclass
class _Origin:
    limiter: trio.CapacityLimiter
    starts: trio.Lock = field(default_factory=trio.Lock)
    next_start: float = float("-inf")
    users: int = 0


class OriginGate:
    def __init__(self) -> None:
        self._origins: dict[str, _Origin] = {}

    def in_flight(self, origin: str) -> int:
        state = self._origins.get(origin)
        return 0 if state is None else state.limiter.borrowed_tokens

    @asynccontextmanager
    async def slot(self, origin: str, limit: int, delay: float) -> AsyncIterator[None]:
        """Hold one of ``origin``'s ``limit`` slots, entered no sooner than ``delay`` s after
        the previous entry."""
        state = self._origins.get(origin)
        if state is None:
            state = self._origins[origin] = _Origin(trio.CapacityLimiter(limit))
        state.limiter.total_tokens = limit
        state.users += 1
        try:
            async with state.limiter:
                async with state.starts:
                    await trio.sleep_until(state.next_start)
                    state.next_start = trio.current_time() + delay
                yield
        finally:
            state.users -= 1
            if not state.users and trio.current_time() >= state.next_start:
                del self._origins[origin]  # idle and past its delay: forget it
