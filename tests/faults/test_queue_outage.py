"""The page queue down or restarted (issue #26, item 4), with real Redis, PostgreSQL, Chromium
and worker processes.

- Redis crashed and started again mid-run (``appendonly yes``, synced before every reply):
  the run completes, every page once, though a page's result was committed while Redis was
  down and its task could not be acknowledged.
- Redis down (crashed, or frozen: a server that accepts connections and answers nothing)
  under a running service: a submission is answered ``503 queue_unavailable`` with
  ``Retry-After`` within 5 s and stores nothing, reads of the store still answer, ``/health``
  says ``degraded`` and names the queue; once Redis is back, submissions are accepted and
  runs complete.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
import trio

from jobs.blocking import in_thread
from jobs.ids import url_key
from jobs.system import Jobs
from tests.jobs.system.support import LIMITS, job, tree_site, wait_finished, worker_processes
from tests.service.conftest import Gate, assert_error, client_for, service_for
from tests.support.redis_server import RedisServer

#: A bound against a hang only.
HANG = 120
#: The issue's bound on a typed answer while the queue is down.
TYPED_ANSWER_S = 5.0
LEASE_MS = 2_000
PREFIX = "faults"


@pytest.fixture
def own_redis():
    """A server of this test's own (the session's is shared, and this one goes down) that
    keeps every acknowledged write through a crash."""
    server = RedisServer(durable=True).start()
    yield server
    server.stop()


async def until(holds: Callable[[], bool], timeout: float = HANG) -> None:
    """Return once ``holds()`` is true (it is looked at every 50 ms); fail after ``timeout``."""
    with trio.fail_after(timeout):
        while not holds():
            await trio.sleep(0.05)


async def test_redis_restarted_mid_run_loses_and_repeats_no_page(site, chromium, postgres_url, own_redis, tmp_path):
    pages, gates = 6, {}

    def hold_page_2(n: int, page):
        return gates.setdefault(n, Gate(page.body, limit=HANG)) if n == 2 else page

    start = tree_site(site, "faults-redis-restart", pages, fanout=3, wrap=hold_page_2)
    held = gates[2]
    try:
        with worker_processes(chromium, postgres_url, own_redis.url, PREFIX, lease_ms=LEASE_MS,
                              names=["w1", "w2"], navigation_timeout=HANG, log_dir=tmp_path):
            async with Jobs.open(database=postgres_url, queue=own_redis.url, limits=LIMITS, browsers=None,
                                 workers=0, prefix=PREFIX, lease_ms=LEASE_MS) as jobs:
                run = await jobs.submit(job(start, depth=5, maxPages=pages))
                await until(held.entered.is_set)  # a worker is loading page 2

                own_redis.halt()
                assert (await jobs.dependencies())["queue"] == "unavailable"
                held.release()
                # Its worker commits the page's result, and cannot acknowledge its task: the
                # task is delivered again after the restart, and refused by the start gate.
                page_2 = url_key(site.url("/faults-redis-restart/2"))
                unacknowledged = f"{site.url('/faults-redis-restart/2')} of run {run.id}: not processed"
                await until(lambda: jobs.store.get_page(run.id, page_2).status == "ok" and any(
                    unacknowledged in log.read_text(errors="replace") for log in tmp_path.glob("w*.log")))
                own_redis.resume()

                done = await wait_finished(jobs, run.id, timeout=HANG)
                result = await jobs.result(run.id)
                stuck = await in_thread(jobs.store.unfinished_runs)
    finally:
        held.release()
    assert done.status == "completed", done.error
    urls = [page["url"] for page in result["pages"]]
    assert sorted(urls) == sorted({site.url(f"/faults-redis-restart/{n}") for n in range(pages)})
    assert all(page["status"] == "ok" for page in result["pages"])
    assert stuck == []


async def _timed(slowest: list[float], request: Awaitable[httpx.Response]) -> httpx.Response:
    """``await request``, its duration kept in ``slowest`` when it is the longest yet."""
    started = time.monotonic()
    response = await request
    slowest[0] = max(slowest[0], time.monotonic() - started)
    return response


async def _finished(client: httpx.AsyncClient, run_id: str) -> dict[str, Any]:
    """The run's view once it has finished (looked at every 0.2 s)."""
    with trio.fail_after(HANG):
        while (view := (await client.get(f"/audits/{run_id}")).json())["status"] in ("queued", "running"):
            await trio.sleep(0.2)
    return view


async def test_redis_down_answers_typed_503s_and_back_runs_complete(site, chromium, postgres_url, own_redis, tmp_path):
    pages, name = 4, "faults-redis-down"
    start = tree_site(site, name, pages, fanout=3)
    crawl = {"url": start, "crawl": {"enabled": True, "depth": 2, "maxPages": pages},
             "checks": {"interaction": False}, "screenshots": False}
    outages = {"crashed": (own_redis.halt, own_redis.resume), "frozen": (own_redis.freeze, own_redis.thaw)}
    with worker_processes(chromium, postgres_url, own_redis.url, PREFIX, lease_ms=LEASE_MS, names=["w1"], log_dir=tmp_path):
        async with (
            service_for(chromium, database=postgres_url, queue=own_redis.url, queue_prefix=PREFIX, lease_ms=LEASE_MS) as svc,
            client_for(svc) as client,
        ):
            first = await client.post("/audits", json=crawl)
            assert first.status_code == 202, first.text
            run_ids = [first.json()["id"]]
            for outage, (go_down, come_back) in outages.items():
                answers: dict[str, httpx.Response] = {}
                slowest = [0.0]

                async def ask(what: str, request: Awaitable[httpx.Response], slowest=slowest, answers=answers) -> None:
                    answers[what] = await _timed(slowest, request)

                go_down()
                try:
                    with trio.fail_after(HANG):
                        async with trio.open_nursery() as nursery:  # at once: a frozen server holds each
                            nursery.start_soon(ask, "submit", client.post("/audits", json=crawl))
                            nursery.start_soon(ask, "health", client.get("/health"))
                        # What only reads the store still answers.
                        answers["list"] = await client.get("/audits")
                        answers["one"] = await client.get(f"/audits/{run_ids[0]}")
                finally:
                    come_back()
                assert_error(answers["submit"], 503, "queue_unavailable")
                assert answers["submit"].headers["Retry-After"] == "5"
                health = answers["health"]
                assert health.status_code == 200
                assert health.json()["status"] == "degraded"
                assert health.json()["dependencies"] == {"browser": "ok", "store": "ok", "queue": "unavailable"}
                assert answers["list"].status_code == answers["one"].status_code == 200
                # The refused submission stored nothing.
                assert [run["id"] for run in answers["list"].json()["runs"]] == run_ids[::-1]
                assert slowest[0] < TYPED_ANSWER_S, f"slowest answer {slowest[0]:.1f} s while Redis was {outage}"
                print(f"slowest answer while Redis was {outage}: {slowest[0] * 1000:.0f} ms")

                with trio.fail_after(HANG):  # back: submissions are accepted again
                    accepted = await client.post("/audits", json=crawl)
                assert accepted.status_code == 202, accepted.text
                run_ids.append(accepted.json()["id"])

            views = [await _finished(client, run_id) for run_id in run_ids]
            health = (await client.get("/health")).json()
    assert (health["status"], health["dependencies"]["queue"]) == ("healthy", "ok")
    for view in views:
        assert view["status"] == "completed", view
        urls = [page["url"] for page in view["result"]["pages"]]
        assert sorted(urls) == sorted({site.url(f"/{name}/{n}") for n in range(pages)})
