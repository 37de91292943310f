"""CDP driver benchmark: cold start, evaluate round trip vs a bare websocket floor, navigation.

Run: .venv/bin/python scripts/bench/cdp_bench.py [--calls 1000]
Prints figures for this machine; it asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from http.server import ThreadingHTTPServer

import local_pages
import trio
import trio_websocket

from cdpdriver import LaunchOptions, launch
from cdpdriver.transport import MAX_MESSAGE_BYTES

PAGE = b"<!doctype html><html lang=en><title>bench</title><main><h1>Bench</h1>" + b"<p>text</p>" * 200 + b"</main>"


def _serve() -> tuple[ThreadingHTTPServer, str]:
    server, base = local_pages.serve(lambda path: PAGE)
    return server, f"{base}/"


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _line(label: str, samples_ms: list[float]) -> None:
    print(f"  {label:<44} p50 {_pct(samples_ms, 0.5):7.3f} ms   p99 {_pct(samples_ms, 0.99):7.3f} ms")


async def cold_start(pipe: bool, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        async with launch(LaunchOptions(pipe=pipe)) as browser:
            await browser.session.send("Browser.getVersion")
            times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def driver_round_trips(pipe: bool, calls: int) -> list[float]:
    async with launch(LaunchOptions(pipe=pipe)) as browser:
        page = await browser.new_page()
        for _ in range(50):
            await page.evaluate("1 + 1")
        samples = []
        for _ in range(calls):
            started = time.perf_counter()
            await page.evaluate("1 + 1")
            samples.append((time.perf_counter() - started) * 1000)
        return samples


async def bare_websocket_round_trips(calls: int) -> list[float]:
    """The floor: one websocket, hand-written JSON, no driver code at all."""
    async with launch(LaunchOptions(pipe=False)) as browser:
        page = await browser.new_page()
        port_url = (browser.process.profile_dir / "DevToolsActivePort").read_text().splitlines()
        ws_url = f"ws://127.0.0.1:{port_url[0]}/devtools/page/{page.target_id}"
        async with trio_websocket.open_websocket_url(ws_url, max_message_size=MAX_MESSAGE_BYTES) as ws:
            ids = itertools.count(1)
            samples = []
            for n in range(calls + 50):
                started = time.perf_counter()
                command_id = next(ids)
                await ws.send_message(json.dumps({"id": command_id, "method": "Runtime.evaluate",
                                                  "params": {"expression": "1 + 1", "returnByValue": True}}))
                while json.loads(await ws.get_message()).get("id") != command_id:
                    pass
                if n >= 50:
                    samples.append((time.perf_counter() - started) * 1000)
            return samples


async def navigation(url: str, runs: int = 30) -> list[float]:
    async with launch() as browser:
        page = await browser.new_page()
        await page.navigate(url)
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            await page.navigate(url)
            samples.append((time.perf_counter() - started) * 1000)
        return samples


async def main(calls: int) -> None:
    server, url = _serve()
    try:
        print(f"cdpdriver benchmark ({calls} calls; Python {sys.version.split()[0]})")
        print("cold start to first command (median of 5):")
        for pipe in (True, False):
            print(f"  {'pipe' if pipe else 'websocket':<44} {await cold_start(pipe):7.1f} ms")
        print("Runtime.evaluate('1 + 1') round trip:")
        floor = await bare_websocket_round_trips(calls)
        ws = await driver_round_trips(False, calls)
        pipe = await driver_round_trips(True, calls)
        _line("bare websocket loop (floor)", floor)
        _line("driver over websocket", ws)
        _line("driver over pipe", pipe)
        base = _pct(floor, 0.5)
        print(f"  ratio driver/floor p50: websocket {_pct(ws, 0.5) / base:.2f}x, pipe {_pct(pipe, 0.5) / base:.2f}x")
        print("navigate to a local page and wait for load:")
        _line("page.navigate(url)", await navigation(url))
    finally:
        server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=1000)
    trio.run(main, parser.parse_args().calls)
