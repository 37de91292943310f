"""Redis Streams + PostgreSQL with worker processes: the deployment of ``a11y worker``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import trio

from jobs.queue import open_queue
from jobs.system import Jobs
from tests.support.site import Response

from .support import LIMITS, job, tree_site, wait_finished

ROOT = Path(__file__).resolve().parents[3]


@contextmanager
def worker_processes(chromium, database, queue, prefix, *, lease_ms, names, concurrency=2):
    """Worker processes (``python -m``), killed by PID on the way out."""
    processes = {
        name: subprocess.Popen(
            [sys.executable, "-m", "tests.jobs.system.worker_process", database, queue, prefix,
             chromium.ws_url, str(lease_ms), str(concurrency), name],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'src'}"},
        )
        for name in names
    }
    try:
        yield processes
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.kill()
            process.wait(timeout=10)


def page_gets(site, name: str) -> Counter:
    return Counter(r.path for r in site.log if r.method == "GET" and r.path.startswith(f"/{name}/"))


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


def started_by(client, queue, store, run_id: str, consumer: str) -> str | None:
    """The key of a page ``consumer`` holds and has started (its row is running), if any."""
    for held in client.xpending_range(queue.stream, queue.group, "-", "+", 10, consumer):
        for _entry_id, fields in client.xrange(queue.stream, held["message_id"], held["message_id"]):
            if store.get_page(run_id, fields["url_key"]).status == "running":
                return fields["url_key"]
    return None


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
