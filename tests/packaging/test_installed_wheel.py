"""The package as its users get it: built, installed outside the checkout, run from elsewhere.

``python -m build`` makes the sdist and then the wheel *from* that sdist, so one build proves
both archives: the sdist carries all the wheel needs. The wheel goes into a fresh virtual
environment in a temporary directory, and every front end runs from another temporary
directory, with nothing of the checkout on its path, against real Chromium (and the worker
against real Redis and PostgreSQL).

The fresh environment borrows its third-party dependencies, read-only, from the checkout's
``.venv`` (a ``.pth`` naming a directory of links to them, ours left out) rather than
downloading them: that keeps the test at tens of seconds and off the network, while pip,
run with ``--no-index`` and without ``--no-deps``, still resolves the wheel's declared
dependencies against them and refuses the install if one is missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tarfile
import threading
import time
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import trio
from mcp import Client, StdioServerParameters

from jobs.system import Jobs
from tests.jobs.system.support import LIMITS, job, tree_site, wait_finished
from tests.service.conftest import VIOLATIONS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
AXE_LOCK = json.loads((ROOT / "vendor" / "axe" / "axe.lock.json").read_text(encoding="utf-8"))
#: Upper bounds against hangs only; each step takes a fraction of these.
BUILD_TIMEOUT_S = 600
RUN_TIMEOUT_S = 180
#: Not sources: left out of the copy the build starts from.
_NOT_SOURCES = shutil.ignore_patterns(
    ".venv",
    ".git",
    "tests",
    "a11y-data",
    "a11y-output",
    "build",
    "dist",
    "__pycache__",
    "*.egg-info",
    "node_modules",
    ".cache",
    ".pytest_cache",
    ".ruff_cache",
)
#: The environment variables that would let the checkout leak into the installed commands.
_CHECKOUT_VARIABLES = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "A11Y_AXE_PATH")


@dataclass(frozen=True)
class Installed:
    sdist: Path
    wheel: Path
    venv: Path
    #: Where the commands run: neither the checkout nor the environment.
    elsewhere: Path
    env: dict[str, str]

    def a11y(
        self, *args: str, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run the installed ``a11y`` with ``args`` to its end."""
        return subprocess.run(
            [str(self.venv / "bin" / "a11y"), *args],
            cwd=self.elsewhere,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=RUN_TIMEOUT_S,
        )


def _together(
    *calls: Callable[[], subprocess.CompletedProcess[str]],
) -> list[subprocess.CompletedProcess[str]]:
    """Run several commands at the same time (each waits mostly on its own browser)."""
    with ThreadPoolExecutor(len(calls)) as pool:
        return [future.result() for future in [pool.submit(call) for call in calls]]


