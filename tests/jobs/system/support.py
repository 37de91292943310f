"""Shared pieces of the jobs system tests: generated sites, a supervised browser on the
session's Chromium, worker processes, and waiting for runs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import trio

from audit.engine import EngineLimits
from cdpdriver import connect
from cdpdriver.supervisor import BrowserSupervisor
from jobs.models import JobRequest
from jobs.system import Jobs, Run
from tests.support.site import Response, Site

ROOT = Path(__file__).resolve().parents[3]
PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="
LIMITS = EngineLimits(navigation_timeout=20, audit_timeout=120, concurrency=4)


def page_body(name: str, n: int, links: list[str]) -> str:
    """A small page; every third one has findings (an image without alt, an empty link)."""
    items = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    broken = f'<img src="{PIXEL}"><a href="/{name}/0"></a>' if n % 3 == 0 else ""
    return (f"<!doctype html><html lang=en><title>{name} {n}</title>"
            f"<main><h1>Page {n}</h1>{broken}<ul>{items}</ul></main></html>")


def tree_site(
    site: Site,
    name: str,
    pages: int,
    *,
    fanout: int = 2,
    wrap: Callable[[int, Response], Any] | None = None,
) -> str:
    """``pages`` pages under ``/<name>/``; page n links to its ``fanout`` children
    (``fanout * n + 1`` …) and back home. ``wrap(n, response)`` may replace a page's route
    (to count or hold requests). Returns the start URL."""
    for n in range(pages):
        children = range(fanout * n + 1, min(fanout * n + fanout + 1, pages))
        links = [f"/{name}/{c}" for c in children] + [f"/{name}/0"]
        response = Response(page_body(name, n, links))
        site.route(f"/{name}/{n}", wrap(n, response) if wrap else response)
    return site.url(f"/{name}/0")


def job(url: str, *, screenshots: bool = False, interaction: bool = False, **crawl: Any) -> JobRequest:
    """A crawl job; without pictures and without the interaction phase unless a test is about
    them (each costs a tenth of a second or more a page, the phase's outcome may depend on the
    machine's load through its time budget, and these tests are about the queue, the store and
    the workers)."""
    return JobRequest.model_validate({
        "url": url, "crawl": {"enabled": True, **crawl}, "screenshots": screenshots,
        "checks": {"interaction": interaction},
    })


@asynccontextmanager
async def supervised_browser(ws_url: str) -> AsyncIterator[BrowserSupervisor]:
    """The workers' browser source on the shared Chromium, relaunched (reconnected) as in
    production."""
    supervisor = BrowserSupervisor(lambda: connect(ws_url))
    async with trio.open_nursery() as nursery:
        await nursery.start(supervisor.run)
        try:
            yield supervisor
        finally:
            supervisor.request_stop()


@asynccontextmanager
async def local_jobs(database: str, ws_url: str, *, workers: int = 4, **options: Any) -> AsyncIterator[Jobs]:
    """The in-process system (SQLite + memory queue + local workers)."""
    async with (
        supervised_browser(ws_url) as browsers,
        Jobs.open(database=database, queue=None, limits=LIMITS, browsers=browsers, workers=workers, **options) as jobs,
    ):
        yield jobs


async def wait_until(jobs: Jobs, run_id: str, done: Callable[[Run], bool], timeout: float = 90) -> Run:
    """The run once ``done(run)`` holds, following its events as a client would."""
    last_id = 0
    with trio.fail_after(timeout):
        while not done(run := await jobs.get(run_id)):
            await jobs.wait_for_event(run_id, last_id, 1.0)
            events = await jobs.events_after(run_id, last_id, limit=1000)
            last_id = events[-1].id if events else last_id
    return run


async def wait_finished(jobs: Jobs, run_id: str, timeout: float = 90) -> Run:
    return await wait_until(jobs, run_id, lambda run: run.finished, timeout)


def without_duration(result: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in result.items() if key != "durationMs"}


@contextmanager
def worker_processes(
    chromium: Any, database: str, queue: str, prefix: str, *, lease_ms: int, names: list[str],
    concurrency: int = 2, navigation_timeout: float | None = None, log_dir: Path | None = None,
) -> Iterator[dict[str, subprocess.Popen[bytes]]]:
    """Worker processes (``python -m tests.jobs.system.worker_process``) on the session's
    Chromium, killed by PID on the way out. ``navigation_timeout`` overrides ``LIMITS``' (a
    test that holds a page longer); with ``log_dir`` each one's log is ``log_dir/<name>.log``
    (else it goes to the test's stderr)."""
    extra = [] if navigation_timeout is None else [str(navigation_timeout)]
    processes: dict[str, subprocess.Popen[bytes]] = {}
    with ExitStack() as logs:
        try:
            for name in names:
                stderr = None if log_dir is None else logs.enter_context(open(log_dir / f"{name}.log", "wb"))  # noqa: SIM115
                processes[name] = subprocess.Popen(
                    [sys.executable, "-m", "tests.jobs.system.worker_process", database, queue, prefix,
                     chromium.ws_url, str(lease_ms), str(concurrency), name, *extra],
                    cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                    env={**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'src'}"},
                )
            yield processes
        finally:
            for process in processes.values():
                if process.poll() is None:
                    process.kill()
                process.wait(timeout=10)


def page_gets(site: Site, name: str) -> Counter[str]:
    """How many times each page under ``/<name>/`` was loaded."""
    return Counter(r.path for r in site.log if r.method == "GET" and r.path.startswith(f"/{name}/"))


def started_by(client: Any, queue: Any, store: Any, run_id: str, consumer: str) -> str | None:
    """The key of a page ``consumer`` holds and has started (its row is running), if any."""
    for held in client.xpending_range(queue.stream, queue.group, "-", "+", 10, consumer):
        for _entry_id, fields in client.xrange(queue.stream, held["message_id"], held["message_id"]):
            if store.get_page(run_id, fields["url_key"]).status == "running":
                return fields["url_key"]
    return None
