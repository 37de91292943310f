"""A real site nobody here wrote (issue #23): the Python 3.11 documentation, crawled for 200
pages through ``POST /audits``, beside pa11y-ci on the same URLs.

    .venv/bin/python scripts/bench/docs_site_bench.py                   # 200 pages, pa11y-ci on all
    .venv/bin/python scripts/bench/docs_site_bench.py --peer-pages 40   # pa11y-ci on the first 40
    .venv/bin/python scripts/bench/docs_site_bench.py --no-peers
    .venv/bin/python scripts/bench/docs_site_bench.py --no-peers --floor  # and axe alone on the same pages

The site is Debian's ``python3.11-doc`` (530 Sphinx pages, some of 35,000 to 49,000 elements),
installed with apt-get when it is missing, served as static files on loopback. a11y runs as
deployed: ``python -m a11y serve`` (embedded store, ``--concurrency 4``), one crawl job from
``index.html`` with screenshots on. pa11y-ci 4.1.1 (axe runner, concurrency 1: at 2 it lost
pages in the issue's run) is installed with npm into a temporary directory and pointed at
Debian's Chromium; it audits the URLs a11y audited, in the same order.

Figures: pages/s (a11y: the run's start to finish; pa11y-ci: its wall time), CPU seconds per
page (the service's whole process tree, browser included; pa11y-ci and its browser), findings
and problems, and the checks of the issue's goals: every finding in exactly one problem, and
the first page of ``GET /audits/{id}/problems`` showing each rule that has findings. Prints
figures and the goals met or missed; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT), str(Path(__file__).resolve().parent)]

import audit_fixtures  # noqa: E402
import trio  # noqa: E402
from audit_peers import _env, _timed  # noqa: E402
from audit_profile import Figures, FloorAudit  # noqa: E402
from proc_cpu import tree_cpu  # noqa: E402
from scale_bench import follow, pages_per_second, service, submit  # noqa: E402

from cdpdriver import find_chromium, launch  # noqa: E402

DOCS = Path("/usr/share/doc/python3.11/html")
PACKAGE = "python3.11-doc"
PA11Y_CI = "pa11y-ci@4.1.1"
#: The problems endpoint's first page, as the dashboard and the HTML report show it.
FIRST_PAGE = 20


def ensure_docs() -> Path:
    """The documentation's HTML directory; apt-get installs the package when it is missing."""
    if not (DOCS / "index.html").exists():
        if os.geteuid() != 0:
            raise SystemExit(f"{PACKAGE} is not installed; run: sudo apt-get install -y {PACKAGE}")
        print(f"  {PACKAGE} is not installed; installing it with apt-get")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, stdout=subprocess.DEVNULL, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", PACKAGE], check=True,
                       stdout=subprocess.DEVNULL, env=env)
    return DOCS


def a11y_crawl(base: str, pages: int, concurrency: int, work: Path, interaction: bool) -> dict[str, Any]:
    """One crawl job; its view, whole result, first problems page and CPU."""
    argv = ["--data-dir", str(work / "data"), "--concurrency", str(concurrency),
            "--max-job-pages", str(max(pages, 1000))]
    body = {"url": f"{base}/index.html", "crawl": {"enabled": True, "depth": 5, "maxPages": pages},
            "checks": {"interaction": interaction}}
    with service(argv, work) as (served, client):
        cpu_before = tree_cpu(served.pid)
        run_id = submit(client, body)
        view = follow(client, run_id, timeout=max(3600.0, 20.0 * pages))
        cpu = tree_cpu(served.pid) - cpu_before
        result = client.get(f"/audits/{run_id}/report", params={"format": "json"}).json()
        first = client.get(f"/audits/{run_id}/problems", params={"limit": FIRST_PAGE}).json()
    return {"view": view, "result": result, "first_page": first, "cpu": cpu}


def pa11y_ci(urls: list[str], work: Path) -> tuple[float, float, int]:
    """(wall s, CPU s, issues reported) of pa11y-ci over ``urls``, concurrency 1."""
    chromium = find_chromium()
    with tempfile.TemporaryDirectory(prefix="a11y-pa11y-ci-") as tmp:
        root = Path(tmp)
        (root / "package.json").write_text('{"private": true}')
        print(f"  npm install {PA11Y_CI} into {root} (temporary, no browser download)")
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", PA11Y_CI],
                       cwd=root, env=_env(chromium), check=True, stdout=subprocess.DEVNULL)
        config = {"defaults": {"runners": ["axe"], "standard": "WCAG2AA", "timeout": 120000,
                               "chromeLaunchConfig": {"executablePath": chromium,
                                                      "args": ["--no-sandbox", "--headless=new"]}},
                  "concurrency": 1, "urls": urls}
        (root / ".pa11yci.json").write_text(json.dumps(config))
        wall, cpu, out = _timed([str(root / "node_modules/.bin/pa11y-ci"), "--json",
                                 "--config", str(root / ".pa11yci.json")], root, _env(chromium),
                                timeout=max(1800.0, 30.0 * len(urls)))
    try:  # the JSON report, with whatever pa11y-ci prints around it left out
        start = out.find('{"total"')
        reported, _ = json.JSONDecoder().raw_decode(out[start if start >= 0 else out.index("{"):])
    except ValueError:
        print(f"  pa11y-ci printed no JSON: {out[-300:]!r}")
        return wall, cpu, 0
    return wall, cpu, int(reported.get("errors", 0))


