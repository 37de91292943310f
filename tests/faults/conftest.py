"""The fault suite: what hostile or unlucky input does, kept fixed (issue #17). Every test
here carries the ``faults`` marker, so ``pytest -m faults`` runs the suite alone."""

from __future__ import annotations

import pytest

from tests.service.conftest import client, service  # noqa: F401  (fixtures)
from tests.support.postgres import postgres_server, postgres_url  # noqa: F401  (fixtures)
from tests.support.redis_server import redis_prefix, redis_server  # noqa: F401  (fixtures)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/faults/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.faults)
