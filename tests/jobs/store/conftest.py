"""Every store test runs twice: on SQLite in a temporary directory and on a database of its
own in the session's real PostgreSQL (started only when a PostgreSQL test runs)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from jobs.store import Store, open_store
from tests.support.postgres import postgres_server, postgres_url  # noqa: F401


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request: pytest.FixtureRequest, tmp_path) -> str:
    """What ``open_store`` is given: a data directory, or a fresh PostgreSQL database URL."""
    if request.param == "sqlite":
        return str(tmp_path / "data")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def store(store_target: str) -> Iterator[Store]:
    with open_store(store_target) as opened:
        yield opened