def _run(*command: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=BUILD_TIMEOUT_S,
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def _borrow_dependencies(venv: Path, links: Path) -> None:
    """Make the checkout's installed dependencies, but not a11y itself, importable in ``venv``."""
    links.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        name = entry.name
        if (
            name.startswith(("a11y", "__editable__"))
            or name.endswith(".pth")
            or name == "__pycache__"
        ):
            continue
        (links / name).symlink_to(entry)
    (purelib,) = (venv / "lib").glob("python3.*/site-packages")
    (purelib / "a11y_test_borrowed_dependencies.pth").write_text(f"{links}\n", encoding="utf-8")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    base = tmp_path_factory.mktemp("packaged")
    tree, dist, venv = base / "tree", base / "dist", base / "venv"
    shutil.copytree(ROOT, tree, ignore=_NOT_SOURCES)
    _run(sys.executable, "-m", "build", "--outdir", dist, tree)
    (sdist,) = dist.glob("a11y-*.tar.gz")
    (wheel,) = dist.glob("a11y-*.whl")
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    _borrow_dependencies(venv, base / "borrowed")
    _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        venv / "bin" / "python",
        "install",
        "--no-index",
        "--disable-pip-version-check",
        "--no-warn-script-location",
        wheel,
    )
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in _CHECKOUT_VARIABLES}
    return Installed(sdist, wheel, venv, elsewhere, env)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_archives_carry_the_bundle_and_every_data_file(installed):
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        for member, digest in AXE_LOCK["files"].items():
            assert _sha256(wheel.read(f"audit/vendor/axe/{member}")) == digest, member
    assert "audit/vendor/axe/NOTICE.md" in names  # the MPL-2.0 notice travels with the bundle
    expected = {
        "tools/tool_list.json",
        "a11y/service/static/dashboard.css",
        "a11y/service/static/js/dashboard.js",
        "audit/reports/report.css",
        "jobs/store/migrations/env.py",
    }
    expected |= {str(p.relative_to(ROOT / "src")) for p in (ROOT / "src").glob("*/**/js/*.js")}
    expected |= {
        str(p.relative_to(ROOT / "src"))
        for p in (ROOT / "src" / "jobs" / "store" / "migrations" / "versions").glob("0*.py")
    }
    assert expected <= names, sorted(expected - names)
    assert not {n for n in names if n.startswith(("tests/", "vendor/", "scripts/"))}

    with tarfile.open(installed.sdist) as sdist:
        top = sdist.getnames()[0].split("/")[0]
        inside = {name.removeprefix(top + "/") for name in sdist.getnames()}
        bundle = sdist.extractfile(f"{top}/vendor/axe/axe.min.js").read()
    assert _sha256(bundle) == AXE_LOCK["files"]["axe.min.js"]
    assert {
        "setup.py",
        "MANIFEST.in",
        "scripts/fetch_npm.py",
        "vendor/axe/axe.lock.json",
        "vendor/axe/NOTICE.md",
        "vendor/axe/LICENSE",
    } <= inside


def test_version_and_doctor_need_no_checkout(installed):
    version, doctor, no_browser = _together(
        lambda: installed.a11y("--version"),
        lambda: installed.a11y("doctor"),
        lambda: installed.a11y("doctor", env={"CHROME_PATH": "/nonexistent/chrome"}),
    )
    assert version.returncode == 0, version.stderr
    assert re.fullmatch(
        rf"a11y \S+ \(axe-core {re.escape(AXE_LOCK['version'])}; browser .*Chrom.*\)\n",
        version.stdout,
    ), version.stdout

    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert f"axe-core: {AXE_LOCK['version']} at {installed.venv}" in doctor.stdout
    assert "warning" not in doctor.stdout  # no other distribution owns our names here

    assert no_browser.returncode == 1
    assert "sudo apt-get install chromium" in no_browser.stdout
    assert "CHROME_PATH" in no_browser.stdout
    assert "install.sh" not in no_browser.stdout  # a script of the repository means nothing here


def test_audit_prints_text_and_json(installed, site):
    url = site.route("/packaged/violations", VIOLATIONS)
    # Both at once: each launches its own browser. The interaction phase is not what is tested.
    text, as_json = _together(
        lambda: installed.a11y("audit", url, "--no-interaction"),
        lambda: installed.a11y("audit", url, "--no-interaction", "--format", "json"),
    )
    assert text.returncode == 0, text.stderr
    assert "image-alt" in text.stdout and "Traceback" not in text.stderr
    assert as_json.returncode == 0, as_json.stderr
    result = json.loads(as_json.stdout)
    assert "image-alt" in {finding["ruleId"] for finding in result["findings"]}


