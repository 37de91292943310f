"""Audit service benchmark: latency through POST /audit against the axe-core floor,
throughput, crawl speed and memory growth of the service process plus its browser.

Run: .venv/bin/python scripts/bench/audit_bench.py [--samples 20] [--gap 0.5] [--leak-audits 200]

It serves its own fixtures (small, medium ~1,500 elements, large ~8,000 elements, a 50-page
linked site), runs the service in-process on a real port with its own launched browser, and
talks to it over HTTP with httpx. The floor is axe-core alone on an already loaded page of
the same browser: inject the bundle and ``axe.run`` with the same tags and result types, so
"service / floor" is what everything else (fresh context, navigation, settle wait, isolated
worlds, runPartial/finishRun, mapping, HTTP) costs. Navigation is a fresh tab loading the
page; the goal is 1.5 x floor + navigation. Latency samples are taken with ``--gap`` idle
seconds before each request (a warm service that is not saturated: it prepares the next tab
in idle time); the back-to-back column shows the same audit with no idle time at all.
Prints figures; asserts nothing.
The HTTP client shares the event loop (and the 2 cores) with the server: figures include it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import trio

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))

from a11y.service import RunningService, ServiceConfig, running_service  # noqa: E402
from audit.axe_bundle import load_bundle  # noqa: E402
from audit.rules import axe_run_options  # noqa: E402

PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="

# --------------------------------------------------------------------------- fixtures


def _block(i: int) -> str:
    """One section of ~25 elements with a realistic mix, a violation every 10th block."""
    alt = "" if i % 10 == 0 else f' alt="figure {i}"'
    return (
        f'<section aria-labelledby="h{i}"><h2 id="h{i}">Section {i}</h2>'
        f"<p>Paragraph {i} with <a href=\"#s{i}\">a link</a> and <strong>strong</strong> "
        f"<em>emphasis</em>.</p>"
        f'<ul><li>one {i}</li><li>two {i}</li><li>three {i}</li></ul>'
        f'<img src="{PIXEL}" width="1" height="1"{alt}>'
        f'<form><label for="f{i}">Field {i}</label><input id="f{i}" type="text">'
        f'<button type="button">Go {i}</button></form>'
        f"<table><caption>T{i}</caption><tr><th scope=col>a</th><th scope=col>b</th></tr>"
        f"<tr><td>1</td><td>2</td></tr></table></section>"
    )


def _document(title: str, blocks: int, extra: str = "") -> bytes:
    body = "".join(_block(i) for i in range(blocks))
    return (
        f'<!doctype html><html lang="en"><head><title>{title}</title></head>'
        f"<body><header><nav><a href=\"/\">Home</a></nav></header><main><h1>{title}</h1>"
        f"{body}{extra}</main><footer><p>footer</p></footer></body></html>"
    ).encode()


def build_fixtures() -> dict[str, bytes]:
    pages = {
        "/small": _document("Small", 1, f'<img src="{PIXEL}"><p style="color:#bbb">low</p>'),
        "/medium": _document("Medium", 62),  # ~1,500 elements in the DOM (tbody added)
        "/large": _document("Large", 334),  # ~8,000 elements in the DOM
    }
    links = "".join(f'<p><a href="/site/{n}">Page {n}</a></p>' for n in range(1, 50))
    pages["/site/0"] = _document("Site home", 1, links)
    for n in range(1, 50):
        nav = f'<p><a href="/site/0">Home</a> <a href="/site/{(n % 49) + 1}">Next</a></p>'
        pages[f"/site/{n}"] = _document(f"Site page {n}", 2, nav)
    return pages


def serve_fixtures(pages: dict[str, bytes]) -> tuple[ThreadingHTTPServer, str]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802
            body = pages.get(self.path.split("?")[0])
            status = 200 if body is not None else 404
            body = body if body is not None else b"<!doctype html><title>404</title>"
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


# --------------------------------------------------------------------------- measuring


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _proc_kb(pid: int, key: str, file: str = "status") -> int:
    try:
        with open(f"/proc/{pid}/{file}") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _group_pids(pgid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # field 5 of stat: process group
            pids.append(int(entry))
    return pids


def memory(svc: RunningService) -> dict[str, float]:
    """RSS (and PSS, which does not double-count shared pages) in MiB: this Python process
    and every process of the browser's process group."""
    browser = svc.supervisor.browser
    pids = _group_pids(browser.pid) if browser is not None and browser.pid else []
    own = os.getpid()
    return {
        "python_rss": _proc_kb(own, "VmRSS") / 1024,
        "browser_rss": sum(_proc_kb(p, "VmRSS") for p in pids) / 1024,
        "browser_pss": sum(_proc_kb(p, "Pss", "smaps_rollup") for p in pids) / 1024,
        "browser_procs": len(pids),
    }


