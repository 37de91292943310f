"""The page queue on a Redis stream with one consumer group, shared by workers on many machines.

Keys: the stream ``{prefix}:pages``; the group ``{prefix}:workers`` on it. Redis keeps the
lease bookkeeping itself (the group's pending entries list: owner, idle time, delivery
count), so there is no lease protocol of ours:

- ``enqueue`` is ``XADD`` (one ``MULTI`` pipeline per batch);
- ``receive`` is ``XREADGROUP … >`` (never-delivered entries only), blocking in slices of at
  most ``_BLOCK_SLICE_MS`` so that a cancelled Trio task is released within one slice;
- ``ack`` is ``XACK`` plus ``XDEL`` in one transaction: the stream holds only unacknowledged
  entries, so it stays small without a ``MAXLEN`` trim (which could drop undelivered tasks);
- ``reclaim`` is ``XAUTOCLAIM`` of entries idle for the lease, then ``XPENDING`` for their
  delivery counts (the claim has already incremented them);
- ``touch`` is ``XCLAIM … JUSTID`` of the consumer's own entry, which resets its idle time
  without counting a delivery; a Lua script checks ownership first, in the same atomic step,
  so a late heartbeat never steals back an entry another consumer has reclaimed.

No purge of a cancelled run's entries: finding them needs a scan of the whole stream; the
coordinator acknowledges them unrun as they come (see ``base``).

The sync redis-py client runs in worker threads (``trio.to_thread.run_sync``) limited to the
size of the queue's own connection pool; every socket operation is bounded by
``socket_timeout`` (:data:`SOCKET_TIMEOUT_S`), which is longer than a blocking slice.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis
import trio
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from .base import (
    DEFAULT_LEASE_MS,
    Delivery,
    MalformedTask,
    PageTask,
    QueueClosed,
    QueueError,
    QueueFull,
    QueueUnavailable,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

_BLOCK_SLICE_MS = 500
"""Longest single ``XREADGROUP BLOCK``: the bound on how long a cancelled receive lingers."""

SOCKET_TIMEOUT_S = 1.5
"""How long one Redis connect or command may go without an answer. A server that accepts
connections and answers nothing (hung, or its process stopped) is thus reported
``QueueUnavailable`` after about twice this (the command, then its one retry): about 3 s, so
the service answers ``503 queue_unavailable`` within the 5 s it promises its clients, and
``/health`` within its 3 s ping. (It was 5 s: such a server held a submission 10 s.) Three
blocking slices, so a healthy server's blocked read always comes back in time."""

_MAX_RECLAIM_SCANS = 50
"""``XAUTOCLAIM`` calls per ``reclaim`` at most (each scans a slice of the pending list)."""

# KEYS[1] stream; ARGV[1] group, ARGV[2] consumer, ARGV[3] entry id. Returns 1 when the
# consumer held the entry (its idle time is now 0), else 0. Ownership check and refresh are
# one atomic step, so the refresh can never take an entry back from another consumer.
_TOUCH_SCRIPT = """
local held = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1, ARGV[2])
if #held == 0 then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return 1
"""