def test_serve_answers_health_and_an_audit(installed, site):
    url = site.route("/packaged/served", VIOLATIONS)
    proc = subprocess.Popen(
        [str(installed.venv / "bin" / "a11y"), "serve", "--port", "0", "--concurrency", "1"],
        cwd=installed.elsewhere,
        env={**installed.env, "A11Y_API_TOKEN": "wheel-token"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    listening = threading.Event()
    address: dict[str, str] = {}

    def read_log() -> None:
        for line in proc.stderr:
            lines.append(line)
            if found := re.search(r"listening on (http://\S+)", line):
                address["url"] = found.group(1).rstrip(",")
                listening.set()

    reader = threading.Thread(target=read_log, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + RUN_TIMEOUT_S
        while not listening.wait(0.05):
            assert proc.poll() is None, "serve exited early:\n" + "".join(lines)
            assert time.monotonic() < deadline, "serve never listened:\n" + "".join(lines)
        with httpx.Client(base_url=address["url"], timeout=RUN_TIMEOUT_S) as client:
            assert client.get("/health").status_code == 200
            answer = client.post(
                "/audit",
                json={"url": url, "checks": {"interaction": False}},
                headers={"Authorization": "Bearer wheel-token"},
            )
        assert answer.status_code == 200, answer.text
        assert "image-alt" in {finding["ruleId"] for finding in answer.json()["findings"]}
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=RUN_TIMEOUT_S) == 0, "".join(lines)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        reader.join(timeout=30)


async def test_mcp_stdio_session(installed, site, tmp_path):
    url = site.route(
        "/packaged/mcp", "<!doctype html><html lang=en><title>Packaged</title><h1>Packaged</h1>"
    )
    params = StdioServerParameters(
        command=str(installed.venv / "bin" / "a11y"),
        args=["mcp", "--output-dir", str(tmp_path)],
        env=installed.env,
        cwd=installed.elsewhere,
    )
    async with Client(params) as client:
        listed = await client.list_tools()
        assert {"page_navigate", "page_screenshot"} <= {tool.name for tool in listed.tools}
        navigated = await client.call_tool("page_navigate", {"url": url})
        assert not navigated.is_error, navigated
        shot = await client.call_tool("page_screenshot", {})
        assert not shot.is_error, shot
        assert [block.type for block in shot.content] == ["text", "image"]
        assert shot.content[1].mime_type == "image/png" and shot.structured_content["width"] > 0


async def test_worker_audits_a_job_s_pages_and_stops_on_sigterm(
    installed, site, chromium, postgres_url, redis_server, redis_prefix, tmp_path
):
    """The installed ``a11y worker`` on real Redis and PostgreSQL audits the pages of a job
    this process submits (its own system runs no worker), then ends cleanly on SIGTERM."""
    start = tree_site(site, "packaged-worker", 3, fanout=2)
    log_path = tmp_path / "worker.log"
    async with Jobs.open(database=postgres_url, queue=redis_server.url, limits=LIMITS,
                         browsers=None, workers=0, prefix=redis_prefix) as jobs:
        # Started once Jobs.open has migrated the database, as a deployment starts its
        # workers once the service is up.
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                [str(installed.venv / "bin" / "a11y"), "worker", "--database", postgres_url,
                 "--queue", redis_server.url, "--queue-prefix", redis_prefix,
                 "--browser-url", chromium.http_url, "--concurrency", "2"],
                cwd=installed.elsewhere,
                env=installed.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        try:
            run = await jobs.submit(job(start, depth=2, maxPages=3))
            done = await wait_finished(jobs, run.id, timeout=RUN_TIMEOUT_S)
            result = await jobs.result(run.id)
            assert proc.poll() is None, log_path.read_text(errors="replace")
            proc.send_signal(signal.SIGTERM)
            with trio.fail_after(RUN_TIMEOUT_S):
                while proc.poll() is None:
                    await trio.sleep(0.05)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)
    log_text = log_path.read_text(errors="replace")
    assert done.status == "completed", (done.error, log_text)
    assert sorted(page["url"] for page in result["pages"]) == sorted(
        site.url(f"/packaged-worker/{n}") for n in range(3)
    )
    assert all(page["status"] == "ok" for page in result["pages"]), result["pages"]
    assert proc.returncode == 0, log_text
    assert "received SIGTERM; stopping" in log_text and "Traceback" not in log_text, log_text
