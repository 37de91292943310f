"""Many agents at once (scripts/bench/mcp_peers.py): our Streamable HTTP server with 8 clients.

A real ``python -m a11y mcp --http`` process with its own headless Chromium. After a warm-up
client (it launches the browser), one client alone does the task ``tasks`` times, then 8
clients do it ``tasks`` times each, all at once, each in the browser context of its MCP
session (``browser_launch`` names it: 8 different handles), each with its own name and email
so a task is correct only when its own values came back. Then, with the 8 still connected,
the server gets SIGINT and the time to its exit is taken; a second server gets SIGTERM with 8
clients connected that have a page open.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import trio
from mcp_peers_servers import A11y

CLIENTS = 8
# A client still connected when its server stops cannot end its session: expected here, not news.
logging.getLogger("mcp.client.streamable_http").setLevel(logging.ERROR)


@dataclass
class HttpFigures:
    one_ms: list[float] = field(default_factory=list)  # one client alone, per task
    many_ms: list[float] = field(default_factory=list)  # the 8 at once, per task
    correct: int = 0
    tasks: int = 0
    contexts: set[str] = field(default_factory=set)
    stop_s: dict[str, float] = field(default_factory=dict)  # signal → seconds to exit


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(work: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "a11y",
            "mcp",
            "--http",
            "--headless",
            "--port",
            str(port),
            "--output-dir",
            str(work),
        ],
        env=env,
        cwd=str(work.parent),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError("the HTTP server exited at start-up")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("the HTTP server did not open its port") from None
            time.sleep(0.05)


def _agent(number: int, work: Path) -> A11y:
    """An agent over HTTP with its own values, reading structured content like the stdio one."""
    return A11y(
        f"http client {number}",
        [],
        {},
        work,
        name=f"Ada Lovelace {number}",
        email=f"ada{number}@example.org",
    )


async def _timed_tasks(
    agent: A11y, url: str, tasks: int, times: list[float], figures: HttpFigures
) -> None:
    for _ in range(tasks):
        started = time.perf_counter()
        try:
            ok = await agent.task(url)
        except Exception:  # a failed call is an incorrect task, not the end of the run
            ok = False
        times.append((time.perf_counter() - started) * 1000)
        figures.tasks += 1
        figures.correct += ok


async def _client(
    endpoint: str,
    number: int,
    url: str,
    tasks: int,
    figures: HttpFigures,
    times: list[float],
    done: trio.Semaphore | None,
    release: trio.Event | None,
    work: Path,
) -> None:
    """One client: its context, its tasks, then (with ``release``) connected until released."""
    agent = _agent(number, work)
    try:
        async with agent.client_for(endpoint, mode="legacy") as agent.client:
            figures.contexts.add(
                (await agent.call("browser_launch", {})).structured_content["context"]
            )
            await _timed_tasks(agent, url, tasks, times, figures)
            if done is not None:
                done.release()
            if release is not None:
                await release.wait()
    except Exception:
        if release is None or not release.is_set():  # cut off by the server's stop: expected
            raise


async def _stop(proc: subprocess.Popen[bytes], signum: signal.Signals) -> float:
    started = time.monotonic()
    os.kill(proc.pid, signum)
    try:
        await trio.to_thread.run_sync(proc.wait, 30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return float("inf")
    return time.monotonic() - started


async def _many(
    endpoint: str,
    url: str,
    tasks: int,
    figures: HttpFigures,
    times: list[float],
    work: Path,
    proc: subprocess.Popen[bytes],
    signum: signal.Signals,
    stops: dict[str, float],
) -> None:
    """8 clients at once; when all have done their tasks, ``signum`` with them still connected."""
    done, release = trio.Semaphore(0), trio.Event()
    async with trio.open_nursery() as nursery:
        for number in range(1, CLIENTS + 1):
            nursery.start_soon(
                _client, endpoint, number, url, tasks, figures, times, done, release, work
            )
        with trio.fail_after(600):  # a guard against a hang
            for _ in range(CLIENTS):
                await done.acquire()
        stops[signum.name] = await _stop(proc, signum)
        release.set()


async def http_run(url: str, env: dict[str, str], work: Path, tasks: int = 2) -> HttpFigures:
    figures, discard = HttpFigures(), HttpFigures()
    proc, endpoint = await trio.to_thread.run_sync(_start, work / "http-1", env)
    try:
        await _client(
            endpoint, 0, url, 1, discard, [], None, None, work
        )  # warm-up: launches the browser
        await _client(endpoint, 0, url, tasks, discard, figures.one_ms, None, None, work)
        await _many(
            endpoint,
            url,
            tasks,
            figures,
            figures.many_ms,
            work,
            proc,
            signal.SIGINT,
            figures.stop_s,
        )
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    proc, endpoint = await trio.to_thread.run_sync(_start, work / "http-2", env)
    try:
        await _client(endpoint, 0, url, 1, discard, [], None, None, work)
        await _many(endpoint, url, 1, discard, [], work, proc, signal.SIGTERM, figures.stop_s)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return figures
