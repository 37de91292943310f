"""The run store down or full (issue #26, item 4): while PostgreSQL is down, every request
that needs the store is answered ``503 store_unavailable`` with ``Retry-After`` (never
``500 internal_error``), ``/health`` says ``degraded`` and names the store, and audits still
answer; once the server is back the same requests answer as before, nothing lost. An
embedded store on a full filesystem answers ``507 insufficient_storage`` and ``/health``
says the store is full, until there is room again."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
import trio

from tests.service.conftest import CLEAN, assert_error, client_for, service_for
from tests.support.postgres import PostgresServer

#: A bound against a hang only: each answer here comes in milliseconds on a refused socket.
HANG = 60


@pytest.fixture
def own_postgres():
    """A server of this test's own (the session's is shared, and this one goes down) that
    keeps every acknowledged commit through a crash, as a production server does."""
    server = PostgresServer(durable=True).start()
    yield server
    server.stop()


async def test_postgres_down_answers_typed_503s_and_back_it_serves_again(chromium, site, own_postgres):
    url = site.route("/faults/store/postgres", CLEAN)
    audit = {"url": url, "checks": {"interaction": False}}
    database = own_postgres.url(own_postgres.create_database())
    async with service_for(chromium, database=database) as svc, client_for(svc) as client:
        assert (await client.post("/audit", json=audit)).status_code == 200
        [run] = (await client.get("/audits")).json()["runs"]
        before = (await client.get(f"/audits/{run['id']}")).json()

        own_postgres.halt()
        slowest = 0.0
        with trio.fail_after(HANG):
            for method, path, body in (
                ("GET", f"/audits/{run['id']}", None),
                ("GET", "/audits", None),
                ("POST", "/audits", {"url": url}),
                ("GET", f"/audits/{run['id']}/events", None),
                ("GET", f"/audits/{run['id']}/report", None),
                ("DELETE", f"/audits/{run['id']}", None),
            ):
                started = time.monotonic()
                response = await client.request(method, path, json=body)
                slowest = max(slowest, time.monotonic() - started)
                assert_error(response, 503, "store_unavailable")
                assert response.headers["Retry-After"] == "5", (method, path)
            health = await client.get("/health")
            assert health.status_code == 200
            assert health.json()["status"] == "degraded"
            assert health.json()["dependencies"] == {"browser": "ok", "store": "unavailable", "queue": "ok"}
            # An audit still answers: only keeping its run waits for the store.
            assert (await client.post("/audit", json=audit)).status_code == 200
        print(f"slowest typed answer while PostgreSQL was down: {slowest * 1000:.0f} ms")

        own_postgres.resume()
        with trio.fail_after(HANG):
            again = await client.get(f"/audits/{run['id']}")
        assert again.status_code == 200 and again.json() == before
        health = (await client.get("/health")).json()
        assert (health["status"], health["dependencies"]["store"]) == ("healthy", "ok")


def _mount_small_tmpfs(where: Path) -> bool:
    """A 2 MiB tmpfs at ``where``: a filesystem this test can fill. Root only."""
    if os.geteuid() != 0:
        return False
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)],
                          capture_output=True, timeout=30)
    return done.returncode == 0


def _fill(directory: Path) -> Path:
    """A file that takes every free byte of ``directory``'s filesystem."""
    filler = directory / "filler"
    try:
        with open(filler, "wb", buffering=0) as out:
            while True:
                out.write(b"\0" * 4096)
    except OSError:
        pass  # ENOSPC: the filesystem is full
    return filler


async def test_a_full_disk_answers_507_and_health_says_so(chromium, site, tmp_path):
    disk = tmp_path / "disk"
    if not _mount_small_tmpfs(disk):
        pytest.skip("mounting a small tmpfs needs root")
    try:
        url = site.route("/faults/store/full", CLEAN)
        async with service_for(chromium, data_dir=str(disk / "data")) as svc, client_for(svc) as client:
            assert (await client.post("/audits", json={"url": url})).status_code == 202
            filler = _fill(disk)
            with trio.fail_after(HANG):
                # Each new run writes its request and pages: one of the first few meets the
                # full disk (SQLite may still fit a small write into pages it already has).
                for _ in range(20):
                    response = await client.post("/audits", json={"url": url})
                    if response.status_code != 202:
                        break
                assert_error(response, 507, "insufficient_storage")
                health = (await client.get("/health")).json()
                assert (health["status"], health["dependencies"]["store"]) == ("degraded", "full")
            filler.unlink()
            with trio.fail_after(HANG):
                assert (await client.post("/audits", json={"url": url})).status_code == 202
                health = (await client.get("/health")).json()
            assert (health["status"], health["dependencies"]["store"]) == ("healthy", "ok")
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True, timeout=30)
