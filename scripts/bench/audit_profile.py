"""``audit_bench.py --profile``: where an audit's time and CPU go, page kind by page kind.

Measured in one run, each on the same fixture pages:

- ``service``: a warm service (in this process, its own browser) audits each kind through
  ``POST /audit``, back to back, with the interaction phase (``checks.interaction``) off and
  on; every page's phases come from the engine's own always-on timings
  (``PageAudit.timings``, logged by ``audit.engine`` at debug level; ``interact`` is the
  phase). Its samples and the floor's are taken in alternating blocks (static, interactive,
  floor), so all three see the same machine;
- ``crawl``: the 20-page site in one ``POST /audit`` crawl (depth 1, maxPages 20), off and on;
- ``floor``: what axe-core alone costs through the same driver, in a browser of its own: a new
  tab + goto (load) + inject axe + ``axe.run`` (same rules and result types) + close;
- ``cold CLI``: ``python -m a11y audit URL`` as a new process, browser launch included.

CPU per page: this Python process (the service *and* the HTTP client that calls it) and the
browser's process tree (``/proc/<pid>/stat`` of the browser and its descendants).
"""

from __future__ import annotations

import json
import logging
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import audit_fixtures as fixtures
import httpx
import trio
from proc_cpu import CpuMeter

from a11y.service import ServiceConfig, running_service
from audit.axe_bundle import load_bundle
from audit.rules import axe_run_options
from cdpdriver import launch

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Figures:
    """One row: wall seconds per sample, CPU seconds per page, phase medians."""

    label: str
    walls: list[float] = field(default_factory=list)
    pages: int = 0
    cpu_python: float = 0.0
    cpu_browser: float = 0.0
    phases: dict[str, list[float]] = field(default_factory=dict)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls) if self.walls else float("nan")

    def per_page_cpu(self) -> tuple[float, float]:
        pages = max(self.pages, 1)
        return self.cpu_python / pages, self.cpu_browser / pages

    def add_cpu(self, cpu: tuple[float, float]) -> None:
        """Add a CpuMeter reading: (this process, the browser's tree)."""
        self.cpu_python += cpu[0]
        self.cpu_browser += cpu[1]

    def add_timings(self, timings: dict[str, float]) -> None:
        for name, seconds in timings.items():
            self.phases.setdefault(name, []).append(seconds)


class TimingsLog(logging.Handler):
    """Collects the per-page phase timings the engine logs."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.pages: list[dict[str, float]] = []

    def emit(self, record: logging.LogRecord) -> None:
        timings = getattr(record, "a11y_timings", None)
        if timings is not None:
            self.pages.append(timings)

    def __enter__(self) -> TimingsLog:
        engine = logging.getLogger("audit.engine")
        self._level = engine.level
        engine.setLevel(logging.DEBUG)
        engine.addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        engine = logging.getLogger("audit.engine")
        engine.removeHandler(self)
        engine.setLevel(self._level)


@dataclass
class BenchConfig(ServiceConfig):
    """The service's configuration with engine options overridden (``--set``)."""

    engine_overrides: dict[str, Any] = field(default_factory=dict)

    def engine_limits(self, page_limiter: trio.CapacityLimiter | None = None):
        return replace(super().engine_limits(page_limiter), **self.engine_overrides)


async def _post(client: httpx.AsyncClient, body: dict[str, Any]) -> tuple[float, dict]:
    started = time.perf_counter()
    response = await client.post("/audit", json=body)
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"{body['url']}: {response.status_code} {response.text[:300]}")
    return elapsed, response.json()


#: Samples of one kind are taken in blocks of this many, the service's and the floor's in turn,
#: so that a change in the machine's load in the minutes of a run weighs on both alike.
BLOCK = 3
#: Idle time after a block of service audits: its spare tab and finisher are made in it, and
#: must not take CPU from the floor's block that follows.
SERVICE_SETTLE = 1.5


@dataclass
class ProfileFigures:
    """Per page kind (and ``site``): the service with the interaction phase off (``static``)
    and on (``interactive``), and the floor."""

    static: dict[str, Figures] = field(default_factory=dict)
    interactive: dict[str, Figures] = field(default_factory=dict)
    floor: dict[str, Figures] = field(default_factory=dict)