def redact_url(url: str) -> str:
    """The URL with its password (in the authority or as a ``password=`` query) masked."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        user = parts.username or ""
        host = netloc.rpartition("@")[2]
        netloc = f"{user}:***@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, "***" if k == "password" else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


class RedisStreamQueue:
    """``PageQueue`` on Redis Streams (see the module docstring for the command mapping)."""

    def __init__(
        self,
        url: str,
        prefix: str,
        *,
        lease_ms: int = DEFAULT_LEASE_MS,
        maxlen: int | None = None,
        max_connections: int = 16,
        socket_timeout: float = SOCKET_TIMEOUT_S,
    ) -> None:
        if not prefix or any(ch.isspace() for ch in prefix):
            raise ValueError(f"a queue prefix must be a non-empty word, not {prefix!r}")
        self.stream = f"{prefix}:pages"
        self.group = f"{prefix}:workers"
        self._where = redact_url(url)
        self.lease_ms = lease_ms
        self._maxlen = maxlen
        pool = redis.ConnectionPool.from_url(
            url,
            decode_responses=True,
            max_connections=max_connections,
            socket_timeout=socket_timeout,
            socket_connect_timeout=socket_timeout,
            health_check_interval=30,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.05), retries=1),
        )
        self._redis = redis.Redis(connection_pool=pool)
        self._touch_script = self._redis.register_script(_TOUCH_SCRIPT)
        self._threads = trio.CapacityLimiter(max_connections)
        self._group_ready = False
        self._closed = False
        self._in_flight = 0
        self._drained = trio.Event()

    def __repr__(self) -> str:
        return f"RedisStreamQueue({self._where!r}, stream={self.stream!r})"

    async def enqueue(self, tasks: Iterable[PageTask]) -> list[str]:
        batch = [task.to_fields() for task in tasks]
        if not batch:
            await trio.lowlevel.checkpoint()
            return []
        return await self._call(self._xadd, batch)

    async def receive(
        self, consumer: str, count: int = 1, block_ms: float | None = 0
    ) -> list[Delivery]:
        deadline = math.inf if block_ms is None else trio.current_time() + block_ms / 1000
        while True:
            remaining_ms = (deadline - trio.current_time()) * 1000
            slice_ms = int(max(0, min(remaining_ms, _BLOCK_SLICE_MS)))
            deliveries = await self._call(self._xreadgroup, consumer, count, slice_ms)
            if deliveries or trio.current_time() >= deadline:
                return deliveries

    async def ack(self, *deliveries: Delivery) -> int:
        ids = [delivery.entry_id for delivery in deliveries]
        if not ids:
            await trio.lowlevel.checkpoint()
            return 0
        return await self._call(self._xack_xdel, ids)

    async def touch(self, delivery: Delivery) -> bool:
        held = await self._call(
            self._touch_script,
            keys=[self.stream],
            args=[self.group, delivery.consumer, delivery.entry_id],
        )
        return held == 1

    async def reclaim(
        self, consumer: str, min_idle_ms: int | None = None, count: int = 10
    ) -> list[Delivery]:
        min_idle = self.lease_ms if min_idle_ms is None else min_idle_ms
        return await self._call(self._xautoclaim, consumer, min_idle, count)

    async def pending_count(self) -> int:
        summary = await self._call(self._redis.xpending, self.stream, self.group)
        return int(summary["pending"])

    async def length(self) -> int:
        return int(await self._call(self._redis.xlen, self.stream))

    async def close(self) -> None:
        if self._closed:
            await trio.lowlevel.checkpoint()
            return
        self._closed = True
        if self._in_flight:
            await self._drained.wait()  # a blocked read ends within one slice
        await trio.to_thread.run_sync(self._redis.connection_pool.disconnect)

    async def _call(self, command: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run one short client call in a thread; redis-py's errors become ``QueueError``s
        that name the server without its password. ``close`` waits for the calls in flight
        (a connection must not be closed under the thread reading from it)."""
        if self._closed:
            raise QueueClosed("the page queue is closed")
        work = partial(self._in_group, partial(command, *args, **kwargs))
        self._in_flight += 1
        try:
            return await trio.to_thread.run_sync(work, limiter=self._threads)
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise QueueUnavailable(f"redis at {self._where}: {exc}") from exc
        except redis.RedisError as exc:
            raise QueueError(f"redis at {self._where}: {exc}") from exc
        finally:
            self._in_flight -= 1
            if self._closed and not self._in_flight:
                self._drained.set()

    def _in_group(self, command: Callable[[], T]) -> T:
        """Create the group before the first command, and again if the stream vanished
        (``FLUSHDB``, a deleted key): entries already added are delivered from id 0."""
        if not self._group_ready:
            self._create_group()
        try:
            return command()
        except redis.ResponseError as exc:
            if "NOGROUP" not in str(exc):
                raise
            self._create_group()
            return command()

    def _create_group(self) -> None:
        try:
            self._redis.xgroup_create(self.stream, self.group, id="0", mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise
        self._group_ready = True

    def _xadd(self, batch: list[dict[str, str]]) -> list[str]:
        if self._maxlen is not None:
            backlog = self._redis.xlen(self.stream)
            if backlog + len(batch) > self._maxlen:
                raise QueueFull(f"{backlog} tasks queued, maxlen {self._maxlen}")
        with self._redis.pipeline(transaction=True) as pipe:
            for fields in batch:
                pipe.xadd(self.stream, fields)
            return pipe.execute()

    def _xreadgroup(self, consumer: str, count: int, block_ms: int) -> list[Delivery]:
        reply = self._redis.xreadgroup(
            self.group, consumer, {self.stream: ">"}, count=count, block=block_ms or None
        )
        entries = reply[0][1] if reply else []
        return self._deliveries(consumer, entries, lambda _entry_id: 1)

    def _xack_xdel(self, ids: list[str]) -> int:
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.xack(self.stream, self.group, *ids)
            pipe.xdel(self.stream, *ids)
            acked, _deleted = pipe.execute()
        return int(acked)

    def _xautoclaim(self, consumer: str, min_idle_ms: int, count: int) -> list[Delivery]:
        claimed: list[tuple[str, dict[str, str] | None]] = []
        cursor = "0-0"
        for _ in range(_MAX_RECLAIM_SCANS):
            reply = self._redis.xautoclaim(
                self.stream, self.group, consumer, min_idle_ms, cursor, count=count - len(claimed)
            )
            cursor, entries = reply[0], reply[1]
            claimed.extend(entries)
            if cursor == "0-0" or len(claimed) >= count:
                break
        if not claimed:
            return []
        with self._redis.pipeline(transaction=False) as pipe:
            for entry_id, _fields in claimed:
                pipe.xpending_range(self.stream, self.group, entry_id, entry_id, 1, consumer)
            replies = pipe.execute()
        times = {row["message_id"]: int(row["times_delivered"]) for rows in replies for row in rows}
        # An entry missing from our pending list was acknowledged or taken over in between.
        still_ours = [(entry_id, fields) for entry_id, fields in claimed if entry_id in times]
        return self._deliveries(consumer, still_ours, times.__getitem__)

    def _deliveries(
        self,
        consumer: str,
        entries: list[tuple[str, dict[str, str] | None]],
        times_delivered: Callable[[str], int],
    ) -> list[Delivery]:
        """Entries as deliveries; one that is not a page task can never be run, so it is
        acknowledged and dropped here rather than redelivered forever."""
        deliveries, junk = [], []
        for entry_id, fields in entries:
            try:
                if not fields:
                    raise MalformedTask("entry without fields")
                task = PageTask.from_fields(fields)
            except MalformedTask as exc:
                log.warning("dropping entry %s of %s: %s", entry_id, self.stream, exc)
                junk.append(entry_id)
                continue
            deliveries.append(Delivery(entry_id, task, times_delivered(entry_id), consumer))
        if junk:
            self._xack_xdel(junk)
        return deliveries
