"""Audit benchmark: what an audit costs next to axe-core alone and next to other tools.

    .venv/bin/python scripts/bench/audit_bench.py --profile --peers   # the issue #13 figures
    .venv/bin/python scripts/bench/audit_bench.py                     # latency, throughput, memory

Pages (``audit_fixtures.py``): small (~40 elements), medium (~1,500), large (~8,000) and a
20-page linked site, served by a child process. The service runs in this process on a real
port with a browser of its own and is called over HTTP (httpx), so its figures include HTTP.

``--profile`` prints, per page kind, with the interaction phase off and on (``+i``, in
alternating blocks), the median of every phase of the engine (lease a tab, context, navigate
to load, settle, inject axe, axe run, finish, links, interact, identify, close), the CPU seconds
per page of this process and of the browser's process tree, the floor (new tab + goto +
inject axe + axe.run + close, nothing else) and the cold CLI. ``--peers`` adds pa11y and
@axe-core/cli on the same pages (``audit_peers.py``: installed with npm into a temporary
directory) and the table of the goals of issues #13 and #22, each a ratio measured in this run.
``--set name=value`` overrides an engine option (``EngineLimits``) to measure one idea, e.g.
``--set share_crawl_context=false``; ``--baseline`` switches every optimisation off.
``A11Y_BENCH_SRC=/path/to/older/src`` benchmarks another source tree (e.g. an older commit
exported with ``git archive``): the before half of a before/after comparison.
Prints figures; asserts nothing. Timings are noisy on a loaded machine: the load average
is printed first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import fields
from pathlib import Path

import httpx
import trio

ROOT = Path(__file__).resolve().parents[2]
#: The source tree benchmarked: this checkout's, or another one (an older commit, for a
#: before/after comparison) named by A11Y_BENCH_SRC.
SRC = Path(os.environ.get("A11Y_BENCH_SRC") or ROOT / "src").resolve()
sys.path.insert(0, str(SRC))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import audit_fixtures as fixtures  # noqa: E402
from audit_profile import (  # noqa: E402
    Figures,
    ProfileFigures,
    cold_cli,
    print_interaction_cost,
    print_phase_table,
    profile_figures,
)
from proc_cpu import tree_cpu  # noqa: E402

from a11y.service import ServiceConfig, running_service  # noqa: E402
from audit.engine import EngineLimits  # noqa: E402

GOALS = (
    # (label, numerator key, denominator key, target, what is compared)
    ("small page, back to back / floor", "service small", "floor small", 1.3),
    ("medium page, back to back / floor", "service medium", "floor medium", 1.2),
    ("large page, back to back / floor", "service large", "floor large", 1.2),
    ("20-page crawl (service) / @axe-core/cli 20 URLs", "service site total", "axe-cli site total", 1 / 3),
    ("CPU per page, crawl / floor (site pages)", "service site cpu", "floor site cpu", 1.3),
    ("cold CLI / pa11y CLI, small page", "cold small", "pa11y small", 0.7),
    # issue #22: what the interaction phase may add (the rows above are measured with it off)
    ("medium page, interaction on / off", "interactive medium", "service medium", 1.35),
    ("20-page crawl, interaction on / off", "interactive site total", "service site total", 1.25),
)


def _parse_value(text: str) -> object:
    lowered = text.lower()
    if lowered in ("true", "on", "yes", "1"):
        return True
    if lowered in ("false", "off", "no", "0"):
        return False
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        return text


def engine_overrides(args: argparse.Namespace) -> dict[str, object]:
    names = {f.name for f in fields(EngineLimits)}
    optimisations = getattr(sys.modules["audit.engine"], "OPTIMISATIONS", ())
    out: dict[str, object] = dict.fromkeys(optimisations, False) if args.baseline else {}
    for item in args.set:
        name, _, value = item.partition("=")
        if name not in names:
            raise SystemExit(f"--set {name}: not an EngineLimits field ({', '.join(sorted(names))})")
        out[name] = _parse_value(value)
    return out


def per_page(row: Figures) -> float:
    """Median wall seconds of one page (a site sample holds all its pages)."""
    return row.wall / (row.pages / len(row.walls))


def measured(figures: ProfileFigures, cold: dict[str, Figures], peers: dict[str, Figures]) -> dict[str, float]:
    """The figures the goals compare, by key (``service``: the interaction phase off)."""
    service, floor = figures.static, figures.floor
    out: dict[str, float] = {"interactive medium": figures.interactive["medium"].wall,
                             "interactive site total": figures.interactive["site"].wall}
    for kind in fixtures.KINDS:
        out[f"service {kind}"] = service[kind].wall
        out[f"floor {kind}"] = per_page(floor[kind])
        if f"pa11y {kind}" in peers:
            out[f"pa11y {kind}"] = peers[f"pa11y {kind}"].wall
    out["service site total"] = service["site"].wall
    out["service site cpu"] = sum(service["site"].per_page_cpu())
    out["floor site cpu"] = sum(floor["site"].per_page_cpu())
    if "axe-cli site" in peers:
        out["axe-cli site total"] = peers["axe-cli site"].wall
    out["cold small"] = cold["small"].wall
    return out


def print_comparison(service: dict[str, Figures], floor: dict[str, Figures],
                     cold: dict[str, Figures], peers: dict[str, Figures]) -> None:
    print("\nside by side: median seconds per page (site: the whole 20-page site)")
    columns = [("pa11y CLI", "pa11y"), ("@axe-core/cli", "axe-cli"), ("a11y CLI cold", None),
               ("service b2b", None), ("floor", None), ("floor (node)", "puppeteer floor")]
    print(f"  {'page':<8}" + "".join(f"{name:>15}" for name, _ in columns))
    for kind in (*fixtures.KINDS, "site"):
        cells = []
        for name, key in columns:
            row = None
            if key is not None:
                row = peers.get(f"{key} {kind}")
            elif name.startswith("a11y CLI"):
                row = cold.get(kind)
            elif name.startswith("service"):
                row = service.get(kind)
            else:
                row = floor.get(kind)
            if row is None:
                cells.append(f"{'-':>15}")
                continue
            seconds = row.wall if kind == "site" else per_page(row)
            cpu = sum(row.per_page_cpu())
            cells.append(f"{seconds:>8.2f} ({cpu:.2f})")
        print(f"  {kind:<8}" + "".join(cells))
    print("  (in brackets: CPU s per page, the tool and its browser; service: service + client + browser)")


def print_goals(values: dict[str, float]) -> None:
    print("\ngoals of issues #13 and #22 (same run, same machine)")
    print(f"  {'goal':<52}{'ratio':>8}{'target':>9}")
    for label, top, bottom, target in GOALS:
        if top not in values or bottom not in values:
            print(f"  {label:<52}{'-':>8}{target:>8.2f}x  (needs --peers)")
            continue
        ratio = values[top] / values[bottom]
        verdict = "met" if ratio <= target else "missed"
        print(f"  {label:<52}{ratio:>7.2f}x{target:>8.2f}x  {verdict}"
              f"  ({values[top]:.3f} / {values[bottom]:.3f})")


async def profile(args: argparse.Namespace, base: str) -> None:
    from audit_peers import peers_available, run_peers

    samples = {"small": args.samples, "medium": max(3, args.samples // 2), "large": max(3, args.samples // 4)}
    overrides = engine_overrides(args)
    print(f"engine: {SRC}; options: {overrides or 'defaults'}; service --concurrency {args.concurrency}")
    figures = await profile_figures(base, samples, args.concurrency, overrides)
    service, floor = figures.static, figures.floor
    print_phase_table(figures)
    print_interaction_cost(figures)
    site = service["site"]
    print(f"\n20-page crawl through POST /audit: {site.wall:.2f} s median of {len(site.walls)} "
          f"({site.pages // len(site.walls)} pages), floor {floor['site'].wall:.2f} s for the 20 pages")
    cold = {kind: cold_cli(base, kind, 3 if kind == "small" else 2) for kind in fixtures.KINDS}
    cold["site"] = cold_cli(base, "site", 1)
    print("\ncold CLI (python -m a11y audit URL, a new process and browser each time)")
    for kind, row in cold.items():
        print(f"  {kind:<8}{row.wall:>7.2f} s median of {len(row.walls)}, CPU {row.cpu_browser:.2f} s"
              f" for {row.pages} page(s)")
    peers: dict[str, Figures] = {}
    if args.peers:
        why = peers_available()
        if why:
            print(f"\npeers skipped: {why}")
        else:
            print("\npeers")
            peers = await trio.to_thread.run_sync(run_peers, base, samples)
    print_comparison(service, floor, cold, peers)
    print_goals(measured(figures, cold, peers))


# --------------------------------------------------------------------------- classic figures


async def _audit(client: httpx.AsyncClient, url: str, **extra: object) -> float:
    started = time.perf_counter()
    response = await client.post("/audit", json={"url": url, **extra})
    if response.status_code != 200:
        raise RuntimeError(f"{url}: {response.status_code} {response.text[:300]}")
    return time.perf_counter() - started


def _rss_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as fh:
                total += next((int(line.split()[1]) for line in fh if line.startswith("VmRSS:")), 0)
        except OSError:
            pass
    return total / 1024


async def classic(args: argparse.Namespace, base: str) -> None:
    """Latency with idle time before each request and back to back, throughput, memory."""
    from proc_cpu import descendants

    config = ServiceConfig(port=0, concurrency=args.concurrency, queue_size=256, max_pages=500,
                           audit_timeout=600, navigation_timeout=60)
    async with running_service(config) as svc:
        browser = await svc.supervisor.wait_ready(60)
        async with httpx.AsyncClient(base_url=svc.url, timeout=600) as client:
            print(f"\nwarm latency, ms (POST /audit one at a time; idle = {args.gap:g} s before each)")
            print(f"  {'page':<8}{'idle p50':>10}{'idle p95':>10}{'b2b p50':>10}")
            for kind in fixtures.KINDS:
                url = fixtures.url_of(base, kind)
                await _audit(client, url)
                idle = []
                for _ in range(max(3, args.samples // 2)):
                    await trio.sleep(args.gap)
                    idle.append(await _audit(client, url) * 1000)
                back = [await _audit(client, url) * 1000 for _ in range(max(3, args.samples // 2))]
                print(f"  {kind:<8}{statistics.median(idle):>10.0f}{max(idle):>10.0f}"
                      f"{statistics.median(back):>10.0f}")
            print(f"\nthroughput, small page (service --concurrency {args.concurrency})")
            for workers in (1, 2, 4):
                total = max(8, args.samples * workers // 2)
                started = time.perf_counter()
                async with trio.open_nursery() as nursery:
                    for index in range(total):
                        nursery.start_soon(_audit, client, fixtures.url_of(base, "small"))
                        if index % workers == workers - 1:
                            await trio.sleep(0)
                print(f"  {workers} in flight: {total / (time.perf_counter() - started):6.2f} audits/s")
            pids = descendants(browser.pid) if browser.pid else []
            before = _rss_mib(pids) + _rss_mib([os.getpid()])
            cpu = tree_cpu(browser.pid)
            for _ in range(args.leak_audits // 4):
                async with trio.open_nursery() as nursery:
                    for _ in range(4):
                        nursery.start_soon(_audit, client, fixtures.url_of(base, "small"))
            pids = descendants(browser.pid) if browser.pid else []
            after = _rss_mib(pids) + _rss_mib([os.getpid()])
            print(f"\nmemory around {args.leak_audits} small-page audits (4 in flight): RSS "
                  f"{before:.0f} -> {after:.0f} MiB (python + browser), browser CPU "
                  f"{(tree_cpu(browser.pid) - cpu) / max(1, args.leak_audits):.3f} s per audit")


async def main(args: argparse.Namespace) -> None:
    load = os.getloadavg()
    print(f"audit benchmark: {os.cpu_count()} cpus, load average {load[0]:.1f} / {load[1]:.1f} / "
          f"{load[2]:.1f} (1/5/15 min); figures are noisy when this is above ~0.5 per cpu")
    with tempfile.TemporaryDirectory(prefix="a11y-bench-") as tmp:
        fixtures.write(Path(tmp))
        with fixtures.served(Path(tmp)) as base:
            if args.profile or args.peers:
                await profile(args, base)
            else:
                await classic(args, base)
    load = os.getloadavg()
    print(f"\nload average at the end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true", help="phase table, floor, cold CLI")
    parser.add_argument("--peers", action="store_true",
                        help="also pa11y and @axe-core/cli (npm, temporary) and the goals table")
    parser.add_argument("--samples", type=int, default=12, help="small-page samples (medium half, large a quarter)")
    parser.add_argument("--concurrency", type=int, default=4, help="the service's --concurrency")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="override an EngineLimits option (repeatable)")
    parser.add_argument("--baseline", action="store_true", help="every engine optimisation off")
    parser.add_argument("--gap", type=float, default=1.0, help="idle seconds before a latency sample")
    parser.add_argument("--leak-audits", type=int, default=200)
    trio.run(main, parser.parse_args())
