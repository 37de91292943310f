"""The same agent task through a11y, playwright-mcp, chrome-devtools-mcp and agent-browser, over MCP.

Run: .venv/bin/python scripts/bench/mcp_peers.py [--iterations 20] [--spawns 5] [--http-tasks 2] [--steps]

@playwright/mcp 0.0.83, chrome-devtools-mcp 1.11.0 and agent-browser 0.41.2 are installed with
``npm`` into a temporary directory that is deleted afterwards, their install scripts ignored
(:mod:`mcp_peers_install`: how each is started, and agent-browser's daemons stopped by PID).
All four servers launch the same Chromium (``CHROME_PATH`` or Debian's), headless, and are
driven by the official MCP Python client over stdio, as an agent would
(:mod:`mcp_peers_servers`): navigate to a local form, take a snapshot, fill two fields and
tick a box by the references the snapshot gave, submit, read the result page and take a
screenshot. Ours runs with the tool profile the task needs (``--profile core``) and its client
says it reads structured content (so the JSON comes once). The floor is the same steps
through ``cdpdriver`` directly (:mod:`mcp_peers_floor`). The iterations go round robin over
the five (one warm-up each, not counted, launches the browsers), and every iteration must be
correct: the result page shows the submitted values.

Also measured, in the same run: spawn → initialized against a bare ``python -c pass``; the
tokens an agent pays per task (:mod:`mcp_peers_tokens` defines them: the tools/list of the
tool set it runs with, every result's text and structured content at 4 characters a token,
images at width × height / 750), and ours for a client that reads text only; whether any of
our results sent its JSON twice to the client that reads structured content; delta snapshots
(:mod:`mcp_peers_deltas`); 8 clients at once over Streamable HTTP and how fast that server
stops on SIGINT and SIGTERM with clients connected (:mod:`mcp_peers_http`). Prints the
figures and a table of the goals of issue #25 (met or missed); asserts nothing. The machine
is shared: mind the load average it prints.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from contextlib import AsyncExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

import trio
from mcp import Client
from mcp_peers_deltas import Deltas, a11y_deltas, agent_browser_deltas
from mcp_peers_floor import AtOnce, Floor, at_once
from mcp_peers_http import CLIENTS, HttpFigures, http_run
from mcp_peers_install import base_env, installed_peers, servers
from mcp_peers_servers import A11y, Server
from mcp_peers_site import serve
from mcp_peers_tokens import CHARS_PER_TOKEN, listing_tokens

from cdpdriver import find_chromium


def _listed_bytes(tools: list[Any]) -> int:
    return int(listing_tokens(tools) * CHARS_PER_TOKEN)


async def _spawn(server: Server) -> None:
    """Time spawn → initialized once, and read the tool list then."""
    started = time.perf_counter()
    async with Client(server.params()) as client:
        server.spawn_ms.append((time.perf_counter() - started) * 1000)
        tools = (await client.list_tools()).tools
    server.schema_bytes, server.listing_tokens = _listed_bytes(tools), listing_tokens(tools)


def _bare_python_ms(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append((time.perf_counter() - started) * 1000)
    return times


async def _all_tools_bytes(ours: Server) -> int:
    params = ours.params()
    params.args = [*params.args, "--profile", "all"]
    async with Client(params) as client:
        return _listed_bytes((await client.list_tools()).tools)


async def _compat_tokens(ours: A11y, url: str) -> float:
    """Tokens per task for a client that reads text only (the JSON twice: the default)."""
    compat = replace(ours, label="a11y (text-only client)", reads_structured=False, task_tokens=[], step_ms={},
                     listing_tokens=ours.listing_tokens)
    async with compat.connect() as compat.client:
        await compat.task(url)
        compat.counting = True
        await compat.task(url)
    return compat.task_tokens[-1]


async def run(iterations: int, spawns: int, steps: bool, http_tasks: int) -> None:
    chromium = find_chromium()
    http, url = serve()
    try:
        with installed_peers(chromium) as root:
            group = servers(root, chromium)
            ours = group[0]
            assert isinstance(ours, A11y)
            python_ms = _bare_python_ms(max(5, spawns))
            for _ in range(spawns):
                for server in group:
                    await _spawn(server)
            all_bytes = await _all_tools_bytes(ours)
            floor = Floor()
            async with AsyncExitStack() as stack:
                for server in group:
                    server.client = await stack.enter_async_context(server.connect())
                    if not await server.task(url):  # warm-up: launches the browser, not counted
                        server.failures += 1
                await floor.open(stack, chromium)
                floor.failures += not await floor.task(url)
                for server in group:
                    server.counting = True
                participants: list[Server | Floor] = [*group, floor]
                for _ in range(iterations):
                    for participant in participants:
                        started = time.perf_counter()
                        correct = await participant.task(url)
                        participant.task_ms.append((time.perf_counter() - started) * 1000)
                        participant.failures += not correct
                deltas = [await a11y_deltas(ours.client, url), await agent_browser_deltas(group[3].client, url)]
            compat = await _compat_tokens(ours, url)
            figures = await http_run(url, base_env(chromium), root / "work", http_tasks)
            floors = await at_once(chromium, url, CLIENTS, http_tasks)
            _report(group, floor, iterations, python_ms, all_bytes, compat, chromium)
            _report_deltas(deltas)
            _report_http(figures, floors)
            _report_goals(group, floor, python_ms, deltas, figures, CLIENTS * http_tasks, floors)
            if steps:
                _report_steps(group)
    finally:
        http.shutdown()
    load = os.getloadavg()
    print(f"\nload average at the end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")


def _fastest(peers: list[Server]) -> Server:
    return min(peers, key=lambda s: statistics.median(s.task_ms))


def _report(group: list[Server], floor: Floor, iterations: int, python_ms: list[float], all_bytes: int,
            compat: float, chromium: str) -> None:
    ours, peers = group[0], group[1:]
    fastest = _fastest(peers)
    median = {s.label: statistics.median(s.task_ms) for s in group}
    load = os.getloadavg()
    print(f"\nThe agent task, {iterations} iterations round robin, {chromium} ({os.cpu_count()} cpus, load average "
          f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}; fastest peer: {fastest.label})\n")
    print("| | " + " | ".join(s.label for s in group) + f" | {floor.label} | a11y / {fastest.label} |")
    print("|---|" + "---:|" * (len(group) + 2))
    rows: list[tuple[str, list[str], str]] = [
        ("task, median", [f"{median[s.label]:,.0f} ms" for s in group] + [f"{statistics.median(floor.task_ms):,.0f} ms"],
         f"{median[ours.label] / median[fastest.label]:.2f}x"),
        ("page snapshot text", [f"{s.snapshot_chars / 1000:.1f} KB" for s in group] + ["-"],
         f"{ours.snapshot_chars / fastest.snapshot_chars:.2f}x"),
        ("tools/list, the tool set used", [f"{s.schema_bytes / 1000:.1f} KB" for s in group] + ["-"],
         f"{ours.schema_bytes / fastest.schema_bytes:.2f}x"),
        ("tokens per task, median", [f"{statistics.median(s.task_tokens):,.0f}" for s in group] + ["-"],
         f"{statistics.median(ours.task_tokens) / statistics.median(fastest.task_tokens):.2f}x"),
        ("spawn → initialized, median", [f"{statistics.median(s.spawn_ms):,.0f} ms" for s in group] + ["-"],
         f"{statistics.median(ours.spawn_ms) / statistics.median(fastest.spawn_ms):.2f}x"),
        ("screenshot", [s.screenshot for s in group] + ["PNG bytes"], ""),
        ("iterations correct", [f"{iterations + 1 - s.failures}/{iterations + 1}" for s in [*group, floor]], ""),
    ]
    for label, cells, ratio in rows:
        print(f"| {label} | " + " | ".join(cells) + f" | {ratio} |")
    print(f"\nbare `python -c pass`: median {statistics.median(python_ms):,.0f} ms; a11y's tools/list with all "
          f"169 tools {all_bytes / 1000:.1f} KB; a11y tokens per task for a client that reads text only "
          f"(the JSON twice) {compat:,.0f}; a11y results whose text repeated the structured JSON: "
          f"{ours.repeated} of {ours.results}")


def _report_deltas(deltas: list[Deltas]) -> None:
    print("\nDelta snapshots, bytes a client that reads structured content receives (text + structured)\n")
    print("| server | full snapshot | unchanged page | after filling one field | the fill with snapshot: delta |")
    print("|---|---:|---:|---:|---:|")
    for d in deltas:
        action = f"{d.action:,}" if d.action is not None else "-"
        print(f"| {d.label} | {d.full:,} | {d.unchanged:,} | {d.changed:,} ({d.changed / d.full:.0%}) | {action} |")
    print("(playwright-mcp and chrome-devtools-mcp have no delta snapshots)")


def _report_http(figures: HttpFigures, floors: AtOnce) -> None:
    one, many = statistics.median(figures.one_ms), statistics.median(figures.many_ms)
    stops = ", ".join(f"{seconds:.2f} s after {name}" for name, seconds in figures.stop_s.items())
    print(f"\nStreamable HTTP, {CLIENTS} clients at once: {figures.correct}/{figures.tasks} tasks correct in "
          f"{len(figures.contexts)} contexts; task p50 {many:,.0f} ms vs one client alone {one:,.0f} ms "
          f"({many / one:.1f}x); stopped {stops} with {CLIENTS} clients connected")
    alone, together = statistics.median(floors.one_ms), statistics.median(floors.many_ms)
    cores = len(os.sched_getaffinity(0))
    bound = CLIENTS * floors.browser_cpu_s / cores * 1000
    print(f"the cdpdriver floor, {CLIENTS} browser contexts at once: task p50 {together:,.0f} ms vs one context "
          f"alone {alone:,.0f} ms ({together / alone:.1f}x), {floors.failures} failed; the browser's CPU per task "
          f"{floors.browser_cpu_s:.2f} s, so {CLIENTS} tasks at once need at least {bound:,.0f} ms of wall time "
          f"on {cores} cores ({bound / alone:.1f}x the floor's task alone)")


def _report_goals(group: list[Server], floor: Floor, python_ms: list[float], deltas: list[Deltas],
                  figures: HttpFigures, http_tasks: int, floors: AtOnce) -> None:
    ours, peers = group[0], group[1:]
    task = statistics.median(ours.task_ms)
    fastest = statistics.median(_fastest(peers).task_ms)
    spawn = statistics.median(ours.spawn_ms)
    node = [s for s in peers if Path(s.argv[0]).name == "node"]
    tokens = statistics.median(ours.task_tokens)
    leanest = min(statistics.median(s.task_tokens) for s in peers)
    mine = deltas[0]
    many, one = statistics.median(figures.many_ms), statistics.median(figures.one_ms)
    goals = [
        ("task ≤ 1/3 of the fastest peer's", f"{task:,.0f} ms", f"≤ {fastest / 3:,.0f} ms", task <= fastest / 3),
        ("task ≤ 1.3x the cdpdriver floor", f"{task:,.0f} ms", f"≤ {1.3 * statistics.median(floor.task_ms):,.0f} ms",
         task <= 1.3 * statistics.median(floor.task_ms)),
        ("every iteration correct", f"{sum(s.failures for s in [*group, floor])} failed", "0 failed",
         all(s.failures == 0 for s in [*group, floor])),
        ("spawn → initialized ≤ 2x bare python", f"{spawn:,.0f} ms", f"≤ {2 * statistics.median(python_ms):,.0f} ms",
         spawn <= 2 * statistics.median(python_ms)),
        ("spawn → initialized ahead of every Node peer", f"{spawn:,.0f} ms",
         f"< {min(statistics.median(s.spawn_ms) for s in node):,.0f} ms",
         all(spawn < statistics.median(s.spawn_ms) for s in node)),
        ("tokens per task ≤ the leanest peer's", f"{tokens:,.0f}", f"≤ {leanest:,.0f}", tokens <= leanest),
        ("delta of an unchanged page ≤ 200 bytes", f"{mine.unchanged} B", "≤ 200 B", mine.unchanged <= 200),
        ("delta after one field ≤ 25% of the full", f"{mine.changed / mine.full:.0%}", "≤ 25%",
         mine.changed <= 0.25 * mine.full),
        ("no result sends its JSON twice (structured reader)", f"{ours.repeated} of {ours.results}", "0",
         ours.repeated == 0),
        (f"{CLIENTS} HTTP clients: every task correct, own contexts",
         f"{figures.correct}/{figures.tasks}, {len(figures.contexts)} contexts", f"{http_tasks}/{http_tasks}, {CLIENTS}",
         figures.correct == figures.tasks == http_tasks and len(figures.contexts) == CLIENTS),
        (f"{CLIENTS} HTTP clients: p50 ≤ 3x one client's (the floor, {CLIENTS} at once: "
         f"{statistics.median(floors.many_ms) / statistics.median(floors.one_ms):.1f}x)",
         f"{many / one:.1f}x", "≤ 3x", many <= 3 * one),
        ("HTTP server stops ≤ 2 s after SIGINT and SIGTERM", ", ".join(f"{v:.2f} s" for v in figures.stop_s.values()),
         "≤ 2 s", len(figures.stop_s) == 2 and max(figures.stop_s.values()) <= 2),
    ]
    print("\nGoals of issue #25 (same run, same machine)\n")
    print("| goal | measured | target | |\n|---|---:|---:|---|")
    for goal, measured, target, met in goals:
        print(f"| {goal} | {measured} | {target} | {'met' if met else 'missed'} |")


def _report_steps(group: list[Server]) -> None:
    """Each step's median per server, in task order (a step is the n-th call of a tool; the
    result page's snapshot may take several calls)."""
    print("\nSteps, median ms (a step is the n-th call of a tool in one task)\n")
    for server in group:
        cells = [f"{step} {statistics.median(times):,.0f}" + (f" (in {len(times)}/{len(server.task_ms)})"
                                                             if len(times) != len(server.task_ms) else "")
                 for step, times in server.step_ms.items()]
        print(f"- {server.label}: " + "; ".join(cells))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--spawns", type=int, default=5, help="spawn → initialized samples per server")
    parser.add_argument("--http-tasks", type=int, default=2, help="tasks per HTTP client (8 clients at once)")
    parser.add_argument("--steps", action="store_true", help="also print each step's median per server")
    options = parser.parse_args()
    trio.run(run, max(1, options.iterations), max(1, options.spawns), options.steps, max(1, options.http_tasks))
