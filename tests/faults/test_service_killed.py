"""The service SIGKILLed mid-run and started again (issue #26, item 4): ``python -m a11y
serve`` on PostgreSQL and Redis, auditing the pages of its runs with its own Chromium
(``--workers``), is killed while a page is loading; a new one on the same database and queue
resumes the run, takes the dead one's pages over once their lease has lapsed, and completes
the run with every page once. Nothing of the killed service stays: its Chromium goes with it.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import trio

from jobs.ids import url_key
from jobs.store import open_store
from tests.jobs.system.support import tree_site
from tests.service.conftest import Gate
from tests.support.site import Response

ROOT = Path(__file__).resolve().parents[2]
#: Bounds against a hang only: a service starts (imports, its browser) in seconds on a loaded machine.
HANG = 180
LEASE_MS = 2_000


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state letter, start time) of a process; None when there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), fields[0], int(fields[19])


def _descendants(root: int) -> dict[int, int]:
    """Every process below ``root``: pid → start time (which tells it from a later process
    given the same pid)."""
    children: dict[int, list[int]] = {}
    started: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit() and (stat := _stat(int(name))) is not None:
            children.setdefault(stat[0], []).append(int(name))
            started[int(name)] = stat[2]
    found, todo = {}, [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found[child] = started[child]
            todo.append(child)
    return found


def _alive(processes: dict[int, int]) -> list[int]:
    """Those of ``processes`` still running (a zombie has ended)."""
    return [pid for pid, start in processes.items()
            if (stat := _stat(pid)) is not None and stat[1] != "Z" and stat[2] == start]


def _command(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _kill(processes: dict[int, int]) -> None:
    for pid in _alive(processes):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


class Service:
    """One ``python -m a11y serve`` process, its log in ``log``."""

    def __init__(self, log: Path, argv: list[str]) -> None:
        self.log = log
        env = {key: value for key, value in os.environ.items() if key != "A11Y_API_TOKEN"}
        with open(log, "wb") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "a11y", "serve", "--port", "0", *argv],
                cwd=log.parent, env={**env, "PYTHONPATH": str(ROOT / "src")},
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
            )

    async def url(self) -> str:
        """Its base URL, once it listens."""
        with trio.fail_after(HANG):
            while not (found := re.search(r"listening on (http://[^\s,]+)", self.log.read_text(errors="replace"))):
                assert self.process.poll() is None, self.log.read_text(errors="replace")[-3000:]
                await trio.sleep(0.05)
        return found.group(1)

    def stop(self) -> None:
        """SIGTERM (SIGKILL after 30 s), and whatever it started, by PID."""
        below = _descendants(self.process.pid)
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        _kill(below)


@contextlib.contextmanager
def services(tmp_path: Path, argv: list[str]) -> Iterator[Any]:
    """``start(name)`` starts one more service; every one is stopped on the way out."""
    started: list[Service] = []

    def start(name: str) -> Service:
        started.append(Service(tmp_path / f"{name}.log", argv))
        return started[-1]

    try:
        yield start
    finally:
        for service in started:
            service.stop()


async def test_a_killed_service_s_run_completes_after_a_restart(site, chromium, postgres_url, redis_server, redis_prefix, tmp_path):
    pages, name, gates = 8, "faults-service-killed", {}

    def hold_page_2(n: int, page: Response) -> Any:
        return gates.setdefault(n, Gate(page.body, limit=HANG)) if n == 2 else page

    start = tree_site(site, name, pages, fanout=3, wrap=hold_page_2)
    crawl = {"url": start, "crawl": {"enabled": True, "depth": 5, "maxPages": pages},
             "checks": {"interaction": False}, "screenshots": False}
    argv = ["--database", postgres_url, "--queue", redis_server.url, "--queue-prefix", redis_prefix,
            "--workers", "2", "--concurrency", "2", "--lease-ms", str(LEASE_MS)]
    left: dict[int, int] = {}
    try:
        with services(tmp_path, argv) as start_service:
            first = start_service("first")
            async with httpx.AsyncClient(base_url=await first.url(), timeout=60, verify=False) as client:
                accepted = await client.post("/audits", json=crawl)
                assert accepted.status_code == 202, accepted.text
                run_id = accepted.json()["id"]
            with trio.fail_after(HANG):  # until the service's browser is loading page 2
                while not gates[2].entered.is_set():
                    await trio.sleep(0.05)
            left = _descendants(first.process.pid)
            assert any(b"chrom" in _command(pid) for pid in _alive(left)), left  # its browser
            first.process.send_signal(signal.SIGKILL)
            first.process.wait(timeout=30)
            gates[2].release()

            second = start_service("second")
            async with httpx.AsyncClient(base_url=await second.url(), timeout=60, verify=False) as client:
                with trio.fail_after(HANG):
                    while (view := (await client.get(f"/audits/{run_id}")).json())["status"] in ("queued", "running"):
                        await trio.sleep(0.2)
            with trio.fail_after(HANG):  # the killed service's browser is gone too
                while _alive(left):
                    await trio.sleep(0.05)
        store = await trio.to_thread.run_sync(open_store, postgres_url)
        try:
            held = store.get_page(run_id, url_key(site.url(f"/{name}/2")))
            stuck = store.unfinished_runs()
        finally:
            store.close()
    finally:
        gates[2].release()
        _kill(left)
    assert view["status"] == "completed", view
    urls = [page["url"] for page in view["result"]["pages"]]
    assert sorted(urls) == sorted({site.url(f"/{name}/{n}") for n in range(pages)})  # each once
    assert all(page["status"] == "ok" for page in view["result"]["pages"])
    assert held.attempts >= 2  # started by the killed service, then by the new one
    assert stuck == []
