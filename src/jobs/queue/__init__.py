"""The page queue: page tasks handed to workers at least once (contract in ``base``).

``open_queue(None, …)`` is the in-process queue of a single service; a ``redis://``,
``rediss://`` or ``unix://`` URL is a Redis stream shared by a service and its workers.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from .base import (
    DEFAULT_LEASE_MS,
    MIN_LEASE_MS,
    Delivery,
    MalformedTask,
    PageQueue,
    PageTask,
    QueueClosed,
    QueueError,
    QueueFull,
    QueueUnavailable,
)
from .memory import MemoryQueue
from .redis_streams import RedisStreamQueue, redact_url

REDIS_SCHEMES = frozenset({"redis", "rediss", "unix"})

__all__ = [
    "DEFAULT_LEASE_MS",
    "MIN_LEASE_MS",
    "Delivery",
    "MalformedTask",
    "MemoryQueue",
    "PageQueue",
    "PageTask",
    "QueueClosed",
    "QueueError",
    "QueueFull",
    "QueueUnavailable",
    "RedisStreamQueue",
    "open_queue",
    "redact_url",
]


def open_queue(
    url: str | None,
    prefix: str = "a11y",
    *,
    lease_ms: int | None = None,
    maxlen: int | None = None,
) -> PageQueue:
    """The queue a deployment names: None → in process; a Redis URL → that server's stream
    ``{prefix}:pages``. Connects lazily (the first call), so a bad server shows as
    ``QueueUnavailable`` there; a URL of another scheme is a ``ValueError`` at once.
    ``lease_ms`` None is ``DEFAULT_LEASE_MS``."""
    lease_ms = DEFAULT_LEASE_MS if lease_ms is None else lease_ms
    if url is None:
        return MemoryQueue(lease_ms=lease_ms, maxlen=maxlen)
    scheme = urlsplit(url).scheme.lower()
    if scheme not in REDIS_SCHEMES:
        raise ValueError(
            f"queue URL must start with redis://, rediss:// or unix://, not {redact_url(url)!r}"
        )
    return RedisStreamQueue(url, prefix, lease_ms=lease_ms, maxlen=maxlen)
