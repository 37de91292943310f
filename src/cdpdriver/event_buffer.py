"""A bounded queue between the connection's reader and one event subscriber.

The reader must never wait for a subscriber: it also delivers every command's reply, so a
subscriber that stops reading would otherwise stall the whole connection, and an unbounded
queue would let a page that floods events (console, network) grow memory without limit.
So :meth:`EventBuffer.put` never blocks: when the buffer is full the **oldest** event is
dropped and counted in :attr:`EventBuffer.dropped` (logged once, at debug, when drops
start). A subscriber that keeps up never loses anything; the newest events, usually the
ones a waiter is after, are always kept.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from typing import Generic, TypeVar

import trio

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Events a subscription holds before dropping the oldest: enough that a subscriber waiting
#: on something else for a while (a lifecycle wait, a heap snapshot's chunks) loses nothing
#: under normal load, small enough that a flooding page stays within a bounded footprint.
DEFAULT_BOUND = 10_000


class EventBuffer(Generic[T]):
    """FIFO of at most ``bound`` items; ``put`` never blocks, ``get`` waits for an item.

    ``bound=math.inf`` opts out of the bound, for a caller that must see every event and
    reads them all anyway.

    Closing ends the stream after the items already queued: readers drain them, then get
    ``trio.EndOfChannel`` (the same contract as a trio memory channel's receive side).
    """

    def __init__(self, bound: float = DEFAULT_BOUND, *, label: str = "events") -> None:
        unbounded = bound == math.inf
        if not unbounded and (bound != int(bound) or bound < 1):
            raise ValueError(f"an event buffer holds a whole number of items, at least one; not {bound!r}")
        self.bound = bound
        self.label = label
        self.dropped = 0
        self._items: deque[T] = deque(maxlen=None if unbounded else int(bound))
        self._closed = False
        self._waiters = trio.lowlevel.ParkingLot()

    def __len__(self) -> int:
        return len(self._items)

    @property
    def closed(self) -> bool:
        return self._closed

    def put(self, item: T) -> bool:
        """Queue ``item`` at once, dropping the oldest when full; False once closed."""
        if self._closed:
            return False
        if len(self._items) == self._items.maxlen:
            if not self.dropped:
                log.debug("%s: subscriber is %d events behind; dropping the oldest from now on",
                          self.label, len(self._items))
            self.dropped += 1
        self._items.append(item)  # a full deque with maxlen discards its left end
        self._waiters.unpark()
        return True

    def close(self) -> None:
        """End the stream once the queued items are read; safe to call twice."""
        self._closed = True
        self._waiters.unpark_all()

    def get_nowait(self) -> T:
        """The oldest item; ``trio.WouldBlock`` when empty, ``trio.EndOfChannel`` when closed
        and drained."""
        if self._items:
            return self._items.popleft()
        if self._closed:
            raise trio.EndOfChannel
        raise trio.WouldBlock

    async def get(self) -> T:
        """The oldest item, waiting for one; a checkpoint even when one is ready."""
        await trio.lowlevel.checkpoint_if_cancelled()
        while True:
            try:
                item = self.get_nowait()
            except trio.WouldBlock:
                await self._waiters.park()
                continue
            await trio.lowlevel.cancel_shielded_checkpoint()
            return item