async def audit(client: httpx.AsyncClient, url: str, **extra: object) -> tuple[float, dict]:
    started = time.perf_counter()
    response = await client.post("/audit", json={"url": url, **extra})
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"{url}: {response.status_code} {response.text[:300]}")
    return elapsed, response.json()


async def dom_size(svc: RunningService, url: str) -> int:
    browser = svc.supervisor.ready
    assert browser is not None
    async with browser.context() as ctx, ctx.page() as page:
        await page.navigate(url, wait_until="load")
        return int(await page.evaluate("document.getElementsByTagName('*').length"))


async def axe_floor(svc: RunningService, url: str, runs: int) -> list[float]:
    """inject + axe.run with the service's options, on a page loaded beforehand (untimed)."""
    browser = svc.supervisor.ready
    assert browser is not None
    bundle = load_bundle().source
    options = json.dumps(axe_run_options("2.2", "AA"))
    script = (
        f"axe.run(document, {options}).then(r => r.violations.length + r.incomplete.length)"
    )
    samples = []
    async with browser.context() as ctx, ctx.page() as page:
        for _ in range(runs):
            await page.navigate(url, wait_until="load")
            started = time.perf_counter()
            await page.evaluate(bundle, await_promise=False, timeout=60)
            await page.evaluate(script, timeout=120)
            samples.append(time.perf_counter() - started)
    return samples


async def navigation(svc: RunningService, url: str, runs: int) -> list[float]:
    """A new tab in a fresh context navigated to ``load`` (tab creation untimed)."""
    browser = svc.supervisor.ready
    assert browser is not None
    samples = []
    for _ in range(runs):
        async with browser.context() as ctx, ctx.page() as page:
            started = time.perf_counter()
            await page.navigate(url, wait_until="load")
            samples.append(time.perf_counter() - started)
    return samples


async def throughput(client: httpx.AsyncClient, url: str, workers: int, total: int) -> float:
    remaining = [total]

    async def worker() -> None:
        while remaining[0] > 0:
            remaining[0] -= 1
            await audit(client, url)

    started = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for _ in range(workers):
            nursery.start_soon(worker)
    return total / (time.perf_counter() - started)


# --------------------------------------------------------------------------- main