async def profile_figures(base: str, samples: dict[str, int], concurrency: int,
                          overrides: dict[str, Any]) -> ProfileFigures:
    """The service's figures per kind with the interaction phase off and on, and the floor's,
    in alternating blocks (``BLOCK``); then the site, crawled through the service (off, on)
    and audited page by page by the floor."""
    config = BenchConfig(port=0, concurrency=concurrency, queue_size=64, max_pages=500,
                         audit_timeout=600, navigation_timeout=60, engine_overrides=overrides)
    figures = ProfileFigures()
    async with running_service(config) as svc, launch() as floor_browser:
        browser = await svc.supervisor.wait_ready(60)
        floor_one = FloorAudit(floor_browser)
        async with httpx.AsyncClient(base_url=svc.url, timeout=600) as client:
            for kind, runs in samples.items():
                url = fixtures.url_of(base, kind)
                static, interactive = Figures(kind), Figures(f"{kind} interactive")
                floor = Figures(f"floor {kind}")
                for block in _blocks(runs):
                    await _service_block(client, browser.pid, url, block, static, interaction=False)
                    await trio.sleep(SERVICE_SETTLE)
                    await _service_block(client, browser.pid, url, block, interactive, interaction=True)
                    await trio.sleep(SERVICE_SETTLE)
                    await floor_one.block([url], block, floor)
                figures.static[kind], figures.interactive[kind], figures.floor[kind] = static, interactive, floor
            for interaction, into in ((False, figures.static), (True, figures.interactive)):
                into["site"] = await _crawls(client, browser.pid, base, interaction=interaction)
                await trio.sleep(SERVICE_SETTLE)
            figures.floor["site"] = Figures("floor site")
            await floor_one.block(fixtures.site_urls(base), 1, figures.floor["site"])
    return figures


def _blocks(runs: int) -> list[int]:
    """``runs`` split into blocks of ``BLOCK`` (the last one shorter)."""
    return [min(BLOCK, runs - start) for start in range(0, runs, BLOCK)]


async def _service_block(client: httpx.AsyncClient, pid: int, url: str, runs: int, row: Figures, *,
                         interaction: bool) -> None:
    """One warm-up audit (it finds a spare made in the idle time before it), then ``runs``
    audits back to back."""
    body = {"url": url, "checks": {"interaction": interaction}}
    await _post(client, body)
    with TimingsLog() as log:
        meter = CpuMeter(pid)
        for _ in range(runs):
            row.walls.append((await _post(client, body))[0])
        cpu = meter.read()
    row.add_cpu(cpu)
    row.pages += runs
    for timings in log.pages:
        row.add_timings(timings)


async def _crawls(client: httpx.AsyncClient, pid: int, base: str, *, interaction: bool) -> Figures:
    crawl = {"url": fixtures.site_urls(base)[0], "checks": {"interaction": interaction},
             "crawl": {"enabled": True, "depth": 1, "maxPages": fixtures.SITE_PAGES}}
    row = Figures("site interactive" if interaction else "site")
    for _ in range(2):
        with TimingsLog() as log:
            meter = CpuMeter(pid)
            elapsed, result = await _post(client, crawl)
            cpu = meter.read()
        row.walls.append(elapsed)
        row.pages += result["stats"]["totalPages"]
        row.add_cpu(cpu)
        for timings in log.pages:
            row.add_timings(timings)
    return row


