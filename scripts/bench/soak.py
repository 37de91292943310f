"""Soak: many audits through the HTTP service and many MCP tool calls, with what they leave
behind measured before and after (issue #17): the browser process tree's private memory and renderer
count, its open page targets, and this process's RSS and file descriptors (the service and
the MCP server run in it).

    python scripts/bench/soak.py [--audits 300] [--tool-calls 3000]

Launches its own Chromium and a small local site; prints the figures and the growth.
``tests/faults/test_soak.py`` runs the same soak at small counts and asserts on it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from proc_cpu import descendants  # noqa: E402  (the bench scripts' process-tree walk)

PAGE = """<!doctype html><html lang=en><head><title>Soak {n}</title></head><body><main>
<h1>Soak page {n}</h1><img src=pixel.png><a href=#top></a>
<form><label>Name <input id=name></label><input type=checkbox id=ok aria-label=OK>
<button type=button onclick="document.getElementById('out').textContent = 'done ' + name.value">Go</button>
</form><p id=out></p></main></body></html>"""


@dataclass(frozen=True)
class Snapshot:
    browser_private_kb: int
    renderers: int
    page_targets: int
    rss_kb: int
    fds: int

    def growth(self, later: Snapshot) -> dict[str, float]:
        """Relative growth of each figure from this snapshot to ``later``."""
        out = {}
        for name in ("browser_private_kb", "renderers", "page_targets", "rss_kb", "fds"):
            before, after = getattr(self, name), getattr(later, name)
            out[name] = (after - before) / before if before else float(after)
        return out


def _private_kb(pid: int) -> int:
    """The memory ``pid`` wrote and shares with nobody (``Private_Dirty``): its heaps, where
    a leak grows. Not PSS: a process's share of the pages it maps with others (the browser's
    libraries) grows when another browser on the machine exits and shrinks when one starts,
    which moved a soak's reading by 10 % while other tests ran."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Private_Dirty:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _is_renderer(pid: int) -> bool:
    try:
        return b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def snapshot(browser_pid: int, devtools_http_url: str) -> Snapshot:
    tree = descendants(browser_pid)
    with urllib.request.urlopen(f"{devtools_http_url}/json/list", timeout=10) as reply:  # noqa: S310
        targets = [t for t in json.load(reply) if t.get("type") == "page"]
    rss = next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
               if line.startswith("VmRSS:"))
    return Snapshot(
        browser_private_kb=sum(_private_kb(pid) for pid in tree),
        renderers=sum(_is_renderer(pid) for pid in tree),
        page_targets=len(targets),
        rss_kb=rss,
        fds=len(os.listdir("/proc/self/fd")),
    )


async def soak(ws_url: str, site_url: str, audits: int, tool_calls: int, output_dir: Path,
               measure: callable, warm_up: float = 0.1) -> tuple[Snapshot, Snapshot]:
    """Run the work, measuring once after the first ``warm_up`` share of it (caches, pools
    and lazily imported modules settle there) and once after the end."""
    import httpx
    import trio
    from mcp import Client

    from a11y.mcp_server import build_server
    from a11y.service import ServiceConfig, running_service
    from tools.session import ServerConfig

    config = ServiceConfig(port=0, browser_url=ws_url, navigation_timeout=15, audit_timeout=60,
                           graceful_timeout=0.5, data_dir=output_dir / "data")
    tool_config = ServerConfig(browser_url=ws_url, isolated=True, output_dir=output_dir / "out")
    first_audits = max(1, int(audits * warm_up))
    first_calls = max(1, int(tool_calls * warm_up))
    async with running_service(config) as svc, httpx.AsyncClient(base_url=svc.url, timeout=120) as http, \
            Client(build_server(tool_config)) as mcp:

        async def audit_some(count: int, start: int) -> None:
            for n in range(start, start + count):
                reply = await http.post("/audit", json={"url": f"{site_url}/soak/{n % 20}.html"})
                assert reply.status_code == 200, reply.text
                assert reply.json()["findings"], "the soak page has findings"

        async def call_some(count: int, start: int) -> None:
            cycle = [
                ("page_navigate", lambda n: {"url": f"{site_url}/soak/{n % 20}.html"}),
                ("element_fill", lambda n: {"selector": "#name", "value": f"v{n}"}),
                ("element_click", lambda n: {"selector": "button"}),
                ("js_evaluate", lambda n: {"script": "document.getElementById('out').textContent"}),
                ("accessibility_snapshot", lambda n: {}),
                ("page_screenshot", lambda n: {}),
            ]
            for n in range(start, start + count):
                name, args = cycle[n % len(cycle)]
                result = await mcp.call_tool(name, args(n))
                assert not result.is_error, (name, result.content[0].text[:500])

        async def both(audit_count: int, audit_start: int, call_count: int, call_start: int) -> None:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(audit_some, audit_count, audit_start)
                nursery.start_soon(call_some, call_count, call_start)

        await both(first_audits, 0, first_calls, 0)
        before = await kept(ws_url, measure)
        await both(audits - first_audits, first_audits, tool_calls - first_calls, first_calls)
        after = await kept(ws_url, measure)
    return before, after


