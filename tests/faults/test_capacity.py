"""More audits at once than cores is said at start-up and on /health (issue #17 item 10)."""

from __future__ import annotations

import logging

from a11y.service.capacity import usable_cpus
from tests.service.conftest import client_for, service_for


async def test_concurrency_beyond_the_cores_is_reported(chromium, caplog):
    cpus = usable_cpus()
    caplog.set_level(logging.WARNING, logger="a11y.server")
    async with service_for(chromium, concurrency=cpus + 2) as svc, client_for(svc) as client:
        body = (await client.get("/health")).json()
    assert body["capacity"]["concurrency"] == cpus + 2 and body["capacity"]["cpus"] == cpus
    assert f"exceeds the {cpus} usable CPU core" in body["capacity"]["warning"]
    assert any(body["capacity"]["warning"] == r.getMessage() for r in caplog.records)
    caplog.clear()
    async with service_for(chromium, concurrency=1) as svc, client_for(svc) as client:
        body = (await client.get("/health")).json()
    assert body["capacity"] == {"concurrency": 1, "cpus": cpus}
    assert not [r for r in caplog.records if "usable CPU" in r.getMessage()]
