"""``audit_bench.py --peers``: the same pages through other tools, timed in the same run.

pa11y 9.1.1 (its axe runner, axe-core 4.11) and @axe-core/cli 4.13.0 are installed with
``npm`` into a temporary directory that is deleted afterwards (never part of the project).
Neither may download a browser: Puppeteer is told to skip its download and is pointed at
Debian's Chromium, and @axe-core/cli, which drives Chromium through WebDriver, uses Debian's
``chromium-driver`` (installed with apt-get when it is missing; the bench says so). The floor
is repeated in Node with puppeteer-core (pa11y's own copy) and the vendored axe-core 4.14.1,
as a cross-check of the cdpdriver floor. Each tool runs as a child process; its CPU is the
children's rusage (the tool and the browser it started).
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import audit_fixtures as fixtures
from audit_profile import Figures
from proc_cpu import descendants

from audit.axe_bundle import load_bundle
from audit.rules import tags_for
from cdpdriver import find_chromium

PACKAGES = ("pa11y@9.1.1", "@axe-core/cli@4.13.0")
CHROMEDRIVER = "/usr/bin/chromedriver"
PR_SET_CHILD_SUBREAPER = 36

# new tab + goto + inject + axe.run + close per URL, in one warm browser (the first URL is a
# warm-up and not counted); prints {"seconds": [...]} with one figure per measured URL.
_FLOOR_JS = r"""
const puppeteer = require('puppeteer-core');
const fs = require('fs');
const [executablePath, axePath, tagsJson, ...urls] = process.argv.slice(2);
const axeSource = fs.readFileSync(axePath, 'utf8');
const options = {runOnly: {type: 'tag', values: JSON.parse(tagsJson)}, resultTypes: ['violations', 'incomplete']};
(async () => {
  const browser = await puppeteer.launch({executablePath, headless: true, args: ['--no-sandbox']});
  const seconds = [];
  for (const [i, url] of urls.entries()) {
    const started = process.hrtime.bigint();
    const page = await browser.newPage();
    await page.goto(url, {waitUntil: 'load'});
    await page.evaluate(axeSource + ';0');
    await page.evaluate((o) => axe.run(document, o), options);
    await page.close();
    if (i > 0) seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  await browser.close();
  console.log(JSON.stringify({seconds}));
})();
"""


def _env(chromium: str) -> dict[str, str]:
    return {**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1", "CHROMEDRIVER_SKIP_DOWNLOAD": "true",
            "PUPPETEER_EXECUTABLE_PATH": chromium, "CHROME_PATH": chromium}


def ensure_chromedriver() -> str:
    """Debian's chromedriver (matching the installed Chromium); installed when absent."""
    if os.access(CHROMEDRIVER, os.X_OK):
        return CHROMEDRIVER
    print("  chromium-driver is not installed; installing it with apt-get (for @axe-core/cli)")
    subprocess.run(["apt-get", "update", "-qq"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "-qq", "chromium-driver"], check=True,
                   stdout=subprocess.DEVNULL, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    return CHROMEDRIVER


@contextmanager
def installed_peers() -> Iterator[Path]:
    """A temporary directory with the peers' node_modules, deleted after the block."""
    chromium = find_chromium()
    with tempfile.TemporaryDirectory(prefix="a11y-peers-") as tmp:
        root = Path(tmp)
        (root / "package.json").write_text('{"private": true}')
        print(f"  npm install {' '.join(PACKAGES)} into {root} (temporary, no browser download)")
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", *PACKAGES],
                       cwd=root, env=_env(chromium), check=True, stdout=subprocess.DEVNULL)
        yield root


def _adopt_orphans() -> None:
    """Become the subreaper of our descendants: a browser its driver left behind is
    re-parented to us, so its CPU can still be counted (Linux only; harmless elsewhere)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _reap_orphans(known: set[int]) -> None:
    """Wait (up to 5 s, then kill) for the processes a tool left behind, and reap them, so
    their CPU lands in our children's rusage."""
    deadline = time.monotonic() + 5
    while True:
        orphans = [pid for pid in descendants(os.getpid()) if pid != os.getpid() and pid not in known]
        if not orphans:
            return
        for pid in orphans:
            try:
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, os.WNOHANG)
            except (ChildProcessError, ProcessLookupError):
                pass
        time.sleep(0.05)