async def kept(ws_url: str, measure: callable, reads: int = 3) -> Snapshot:
    """The settled snapshot (:func:`settled`) after a collection, its memory the lowest of
    ``reads`` reads 0.25 s apart, each after a collection: what the browser's processes hold
    between two of their own trims (compositor tiles, caches given back under pressure)
    comes and goes; a leak is in every read."""
    import dataclasses

    import trio

    await collect_garbage(ws_url)
    first = await settled(measure)
    private, rss = first.browser_private_kb, first.rss_kb
    for _ in range(reads - 1):
        await trio.sleep(0.25)
        await collect_garbage(ws_url)
        now = measure()
        private, rss = min(private, now.browser_private_kb), min(rss, now.rss_kb)
    return dataclasses.replace(first, browser_private_kb=private, rss_kb=rss)


async def collect_garbage(ws_url: str) -> None:
    """Make every page collect its garbage and every process drop its caches before a
    measure, so that memory counts what is kept, not what a collector has yet to free: a
    renderer's heap before and after its next collection differs by megabytes (a CI run
    read 11 % growth that was that), and a leak survives a collection."""
    from cdpdriver import CDPError, connect
    from cdpdriver.protocol import target as target_domain
    from cdpdriver.session import Session

    async with connect(ws_url) as browser:
        for info in await browser.targets():
            if info.type != "page":
                continue
            try:  # a page of a context being disposed may be gone by now: nothing to collect
                session_id = await browser.session.execute(
                    target_domain.attach_to_target(info.target_id, flatten=True), timeout=10)
                page = Session(browser.connection, session_id)
                await page.send("HeapProfiler.collectGarbage", timeout=10)
                await page.send("Memory.simulatePressureNotification", {"level": "critical"}, timeout=10)
                await browser.session.execute(target_domain.detach_from_target(session_id=session_id), timeout=10)
            except CDPError:
                continue


async def settled(measure: callable, *, interval: float = 0.25, limit: float = 30.0) -> Snapshot:
    """A snapshot once the browser has finished closing what the work left: a disposed
    context's renderer exits a while after the reply, later on a busy machine. Settled is
    no more renderers than page targets (every soak page is one process of its own, with no
    frames or workers) and the same counts of renderers, targets and this process's open
    descriptors (a connection closing) in two reads ``interval`` apart; after ``limit``
    s, the last read, for the caller's assertions to judge."""
    import trio

    last = measure()
    with trio.move_on_after(limit):
        while True:
            await trio.sleep(interval)
            now = measure()
            steady = (now.renderers, now.page_targets, now.fds) == (last.renderers, last.page_targets, last.fds)
            if steady and now.renderers <= now.page_targets:
                return now
            last = now
    return last


def soak_site_routes() -> dict[str, str]:
    return {f"/soak/{n}.html": PAGE.format(n=n) for n in range(20)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--audits", type=int, default=300)
    parser.add_argument("--tool-calls", type=int, default=3000)
    args = parser.parse_args()

    import trio

    from tests.support.chrome import SharedChromium
    from tests.support.site import Site

    chromium, site = SharedChromium(), Site().start()
    for path, body in soak_site_routes().items():
        site.route(path, body)
    try:
        with tempfile.TemporaryDirectory(prefix="a11y-soak-") as tmp:
            started = time.perf_counter()
            before, after = trio.run(
                soak, chromium.ws_url, site.url("").rstrip("/"), args.audits, args.tool_calls,
                Path(tmp), lambda: snapshot(chromium.process.pid, chromium.http_url),
            )
            took = time.perf_counter() - started
    finally:
        site.stop()
        chromium.stop()
    print(f"soak: {args.audits} audits and {args.tool_calls} tool calls in {took:.0f} s "
          f"(load average {os.getloadavg()[0]:.1f})")
    print(f"  {'':<16}{'after warm-up':>15}{'at the end':>12}{'growth':>9}")
    growth = before.growth(after)
    for name in ("browser_private_kb", "renderers", "page_targets", "rss_kb", "fds"):
        print(f"  {name:<16}{getattr(before, name):>15}{getattr(after, name):>12}{growth[name]:>9.1%}")


if __name__ == "__main__":
    main()