async def main(args: argparse.Namespace) -> None:
    pages = build_fixtures()
    server, base = serve_fixtures(pages)
    counts = {"small": args.samples, "medium": max(3, args.samples // 2),
              "large": max(3, args.samples // 4)}
    config = ServiceConfig(port=0, concurrency=4, queue_size=256, max_pages=500,
                           audit_timeout=600, navigation_timeout=60)
    print(f"audit service benchmark (pid {os.getpid()}, {os.cpu_count()} cpus, "
          f"load {os.getloadavg()[0]:.1f})")
    try:
        async with running_service(config) as svc:
            await svc.supervisor.wait_ready(60)
            async with httpx.AsyncClient(base_url=svc.url, timeout=600, verify=False) as client:
                for name in ("small", "medium", "large"):  # warm-up: browser, axe, JIT caches
                    _, result = await audit(client, f"{base}/{name}")
                    html = pages["/" + name]
                    elements = await dom_size(svc, f"{base}/{name}")
                    print(f"  fixture {name:<6} {elements:>5} elements "
                          f"{len(html):>8} bytes, {result['stats']['totalFindings']} findings, "
                          f"score {result['score']}")

                print(f"\nwarm single-page audit latency (POST /audit, one at a time, "
                      f"{args.gap:g} s apart)")
                print(f"  {'page':<7}{'n':>4}{'p50 ms':>9}{'p95 ms':>9}{'floor':>8}{'nav':>6}"
                      f"{'ratio':>8}{'goal ms':>9}  {'back-to-back p50':>16}")
                for name, n in counts.items():
                    url = f"{base}/{name}"
                    service = []
                    for _ in range(n):
                        await trio.sleep(args.gap)  # an idle, warm service receives a request
                        service.append((await audit(client, url))[0] * 1000)
                    back = [(await audit(client, url))[0] * 1000 for _ in range(max(3, n // 2))]
                    floor = [s * 1000 for s in await axe_floor(svc, url, n)]
                    nav = [s * 1000 for s in await navigation(svc, url, n)]
                    s50, s95 = _pct(service, 0.5), _pct(service, 0.95)
                    f50, n50 = _pct(floor, 0.5), _pct(nav, 0.5)
                    goal = 1.5 * f50 + n50
                    print(f"  {name:<7}{n:>4}{s50:>9.0f}{s95:>9.0f}{f50:>8.0f}{n50:>6.0f}"
                          f"{s50 / f50:>7.2f}x{goal:>9.0f}  {_pct(back, 0.5):>16.0f}"
                          f"  {'met' if s50 <= goal else 'missed'}")
                print("  floor = axe-core alone (inject + axe.run) on a loaded page; nav = a fresh "
                      "tab navigated to load;\n  goal = 1.5 x floor + nav")

                print("\nthroughput, small page (service --concurrency 4)")
                for workers in (1, 2, 4):
                    total = max(8, args.samples * workers // 2)
                    rate = await throughput(client, f"{base}/small", workers, total)
                    print(f"  {workers} client(s) in flight: {rate:6.2f} audits/s  ({total} audits)")

                print("\n50-page crawl (depth 2, maxPages 50, engine concurrency 4)")
                elapsed, result = await audit(
                    client, f"{base}/site/0",
                    crawl={"enabled": True, "depth": 2, "maxPages": 50},
                )
                total_pages = result["stats"]["totalPages"]
                print(f"  {total_pages} pages in {elapsed:.2f} s: {total_pages / elapsed:.2f} pages/s "
                      f"(engine durationMs {result['durationMs']})")

                print(f"\nmemory around {args.leak_audits} small-page audits (4 in flight)")
                before = memory(svc)
                await throughput(client, f"{base}/small", 4, args.leak_audits)
                after = memory(svc)
                for key, label in (("python_rss", "python RSS"), ("browser_rss", "browser RSS"),
                                   ("browser_pss", "browser PSS")):
                    growth = 100 * (after[key] - before[key]) / before[key] if before[key] else 0.0
                    print(f"  {label:<12} {before[key]:8.1f} MiB -> {after[key]:8.1f} MiB  "
                          f"({growth:+.1f}%)")
                total_before = before["python_rss"] + before["browser_rss"]
                total_after = after["python_rss"] + after["browser_rss"]
                print(f"  {'total RSS':<12} {total_before:8.1f} MiB -> {total_after:8.1f} MiB  "
                      f"({100 * (total_after - total_before) / total_before:+.1f}%)  "
                      f"browser processes {before['browser_procs']} -> {after['browser_procs']}")
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gap", type=float, default=1.5,
                        help="idle seconds before each latency sample (the warm service case)")
    parser.add_argument("--samples", type=int, default=20, help="small-page latency samples")
    parser.add_argument("--leak-audits", type=int, default=200)
    trio.run(main, parser.parse_args())
