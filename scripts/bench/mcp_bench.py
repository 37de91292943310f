"""MCP tool-call overhead: the server over stdio with the SDK client vs raw driver calls.

Run: .venv/bin/python scripts/bench/mcp_bench.py [--calls 200]
Both sides drive the same Chromium on the same local page. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import base64
import statistics
import sys
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

import local_pages
import trio
from mcp import Client, StdioServerParameters

from cdpdriver import LaunchOptions, launch

PAGE = b"""<!doctype html><html lang=en><title>Bench page</title>
<button id=go onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Go</button>
<input id=name aria-label=Name><p id=out>ready</p></html>"""


def _serve() -> tuple[ThreadingHTTPServer, str]:
    server, base = local_pages.serve(lambda path: PAGE)
    return server, f"{base}/"


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _time(fn, calls: int) -> list[float]:
    for _ in range(10):
        await fn()
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def raw_ops(page) -> dict:
    session = page.session

    async def click() -> None:
        box = await page.evaluate("(() => { const r = document.querySelector('#go').getBoundingClientRect();"
                                  " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            await session.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                            "button": "left", "clickCount": 1})

    async def fill() -> None:
        await page.evaluate("(() => { const e = document.querySelector('#name'); e.focus(); e.select(); })()")
        await session.send("Input.insertText", {"text": "hello"})

    async def screenshot() -> None:
        reply = await session.send("Page.captureScreenshot", {"format": "png"})
        base64.b64decode(reply["data"])

    return {
        "page_get_title": lambda: page.evaluate("document.title"),
        "element_click": click,
        "element_fill": fill,
        "js_evaluate": lambda: page.evaluate("1 + 1"),
        "page_screenshot": screenshot,
    }


TOOL_ARGS = {
    "page_get_title": {},
    "element_click": {"selector": "#go"},
    "element_fill": {"selector": "#name", "value": "hello"},
    "js_evaluate": {"script": "1 + 1"},
    "page_screenshot": {"format": "base64"},
}


async def main(calls: int) -> None:
    server, url = _serve()
    try:
        async with launch(LaunchOptions(pipe=False)) as browser:
            port_line = (browser.process.profile_dir / "DevToolsActivePort").read_text().splitlines()
            ws_url = f"ws://127.0.0.1:{port_line[0]}{port_line[1]}"
            page = await browser.new_page()
            await page.navigate(url)
            raw = {name: await _time(fn, calls) for name, fn in (await raw_ops(page)).items()}
            params = StdioServerParameters(
                command=sys.executable,
                args=["-m", "a11y", "mcp", "--browser-url", ws_url, "--output-dir",
                      str(Path("/tmp/a11y-mcp-bench"))],
            )
            async with Client(params) as client:
                await client.call_tool("page_navigate", {"url": url})
                via_mcp = {}
                for name, args in TOOL_ARGS.items():
                    async def one(name=name, args=args) -> None:
                        result = await client.call_tool(name, args)
                        if result.is_error:
                            raise RuntimeError(f"{name}: {result.content[0].text}")
                    via_mcp[name] = await _time(one, calls)
                print(f"MCP tool-call overhead ({calls} calls each, stdio, same browser and page)")
                print(f"  {'operation':<18} {'raw p50':>9} {'raw p95':>9} {'mcp p50':>9} {'mcp p95':>9} {'overhead p50':>13} {'ratio':>6}")
                overheads = []
                for name in TOOL_ARGS:
                    r50, r95 = _pct(raw[name], 0.5), _pct(raw[name], 0.95)
                    m50, m95 = _pct(via_mcp[name], 0.5), _pct(via_mcp[name], 0.95)
                    overheads.append(m50 - r50)
                    print(f"  {name:<18} {r50:8.2f}ms {r95:8.2f}ms {m50:8.2f}ms {m95:8.2f}ms {m50 - r50:11.2f}ms {m50 / r50:5.1f}x")
                print(f"  median overhead over the raw driver: {statistics.median(overheads):.2f} ms per call")
                steps = [{"tool": "js_evaluate", "args": {"script": f"{i} * 2"}} for i in range(20)]
                started = time.perf_counter()
                for step in steps:
                    await client.call_tool(step["tool"], step["args"])
                separate = (time.perf_counter() - started) * 1000
                started = time.perf_counter()
                result = await client.call_tool("batch_execute", {"steps": steps})
                batched = (time.perf_counter() - started) * 1000
                assert not result.is_error, result
                print(f"  20 js_evaluate steps: separate calls {separate:.1f} ms, one batch_execute {batched:.1f} ms "
                      f"({separate / batched:.1f}x faster)")
    finally:
        server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200)
    trio.run(main, parser.parse_args().calls)