def floor(urls: list[str]) -> Figures:
    """What axe-core alone costs on ``urls``: new tab + goto + inject + axe.run + close per
    page, one page at a time, through cdpdriver in a browser of its own (as audit_bench's
    floor). Its CPU per page bounds any axe-based crawl's pages/s on this machine from above:
    cores / CPU per page."""
    async def audit_all() -> Figures:
        row = Figures("floor docs")
        async with launch() as browser:
            await FloorAudit(browser).block(urls, 1, row)
        return row
    return trio.run(audit_all)


def rule_of(item: dict[str, Any]) -> str:
    return item.get("ruleId") or item.get("rule_id") or ""


def goals(run: dict[str, Any]) -> dict[str, Any]:
    """The issue's checks on the result: problem count, one problem per finding, the first
    page's rules."""
    result, first = run["result"], run["first_page"]
    problems = result.get("problems", [])
    known = {problem["id"] for problem in problems}
    findings = [*result.get("findings", []), *result.get("needsReview", [])]
    orphans = sum(1 for finding in findings if finding.get("problem") not in known)
    counted = sum(problem["instances"] for problem in problems)
    ruled = {rule_of(finding) for finding in result.get("findings", [])}
    shown = {rule_of(problem) for problem in first.get("problems", [])}
    return {
        "findings": len(result.get("findings", [])), "needs_review": len(result.get("needsReview", [])),
        "problems": len(problems), "instances_counted": counted, "items": len(findings),
        "without_problem": orphans, "rules_with_findings": len(ruled),
        "rules_missing_from_first_page": sorted(ruled - shown),
        "top_rules": Counter(rule_of(f) for f in result.get("findings", [])).most_common(5),
        "problems_by_certainty": Counter(problem.get("certainty") for problem in problems),
        "problems_by_rule": Counter(rule_of(problem) for problem in problems).most_common(12),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--peer-pages", type=int, default=None,
                        help="pa11y-ci audits the first N of a11y's pages (default: all)")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--no-interaction", action="store_true",
                        help="static checks only, as the issue's crawl ran (the interaction phase "
                             "of #22 did not exist then); default: the service's default, on")
    parser.add_argument("--floor", action="store_true",
                        help="also run the floor (axe alone) on the crawled pages: the most pages/s "
                             "any axe-based crawl reaches on this machine's cores")
    parser.add_argument("--keep-result", type=Path, default=None,
                        help="write a11y's whole result (JSON) here, to study the grouping")
    args = parser.parse_args()
    docs = ensure_docs()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="a11y-docs-bench-") as tmp, audit_fixtures.served(docs) as base:
        work = Path(tmp)
        run = a11y_crawl(base, args.pages, args.concurrency, work, not args.no_interaction)
        view = run["view"]
        done = max(view["progress"]["pagesDone"], 1)
        rate = pages_per_second(view)
        checked = goals(run)
        if args.keep_result:
            args.keep_result.write_text(json.dumps(run["result"]))
        phase = "off" if args.no_interaction else "on"
        print(f"\na11y crawl ({args.concurrency} at a time, screenshots on, interaction {phase}): "
              f"{view['status']}, "
              f"{view['progress']['pagesDone']} pages, {rate:.2f} pages/s, "
              f"{run['cpu'] / done:.2f} CPU s/page")
        for key, value in checked.items():
            print(f"  {key}: {value}")
        urls = [page["url"] for page in run["result"].get("pages", [])]
        peer_rate = None
        if not args.no_peers and shutil.which("npm"):
            chosen = urls[: args.peer_pages] if args.peer_pages else urls
            wall, cpu, issues = pa11y_ci(chosen, work)
            peer_rate = len(chosen) / wall
            print(f"\npa11y-ci (axe, concurrency 1) on {len(chosen)} of those pages: "
                  f"{peer_rate:.2f} pages/s, {cpu / len(chosen):.2f} CPU s/page, {issues} issues")
        ceiling = None
        if args.floor and urls:
            row = floor(urls)
            per_page = (row.cpu_python + row.cpu_browser) / len(urls)
            cores = os.cpu_count() or 1
            ceiling = cores / per_page
            print(f"\nfloor (axe alone, one page at a time) on those {len(urls)} pages: "
                  f"{len(urls) / row.walls[0]:.2f} pages/s, {per_page:.2f} CPU s/page; "
                  f"with all {cores} cores busy, at most {ceiling:.2f} pages/s")
        print("\ngoals (issue #23):")
        print(f"  problems <= 50: {checked['problems']} -> {'met' if checked['problems'] <= 50 else 'missed'}")
        confirmed = checked["problems_by_certainty"].get("violation", 0)
        print(f"  (of the findings alone, needs-review aside: {confirmed} problems -> "
              f"{'met' if confirmed <= 50 else 'missed'})")
        print(f"  every finding in one problem: {checked['without_problem']} without -> "
              f"{'met' if checked['without_problem'] == 0 else 'missed'}")
        print(f"  first page shows every rule: missing {checked['rules_missing_from_first_page']} -> "
              f"{'met' if not checked['rules_missing_from_first_page'] else 'missed'}")
        print(f"  >= 1.8 pages/s: {rate:.2f} -> {'met' if rate >= 1.8 else 'missed'}"
              + (f" (the floor's ceiling here: {ceiling:.2f})" if ceiling is not None else ""))
        if peer_rate:
            print(f"  >= 6x pa11y-ci: {rate / peer_rate:.1f}x -> {'met' if rate >= 6 * peer_rate else 'missed'}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
