"""Real Redis and PostgreSQL for the installed worker (started only when a test asks)."""

from __future__ import annotations

from tests.support.postgres import postgres_server, postgres_url  # noqa: F401
from tests.support.redis_server import redis_prefix, redis_server  # noqa: F401
