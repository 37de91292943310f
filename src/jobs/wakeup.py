"""A broadcast "something changed" signal within one process.

The coordinator sleeps until a local worker records a page, a run is submitted or
cancelled; followers of a run's events sleep until an event is written. Waiters re-read the
store after waking (a wake-up carries no data), so a spurious wake-up costs one read. A
change signalled while the waiter was busy reading is not lost: the waiter notes
``generation`` before it reads and waits ``since`` that, returning at once if it moved.
Changes made by other processes signal nothing here; waiters poll for them.
"""

from __future__ import annotations

import trio


class Wakeup:
    def __init__(self) -> None:
        self._event = trio.Event()
        self.generation = 0

    def notify(self) -> None:
        """Wake every current waiter (synchronous: callable from any task)."""
        self.generation += 1
        self._event.set()
        self._event = trio.Event()

    async def wait(self, since: int) -> None:
        """Return once ``generation`` differs from ``since`` (at once if it already does)."""
        if self.generation != since:
            await trio.lowlevel.checkpoint()
            return
        await self._event.wait()
