"""The page queue inside one process: the same leases, acknowledgements and reclaims as the
Redis stream, so the service without ``--queue`` runs the coordinator's one code path.

Trio-native and single-run: times are ``trio.current_time()``, waiters park on a
``trio.Event``; nothing here is thread-safe and nothing needs to be.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

import trio

from .base import DEFAULT_LEASE_MS, Delivery, PageTask, QueueClosed, QueueFull


@dataclass(slots=True)
class _Lease:
    """Who holds a pending entry, since when (trio time) and how often it was handed out."""

    seq: int
    consumer: str
    since: float
    times_delivered: int


class MemoryQueue:
    """In-process ``PageQueue``. Invariant: every unacknowledged task is in ``_tasks``, and
    exactly one of ``_waiting`` (never delivered) or ``_leases`` (pending) holds its id."""

    def __init__(self, *, lease_ms: int = DEFAULT_LEASE_MS, maxlen: int | None = None) -> None:
        self.lease_ms = lease_ms
        self._maxlen = maxlen
        self._tasks: dict[str, PageTask] = {}
        self._waiting: deque[str] = deque()
        self._leases: dict[str, _Lease] = {}
        self._next_seq = 1
        self._arrived = trio.Event()
        self._closed = False

    def __repr__(self) -> str:
        return f"MemoryQueue(length={len(self._tasks)}, pending={len(self._leases)})"

    async def enqueue(self, tasks: Iterable[PageTask]) -> list[str]:
        await trio.lowlevel.checkpoint()
        self._check_open()
        batch = list(tasks)
        if self._maxlen is not None and len(self._tasks) + len(batch) > self._maxlen:
            raise QueueFull(f"{len(self._tasks)} tasks queued, maxlen {self._maxlen}")
        ids = []
        for task in batch:
            entry_id = f"{self._next_seq}-0"
            self._next_seq += 1
            self._tasks[entry_id] = task
            self._waiting.append(entry_id)
            ids.append(entry_id)
        if ids:
            self._wake_receivers()
        return ids

    async def receive(
        self, consumer: str, count: int = 1, block_ms: float | None = 0
    ) -> list[Delivery]:
        await trio.lowlevel.checkpoint()
        self._check_open()
        deadline = math.inf if block_ms is None else trio.current_time() + block_ms / 1000
        while not self._waiting:
            if trio.current_time() >= deadline:
                return []
            with trio.move_on_at(deadline):
                await self._arrived.wait()
            self._check_open()
        now = trio.current_time()
        deliveries = []
        while self._waiting and len(deliveries) < count:
            entry_id = self._waiting.popleft()
            seq = int(entry_id.partition("-")[0])
            self._leases[entry_id] = _Lease(seq, consumer, now, 1)
            deliveries.append(Delivery(entry_id, self._tasks[entry_id], 1, consumer))
        return deliveries

    async def ack(self, *deliveries: Delivery) -> int:
        await trio.lowlevel.checkpoint()
        self._check_open()
        acked = 0
        for delivery in deliveries:
            if self._leases.pop(delivery.entry_id, None) is not None:
                del self._tasks[delivery.entry_id]
                acked += 1
        return acked

    async def touch(self, delivery: Delivery) -> bool:
        await trio.lowlevel.checkpoint()
        self._check_open()
        lease = self._leases.get(delivery.entry_id)
        if lease is None or lease.consumer != delivery.consumer:
            return False
        lease.since = trio.current_time()
        return True

    async def reclaim(
        self, consumer: str, min_idle_ms: int | None = None, count: int = 10
    ) -> list[Delivery]:
        await trio.lowlevel.checkpoint()
        self._check_open()
        now = trio.current_time()
        min_idle = (self.lease_ms if min_idle_ms is None else min_idle_ms) / 1000
        idle = sorted(
            (lease.seq, entry_id)
            for entry_id, lease in self._leases.items()
            if now - lease.since >= min_idle
        )
        deliveries = []
        for _, entry_id in idle[:count]:
            lease = self._leases[entry_id]
            lease.consumer, lease.since = consumer, now
            lease.times_delivered += 1
            deliveries.append(
                Delivery(entry_id, self._tasks[entry_id], lease.times_delivered, consumer)
            )
        return deliveries

    async def pending_count(self) -> int:
        await trio.lowlevel.checkpoint()
        self._check_open()
        return len(self._leases)

    async def length(self) -> int:
        await trio.lowlevel.checkpoint()
        self._check_open()
        return len(self._tasks)

    async def close(self) -> None:
        await trio.lowlevel.checkpoint()
        self._closed = True
        self._wake_receivers()

    def _wake_receivers(self) -> None:
        """Every blocked ``receive`` re-checks: new tasks, or the queue closed under it."""
        self._arrived.set()
        self._arrived = trio.Event()

    def _check_open(self) -> None:
        if self._closed:
            raise QueueClosed("the page queue is closed")
