"""A long crawl runs in flat service memory: the frontier, the results and the events are in
the store, so what the service holds does not grow with the pages it has audited.

The service is ``python -m a11y serve`` (the embedded default: SQLite, the in-process queue,
its local worker on the session's Chromium), measured from ``/proc/<pid>/status``. The site
is ``A11Y_FLAT_RSS_PAGES`` small pages: 80 by default, about 10 s on 2 idle cores (a
soak: ``A11Y_FLAT_RSS_PAGES=5000``; ``scripts/bench/scale_bench.py --flat-memory`` prints the
RSS every 500 pages of such a crawl).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import trio

from tests.support.ports import listening_port
from tests.support.site import Response, Site

ROOT = Path(__file__).resolve().parents[3]
PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="
PAGES = int(os.environ.get("A11Y_FLAT_RSS_PAGES", "80"))
#: Growth allowed between the first quarter and the last page: allocator noise and caches
#: that fill once (SQLAlchemy's statement cache, thread stacks), not anything per page.
MARGIN_BYTES = 8 * 2**20


def small_site(site: Site, name: str, pages: int) -> str:
    """``pages`` small pages: page n links to pages 10n+1 … 10n+10 (depth 3 holds 1,111), and
    every tenth has a finding (an image without alternative text). Returns the start URL."""
    for n in range(pages):
        links = "".join(f'<a href="/{name}/{c}">{c}</a> ' for c in range(10 * n + 1, min(10 * n + 11, pages)))
        image = f'<img src="{PIXEL}">' if n % 10 == 0 else ""
        site.route(f"/{name}/{n}", Response(
            f"<!doctype html><html lang=en><title>{name} {n}</title><main><h1>{n}</h1>{image}<p>{links}</p></main></html>"
        ))
    return site.url(f"/{name}/0")


def rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"process {pid} has no VmRSS")


async def test_a_long_crawl_runs_in_flat_service_memory(chromium, site, tmp_path):
    start = small_site(site, "jobs-flat", PAGES)
    with open(tmp_path / "service.log", "wb") as log:
        service = subprocess.Popen(
            [sys.executable, "-m", "a11y", "serve", "--port", "0", "--data-dir", str(tmp_path / "data"),
             "--browser-url", chromium.ws_url, "--concurrency", "2"],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        )
    samples: dict[str, tuple[int, int]] = {}
    try:
        port = await trio.to_thread.run_sync(listening_port, service)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            with trio.fail_after(60):
                while True:
                    assert service.poll() is None, (tmp_path / "service.log").read_text()
                    try:
                        if (await client.get("/health")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    await trio.sleep(0.1)
            body = {"url": start, "crawl": {"enabled": True, "depth": 5, "maxPages": PAGES},
                    "screenshots": False,  # the frontier and results are measured here,
                    "checks": {"interaction": False}}  # not what the browser does
            accepted = await client.post("/audits", json=body)
            assert accepted.status_code == 202, accepted.text
            run_id = accepted.json()["id"]
            with trio.fail_after(60 + 2 * PAGES):
                while True:
                    view = (await client.get(f"/audits/{run_id}", params={"limit": 1})).json()
                    done = view["progress"]["pagesDone"]
                    if done >= PAGES // 4 and "quarter" not in samples:
                        samples["quarter"] = (done, rss(service.pid))
                    if view["status"] != "running" and view["status"] != "queued":
                        samples["last"] = (done, rss(service.pid))
                        break
                    await trio.sleep(0.2)
    finally:
        service.send_signal(signal.SIGTERM)
        try:
            service.wait(30)
        except subprocess.TimeoutExpired:
            service.kill()
            service.wait(10)
    assert view["status"] == "completed", view
    assert done == PAGES
    (quarter_pages, at_quarter), (_, at_last) = samples["quarter"], samples["last"]
    print(f"service RSS: {at_quarter / 2**20:.1f} MB after {quarter_pages} pages, "
          f"{at_last / 2**20:.1f} MB after {PAGES}")
    assert quarter_pages < PAGES
    assert at_last <= at_quarter + MARGIN_BYTES, (
        f"service RSS grew from {at_quarter / 2**20:.1f} MB after {quarter_pages} pages "
        f"to {at_last / 2**20:.1f} MB after {PAGES}"
    )
