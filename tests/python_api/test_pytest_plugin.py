"""The pytest plugin through real pytest runs of generated test files (``pytester``, each run
in a subprocess: this suite runs in trio mode, the generated ones as a user's plain suite).

Run 1 launches the plugin's browser: a planted violation fails with a readable message, a
clean page passes, a page the test serves itself is audited, and ``--a11y-save-baseline``
writes every result; run 2 reads them with ``--a11y-baseline``: old findings pass, a new
one fails, on HTML the plugin serves and on the test's own page alike.
Run 3 audits on a Chromium started with ``--remote-debugging-port`` (the shared test
browser), and run 4 shows an unusable baseline file stopping the run before any test. Run 5
is SIGKILLed mid-test, with no teardown at all: the browser it launched must still go.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

#: Hang guard for one generated run (a browser launch and a few audits on a loaded machine).
RUN_TIMEOUT = 300

OLD = (
    '<!doctype html><html lang="en"><head><title>Shop</title></head><body><main>'
    '<h1>Shop</h1><img src="logo.png"></main></body></html>'
)
NEW = OLD.replace("</main>", '<input id="q" type="search"></main>')
CLEAN = (
    '<!doctype html><html lang="en"><head><title>Fine</title></head><body><main>'
    "<h1>Fine</h1><p>Plain dark text.</p></main></body></html>"
)

LAUNCHED_TESTS = f"""
import os

import pytest

OLD = {OLD!r}
NEW = {NEW!r}
CLEAN = {CLEAN!r}
PHASE = os.environ["A11Y_TEST_PHASE"]


def test_planted_violation(a11y_audit):
    a11y_audit(OLD)


def test_clean_page(a11y_audit, a11y_session):
    result = a11y_audit(CLEAN)
    assert result.findings == [] and result.score == 100
    with open(os.environ["A11Y_TEST_PID"], "w") as file:
        file.write(str(a11y_session.browser_pid))


def test_unchanged(a11y_audit):
    if PHASE == "record":
        a11y_audit(OLD, fail_on=None)
    else:
        assert a11y_audit(OLD).findings  # old findings, all in the baseline


def test_regressed(a11y_audit):
    if PHASE == "record":
        a11y_audit(OLD, fail_on=None)
    else:
        a11y_audit(NEW)


def test_own_page(a11y_audit):
    url = os.environ["A11Y_OWN_PAGE"]
    if PHASE == "record":
        a11y_audit(url, fail_on=None, level="A", version="2.1")
    else:
        a11y_audit(url, level="A", version="2.1")
"""

ATTACHED_TESTS = f"""
import os

OLD = {OLD!r}
CLEAN = {CLEAN!r}


def test_planted_violation(a11y_audit):
    a11y_audit(OLD)


def test_clean_page(a11y_audit, a11y_session):
    assert a11y_audit(CLEAN).findings == []
    assert not a11y_session.launched and a11y_session.browser_pid is None


def test_browser_url_per_call(a11y_audit):
    page, browser = os.environ["A11Y_OWN_PAGE"], os.environ["A11Y_BROWSER"]
    result = a11y_audit(page, browser_url=browser, fail_on=None, best_practices=True)
    rules = [finding.rule_id for finding in result.findings]
    assert "image-alt" in rules and "label" in rules
"""

KILLED_TESTS = f"""
import os
import time

CLEAN = {CLEAN!r}


def test_audits_then_hangs(a11y_audit, a11y_session):
    a11y_audit(CLEAN)
    path = os.environ["A11Y_TEST_PID"]
    with open(path + ".part", "w") as file:
        file.write(str(a11y_session.browser_pid))
    os.replace(path + ".part", path)
    time.sleep({RUN_TIMEOUT})  # killed long before
"""
#: Upper bound for the browser to follow a killed run (it takes about two seconds).
GONE_TIMEOUT = 60


def _run(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *args: str
) -> pytest.RunResult:
    """A generated suite in a fresh interpreter. Only our plugin is loaded (``-p``, as a
    project that disables autoloading enables it): the environment's other plugins cost
    seconds of start-up per run. That installing the package registers it is shown by
    :func:`test_installing_the_package_registers_the_plugin`."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester.runpytest_subprocess(
        "-p", "a11y.pytest_plugin", "-p", "no:cacheprovider", "-rA", *args, timeout=RUN_TIMEOUT
    )


def _outcome_lines(output: str) -> dict[str, str]:
    """Test name -> PASSED/FAILED, from ``-rA``'s short summary."""
    found = re.findall(r"^(PASSED|FAILED) \S+::(\w+)", output, re.MULTILINE)
    return {name: state for state, name in found}


def _failure_section(output: str, test: str) -> str:
    match = re.search(rf"_+ {test} _+\n(.*?)(?=\n_{{3,}} |\n=+ )", output, re.DOTALL)
    assert match, f"no failure section for {test} in:\n{output}"
    return match.group(1)


def _process_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _group_left(pgid: int) -> list[int]:
    """The processes of group ``pgid`` still running (zombies, which are only waiting for a
    parent to collect their status, left out)."""
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != b"Z":
            left.append(int(entry.name))
    return left