class FloorAudit:
    """new tab + goto + inject + axe.run + close, through cdpdriver, in a browser of its own."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.bundle = load_bundle().source + ";0"
        self.run = f"axe.run(document, {json.dumps(axe_run_options('2.2', 'AA'))}).then(JSON.stringify)"

    async def block(self, urls: list[str], runs: int, row: Figures) -> None:
        """One warm-up audit of the first URL, then ``runs`` samples, each all of ``urls`` in
        sequence (the site: one sample of its 20 pages)."""
        await self.one(urls[0])
        meter = CpuMeter(self.browser.pid)
        for _ in range(runs):
            started = time.perf_counter()
            for url in urls:
                await self.one(url, row)
            row.walls.append(time.perf_counter() - started)
        row.add_cpu(meter.read())
        row.pages += runs * len(urls)

    async def one(self, url: str, row: Figures | None = None) -> None:
        marks = [time.perf_counter()]
        page = await self.browser.new_page()
        marks.append(time.perf_counter())
        try:
            await page.navigate(url, wait_until="load", timeout=60)
            marks.append(time.perf_counter())
            await page.evaluate(self.bundle, timeout=60)
            marks.append(time.perf_counter())
            json.loads(await page.evaluate(self.run, timeout=300))
            marks.append(time.perf_counter())
        finally:
            await page.close()
            marks.append(time.perf_counter())
        if row is not None and len(marks) == 6:
            steps = zip(("lease", "navigate", "inject", "axe", "close"), marks, marks[1:], strict=False)
            row.add_timings({name: end - begin for name, begin, end in steps} | {"total": marks[-1] - marks[0]})


def cold_cli(base: str, kind: str, runs: int) -> Figures:
    """``python -m a11y audit URL`` in a new process each time: wall and CPU (process tree);
    ``site`` crawls the 20-page site."""
    row = Figures(f"cold CLI {kind}")
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        if kind == "site":
            target = [fixtures.site_urls(base)[0], "--crawl", "--depth", "1", "--max-pages", str(fixtures.SITE_PAGES)]
        else:
            target = [fixtures.url_of(base, kind)]
        argv = [sys.executable, "-m", "a11y", "audit", *target, "--format", "json", "--output", str(report)]
        env = {**os.environ, "PYTHONPATH": str(Path(sys.modules["audit"].__file__).parents[1])}
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            row.walls.append(time.perf_counter() - started)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            row.cpu_browser += (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            row.pages += len(json.loads(report.read_text())["pages"])
    return row


# --------------------------------------------------------------------------- printing


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"


def print_phase_table(figures: ProfileFigures) -> None:
    """The service's phases per kind, each kind static and then interactive (``+i``), and the
    floor's."""
    service = {
        label: row
        for kind in figures.static
        for label, row in ((kind, figures.static[kind]), (f"{kind}+i", figures.interactive[kind]))
    }
    floor = figures.floor
    # Phases in the order the engine records them, total last (an older engine records none).
    shown = [p for row in service.values() for p in row.phases if p != "total"]
    shown = [*dict.fromkeys(shown), *(["total"] if any("total" in r.phases for r in service.values()) else [])]
    print("\nwhere the time goes: median ms per page and phase, warm service, POST /audit back to back")
    print(f"(samples in blocks of {BLOCK}, in turn with the floor's, each block after a warm-up audit)")
    print("(inject runs while the page settles; 'total' is the engine's time for the page, 'request'"
          "\n the client's time per POST /audit; CPU s per page: python = service + HTTP client)")
    header = f"  {'page':<8}{'n':>4}" + "".join(f"{p:>9}" for p in shown)
    print(header + f"{'request':>9}{'cpu py':>8}{'cpu br':>8}")
    for kind, row in service.items():
        medians = "".join(
            f"{_ms(statistics.median(row.phases[p])) if p in row.phases else '-':>9}" for p in shown
        )
        request = row.wall / (row.pages / len(row.walls)) if kind.startswith("site") else row.wall
        cpu = row.per_page_cpu()
        print(f"  {kind:<8}{row.pages:>4}{medians}{_ms(request):>9}{cpu[0]:>8.3f}{cpu[1]:>8.3f}")
    print("  ('site' is a page of the 20-page crawl; its request column is crawl time / pages;"
          "\n  '+i': the same with the interaction phase on, checks.interaction)")
    print("\nthe floor: new tab + goto + inject + axe.run + close (cdpdriver, its own browser), median ms")
    floor_phases = ("lease", "navigate", "inject", "axe", "close", "total")
    print(f"  {'page':<8}{'n':>4}" + "".join(f"{p:>9}" for p in floor_phases) + f"{'cpu py':>8}{'cpu br':>8}")
    for kind, row in floor.items():
        medians = "".join(f"{_ms(statistics.median(row.phases[p])):>9}" for p in floor_phases)
        cpu = row.per_page_cpu()
        print(f"  {kind:<8}{row.pages:>4}{medians}{cpu[0]:>8.3f}{cpu[1]:>8.3f}")
    print("  (lease here is the new tab; inject and axe run in the page's own world)")


def print_interaction_cost(figures: ProfileFigures) -> None:
    """What the interaction phase adds, kind by kind: median request time off and on."""
    print("\nthe interaction phase (checks.interaction): median s per request, off and on")
    print(f"  {'page':<8}{'off':>8}{'on':>8}{'added':>8}")
    for kind, static in figures.static.items():
        on, off = figures.interactive[kind].wall, static.wall
        print(f"  {kind:<8}{off:>8.2f}{on:>8.2f}{(on / off - 1) * 100:>7.0f}%")
    print("  (site: the whole 20-page crawl)")
