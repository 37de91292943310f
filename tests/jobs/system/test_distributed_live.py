"""Redis Streams + PostgreSQL with worker processes: the deployment of ``a11y worker``."""

from __future__ import annotations

import signal

import trio

from jobs.queue import open_queue
from jobs.system import Jobs
from tests.support.site import Response

from .support import LIMITS, job, page_gets, started_by, tree_site, wait_finished, worker_processes


async def test_two_worker_processes_audit_every_page_once(site, chromium, postgres_url, redis_server, redis_prefix):
    pages = 12
    start = tree_site(site, "jobs-two-workers", pages, fanout=3)
    with worker_processes(chromium, postgres_url, redis_server.url, redis_prefix, lease_ms=15_000, names=["w1", "w2"]):
        async with Jobs.open(database=postgres_url, queue=redis_server.url, limits=LIMITS,
                             browsers=None, workers=0, prefix=redis_prefix) as jobs:
            run = await jobs.submit(job(start, depth=5, maxPages=pages))
            done = await wait_finished(jobs, run.id, timeout=120)
            result = await jobs.result(run.id)
    assert done.status == "completed", done.error
    urls = [page["url"] for page in result["pages"]]
    assert len(urls) == len(set(urls)) == pages
    assert set(page_gets(site, "jobs-two-workers").values()) == {1}  # each page loaded once


async def test_a_killed_worker_s_pages_are_taken_over_by_the_other(site, chromium, postgres_url, redis_server, redis_prefix):
    pages, lease_ms = 10, 2_000
    start = tree_site(site, "jobs-kill", pages, fanout=3, wrap=lambda n, r: Response(r.body, delay=0.3))
    queue = open_queue(redis_server.url, redis_prefix, lease_ms=lease_ms)
    await queue.length()  # makes the stream and its group, which the test looks into
    client = redis_server.client()
    with worker_processes(chromium, postgres_url, redis_server.url, redis_prefix, lease_ms=lease_ms, names=["victim", "survivor"]) as workers:
        async with Jobs.open(database=postgres_url, queue=redis_server.url, limits=LIMITS,
                             browsers=None, workers=0, prefix=redis_prefix, lease_ms=lease_ms) as jobs:
            run = await jobs.submit(job(start, depth=5, maxPages=pages))
            with trio.fail_after(90):  # until the victim is auditing a page
                while (victims := started_by(client, queue, jobs.store, run.id, "victim")) is None:
                    await trio.sleep(0.05)
            workers["victim"].send_signal(signal.SIGKILL)
            done = await wait_finished(jobs, run.id, timeout=180)
            result = await jobs.result(run.id)
            taken_over = jobs.store.get_page(run.id, victims)
    client.close()
    await queue.close()
    assert done.status == "completed", done.error
    assert taken_over.status == "ok" and taken_over.attempts >= 2  # started by both
    urls = [page["url"] for page in result["pages"]]
    assert len(urls) == len(set(urls)) == pages  # every page in the result once
    assert all(page["status"] == "ok" for page in result["pages"])