def _timed(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> tuple[float, float, str]:
    """(wall s, CPU s of the tool and every process it started, stdout) of one run; exit
    codes are the tools' verdicts on the page, not failures of the run."""
    _adopt_orphans()
    known = set(descendants(os.getpid()))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    wall = time.perf_counter() - started
    _reap_orphans(known)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1, 2):
        raise RuntimeError(f"{argv[:3]} exited {done.returncode}: {done.stderr[-500:]}")
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), done.stdout


def pa11y_cli(root: Path, url: str, runs: int) -> Figures:
    """``pa11y --runner axe URL``, a new process (and browser) each run."""
    chromium = find_chromium()
    config = root / "pa11y.json"
    config.write_text(json.dumps({"chromeLaunchConfig": {"executablePath": chromium, "args": ["--no-sandbox"]}}))
    row = Figures("pa11y CLI")
    for _ in range(runs):
        wall, cpu, _ = _timed(["node", str(root / "node_modules/.bin/pa11y"), "--runner", "axe",
                               "--config", str(config), "--reporter", "json", url], root, _env(chromium))
        row.walls.append(wall)
        row.cpu_browser += cpu
        row.pages += 1
    return row


def axe_cli(root: Path, urls: list[str], runs: int = 1) -> Figures:
    """``axe URL URL ...`` (@axe-core/cli): one process and browser for all ``urls``."""
    chromium = find_chromium()
    driver = ensure_chromedriver()
    row = Figures("@axe-core/cli")
    for _ in range(runs):
        wall, cpu, _ = _timed(["node", str(root / "node_modules/.bin/axe"), *urls,
                               "--chromedriver-path", driver, "--chrome-path", chromium,
                               "--chrome-options", "no-sandbox", "--no-reporter",
                               "--tags", ",".join(tags_for("2.2", "AA"))], root, _env(chromium))
        row.walls.append(wall)
        row.cpu_browser += cpu
        row.pages += len(urls)
    return row


def puppeteer_floor(root: Path, urls: list[str], *, one_sample: bool = False) -> Figures:
    """The floor in Node: a sample per URL (after one warm-up), or with ``one_sample`` all of
    ``urls`` as one; CPU per page for the whole run."""
    chromium = find_chromium()
    script = root / "floor.js"
    script.write_text(_FLOOR_JS)
    tags = json.dumps(tags_for("2.2", "AA"))
    wall, cpu, out = _timed(["node", str(script), chromium, str(load_bundle().path), tags, urls[0], *urls],
                            root, _env(chromium))
    seconds = json.loads(out.strip().splitlines()[-1])["seconds"]
    row = Figures("puppeteer floor", walls=[sum(seconds)] if one_sample else seconds, pages=len(seconds))
    row.cpu_browser = cpu * len(seconds) / (len(seconds) + 1)  # the warm-up's share left out
    return row


def peers_available() -> str | None:
    """Why the peers cannot run here, or None."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install nodejs npm)"
    return None


def run_peers(base: str, samples: dict[str, int]) -> dict[str, Figures]:
    """Every peer figure the goals need, keyed ``pa11y small``, ``axe-cli site``, ..."""
    out: dict[str, Figures] = {}
    with installed_peers() as root:
        for kind in fixtures.KINDS:
            runs = max(1, min(3, samples[kind]))
            out[f"pa11y {kind}"] = pa11y_cli(root, fixtures.url_of(base, kind), runs)
            out[f"axe-cli {kind}"] = axe_cli(root, [fixtures.url_of(base, kind)], runs)
            out[f"puppeteer floor {kind}"] = puppeteer_floor(
                root, [fixtures.url_of(base, kind)] * max(1, samples[kind]))
        out["axe-cli site"] = axe_cli(root, fixtures.site_urls(base))
        out["puppeteer floor site"] = puppeteer_floor(root, fixtures.site_urls(base), one_sample=True)
    return out
