"""Every contract test runs against both queues: in process, and a real Redis stream."""

from __future__ import annotations

import pytest

from jobs.queue import open_queue
from tests.support.redis_server import redis_prefix, redis_server  # noqa: F401

LEASE_MS = 400
"""Short enough for reclaim tests to be quick, long enough that a heartbeat every quarter
lease lands in time on a loaded 2-core machine."""


@pytest.fixture(params=["memory", "redis"])
def queue_target(request) -> tuple[str | None, str]:
    """(URL, prefix) of one queue backend; the Redis fixtures start only when needed."""
    if request.param == "memory":
        return None, "memory"
    return request.getfixturevalue("redis_server").url, request.getfixturevalue("redis_prefix")


@pytest.fixture
async def queue(queue_target):
    url, prefix = queue_target
    opened = open_queue(url, prefix, lease_ms=LEASE_MS)
    yield opened
    await opened.close()