def test_launched_browser_findings_and_baseline(pytester, monkeypatch, site, tmp_path):
    pid_file, baseline = tmp_path / "pid", tmp_path / "a11y-baseline.json"
    monkeypatch.setenv("A11Y_TEST_PID", str(pid_file))
    monkeypatch.setenv("A11Y_OWN_PAGE", site.url("/audit/violations.html"))
    pytester.makepyfile(test_shop=LAUNCHED_TESTS)
    # A project's own rootdir: the test ids, so the URLs of the HTML pages, stay put.
    pytester.makeini("[pytest]\n")

    monkeypatch.setenv("A11Y_TEST_PHASE", "record")
    # Options with a path as one word: pytest finds the rootdir before plugin options exist.
    first = _run(pytester, monkeypatch, f"--a11y-save-baseline={baseline}")
    text = first.stdout.str()
    assert _outcome_lines(text) == {
        "test_planted_violation": "FAILED",
        "test_clean_page": "PASSED",
        "test_unchanged": "PASSED",
        "test_regressed": "PASSED",
        "test_own_page": "PASSED",
    }, text
    message = _failure_section(text, "test_planted_violation")
    assert "a11y: 1 finding(s) at or above 'serious' on http://a11y-pytest.test/" in message
    assert "[critical] image-alt: img" in message
    assert "Images must have alternative text" in message
    assert re.search(r"https://dequeuniversity\.com/rules/axe/[\d.]+/image-alt", message)
    assert "Traceback" not in message and "During handling" not in message
    pid = int(pid_file.read_text())
    assert _process_gone(pid), "the plugin's browser outlived the test session"
    saved = json.loads(baseline.read_text())
    assert len(saved) == 5 and {report["wcagVersion"] for report in saved} == {"2.1", "2.2"}
    monkeypatch.setenv("A11Y_TEST_PHASE", "compare")
    second = _run(
        pytester,
        monkeypatch,
        f"--a11y-baseline={baseline}",
        "-k",
        "unchanged or regressed or own",
    )
    text = second.stdout.str()
    assert _outcome_lines(text) == {
        "test_unchanged": "PASSED",
        "test_regressed": "FAILED",
        "test_own_page": "PASSED",
    }, text
    message = _failure_section(text, "test_regressed")
    assert "a11y: 1 new finding(s) at or above 'serious'" in message
    assert "1 finding(s) already in the baseline" in message
    assert "[critical] label: #q" in message and "image-alt" not in message


def test_browser_given_by_url(pytester, monkeypatch, chromium, site):
    monkeypatch.setenv("A11Y_OWN_PAGE", site.url("/audit/violations.html"))
    monkeypatch.setenv("A11Y_BROWSER", chromium.ws_url)
    pytester.makepyfile(test_attached=ATTACHED_TESTS)
    run = _run(pytester, monkeypatch, f"--a11y-browser-url={chromium.http_url}")
    text = run.stdout.str()
    assert _outcome_lines(text) == {
        "test_planted_violation": "FAILED",
        "test_clean_page": "PASSED",
        "test_browser_url_per_call": "PASSED",
    }, text
    message = _failure_section(text, "test_planted_violation")
    assert re.search(
        r"on http://127\.0\.0\.1:\d+/test_attached\.py-test_planted_violation ", message
    )
    assert "[critical] image-alt: img" in message


def test_unusable_baseline_stops_the_run(pytester, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"not": "a report"}')
    pytester.makepyfile(test_never="def test_never(a11y_audit):\n    raise AssertionError('ran')\n")
    run = pytester.runpytest_inprocess(f"--a11y-baseline={broken}")  # stops before any test
    assert run.ret == pytest.ExitCode.USAGE_ERROR
    assert f"--a11y-baseline: {broken} is not a JSON report of an audit" in run.stderr.str()


def test_installing_the_package_registers_the_plugin(pytestconfig):
    """The ``pytest11`` entry point: this very session loaded the plugin without being asked."""
    from importlib.metadata import entry_points

    (entry,) = [e for e in entry_points(group="pytest11") if e.value == "a11y.pytest_plugin"]
    assert entry.name == "a11y"
    assert pytestconfig.pluginmanager.has_plugin("a11y")
    assert pytestconfig.getoption("a11y_baseline") is None


def test_a_killed_run_leaves_no_browser(pytester, monkeypatch, tmp_path):
    """SIGKILL runs no teardown, no ``finally`` and no ``atexit``: the browser the run launched
    (its own process group, with its helpers) must end on its own."""
    pid_file, output = tmp_path / "pid", tmp_path / "output.txt"
    monkeypatch.setenv("A11Y_TEST_PID", str(pid_file))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makepyfile(test_killed=KILLED_TESTS)
    pytester.makeini("[pytest]\n")
    with open(output, "wb") as sink:
        run = pytester.popen(
            [sys.executable, "-m", "pytest", "-p", "a11y.pytest_plugin", "-p", "no:cacheprovider"],
            stdout=sink,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    pid = None
    try:
        deadline = time.monotonic() + RUN_TIMEOUT
        while not pid_file.exists():
            assert run.poll() is None, output.read_text(errors="replace")
            assert time.monotonic() < deadline, "no audit within the bound:\n" + output.read_text()
            time.sleep(0.05)
        pid = int(pid_file.read_text())
        assert b"chrom" in Path(f"/proc/{pid}/cmdline").read_bytes().lower()
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=30)
        # The browser leads its own group: gone when no process of that group runs (its
        # PID alone could linger as a zombie where nothing reaps orphans).
        deadline = time.monotonic() + GONE_TIMEOUT
        while _group_left(pid):
            assert time.monotonic() < deadline, (
                f"the browser of a killed run is still there after {GONE_TIMEOUT} s: "
                f"{_group_left(pid)}"
            )
            time.sleep(0.05)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(timeout=30)
        if pid is not None and _group_left(pid):
            os.killpg(pid, signal.SIGKILL)  # only after a failure: leave nothing behind
