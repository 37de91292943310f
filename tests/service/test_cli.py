"""``python -m a11y audit`` as a subprocess against pages of the test site.

Every run launches its own Chromium, so the runs are started together once per module (a
few at a time) and each test inspects the run it cares about.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from a11y.audit_cli import Progress
from a11y.cli import main as cli_main
from audit.models import AuditRequest, ErrorInfo, PageResult
from tests.service.conftest import CLEAN, VIOLATIONS
from tests.support.sarif import validate_sarif
from tests.support.site import refused_url

ROOT = Path(__file__).resolve().parents[2]
RUN_TIMEOUT = 180


LINKED = """<!doctype html><html lang="en"><head><title>{title}</title></head>
<body><main><h1>{title}</h1>{links}</main></body></html>"""


def _page(title: str, *links: str) -> str:
    return LINKED.format(title=title, links="".join(f'<p><a href="{h}">{h}</a></p>' for h in links))


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "a11y", "audit", *argv],
        capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=ROOT, env=env,
    )


@pytest.fixture(scope="module")
def runs(site, tmp_path_factory) -> dict[str, Future]:
    out = tmp_path_factory.mktemp("cli")
    bad = site.route("/cli/violations", VIOLATIONS)
    good = site.route("/cli/clean", CLEAN)
    start = site.route("/cli/site/", _page("Home", "/cli/site/a", "/cli/site/b"))
    site.route("/cli/site/a", _page("A", "/cli/site/"))
    site.route("/cli/site/b", _page("B", "/cli/site/a"))
    refused = refused_url()
    # The CLI's defaults (the interaction phase on) in the first two; the others are about
    # formats, exits and progress, and read the DOM only (a cold CLI's phase costs a second).
    static = "--no-interaction"
    cases = {
        "text": [bad, "--fail-on", "critical"],
        "json": [good, "--format", "json", "--fail-on", "minor"],
        "sarif": [bad, static, "--format", "sarif", "--output", str(out / "nested" / "dir" / "a11y.sarif")],
        "junit": [bad, static, "--format", "junit", "--fail-on", "minor"],
        "html": [bad, static, "--format", "html", "--output", str(out / "report.html")],
        "refused": [refused, static, "--format", "json"],
        "crawl": [start, static, "--crawl", "--depth", "2", "--max-pages", "10", "--format", "json"],
    }
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(_run, argv) for name, argv in cases.items()}
        futures["_out"] = Future()
        futures["_out"].set_result(out)
        yield futures


def _get(runs: dict[str, Future], name: str) -> subprocess.CompletedProcess[str]:
    return runs[name].result(timeout=RUN_TIMEOUT * 3)


def test_text_report_on_stdout_and_fail_on_critical_exits_1(runs):
    run = _get(runs, "text")
    assert run.returncode == 1, run.stderr
    assert "Accessibility audit of" in run.stdout
    assert "image-alt" in run.stdout
    assert "image-alt" not in run.stderr  # the report is on stdout only
    assert "Traceback" not in run.stderr


def test_json_report_parses_and_clean_page_exits_0_even_with_fail_on_minor(runs):
    run = _get(runs, "json")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["conformant"] is True and result["findings"] == []
    assert (result["wcagVersion"], result["wcagLevel"]) == ("2.2", "AA")


def test_sarif_written_to_a_new_directory_validates(runs):
    run = _get(runs, "sarif")
    assert run.returncode == 0, run.stderr  # no --fail-on: findings do not fail the run
    assert run.stdout == ""
    path = runs["_out"].result() / "nested" / "dir" / "a11y.sarif"
    log = json.loads(path.read_text(encoding="utf-8"))
    validate_sarif(log)
    for res in log["runs"][0]["results"]:  # beyond the schema: what our results always carry
        assert res["ruleId"] and res["message"]["text"]
        assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    rule_ids = {r["ruleId"] for r in log["runs"][0]["results"]}
    assert {"image-alt", "label"} <= rule_ids


def test_junit_parses_as_xml_with_failures(runs):
    run = _get(runs, "junit")
    assert run.returncode == 1, run.stderr
    root = ET.fromstring(run.stdout)
    assert root.tag == "testsuites"
    assert int(root.get("failures", "0")) > 0
    assert root.findall(".//testcase/failure")


def test_html_report_is_a_full_document(runs):
    run = _get(runs, "html")
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""
    html = (runs["_out"].result() / "report.html").read_text(encoding="utf-8")
    assert html.lstrip().lower().startswith("<!doctype html")
    assert "<html" in html and html.rstrip().endswith("</html>")
    assert "image-alt" in html


def test_refused_connection_exits_2_with_the_reason(runs):
    run = _get(runs, "refused")
    assert run.returncode == 2
    assert run.stdout == ""
    assert "navigation_failed" in run.stderr and "ERR_CONNECTION_REFUSED" in run.stderr
    assert "Traceback" not in run.stderr


def test_crawl_prints_one_progress_line_per_page_on_stderr(runs):
    run = _get(runs, "crawl")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)  # stdout holds nothing but the report
    assert result["stats"]["totalPages"] == 3
    progress = [line for line in run.stderr.splitlines() if line.startswith("page ")]
    assert len(progress) == 3, run.stderr
    assert "/cli/site/" in run.stderr


@pytest.mark.parametrize(
    ("argv", "option", "field"),
    [
        (["javascript:alert(1)"], "URL", "url"),
        (["file:///etc/passwd"], "URL", "url"),
        (["http://example.com", "--level", "AAAA"], "--level", "level"),
        (["http://example.com", "--version", "3.0"], "--version", "version"),
        (["http://example.com", "--crawl", "--depth", "9"], "--depth", "crawl.depth"),
        (["http://example.com", "--crawl", "--max-pages", "0"], "--max-pages", "crawl.maxPages"),
    ],
)
def test_bad_argument_exits_2_naming_the_field(argv, option, field, capsys):
    """In-process (same ``main`` as the subprocess): refused before any browser starts."""
    assert cli_main(["audit", *argv]) == 2
    out, err = capsys.readouterr()
    assert option in err and field in err, err
    assert out == ""


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _request(crawl: bool) -> AuditRequest:
    return AuditRequest.model_validate(
        {"url": "http://example.com/", "crawl": {"enabled": crawl, "maxPages": 5}})


def test_progress_on_a_terminal_rewrites_one_line_and_clears_it():
    stream = _Tty()
    progress = Progress(_request(True), stream)
    progress.start("http://example.com/")
    progress.page(PageResult(url="http://example.com/", status="ok", findings=2))
    progress.page(PageResult(url="http://example.com/b", status="failed",
                             error=ErrorInfo(code="http_error", message="404")))
    progress.finish()
    text = stream.getvalue()
    assert "\n" not in text  # one live line, never scrolling
    assert "[1/5] http://example.com/ (2 finding(s))" in text
    assert "[2/5] http://example.com/b (failed: http_error)" in text
    assert text.endswith("\r\x1b[K")


def test_progress_without_a_terminal_is_one_plain_line_per_page():
    stream = io.StringIO()
    progress = Progress(_request(True), stream)
    progress.start("http://example.com/")
    progress.page(PageResult(url="http://example.com/", status="ok", findings=0))
    progress.finish()
    assert stream.getvalue() == "page 1: http://example.com/ (0 finding(s))\n"


def test_no_progress_for_a_single_page():
    stream = _Tty()
    progress = Progress(_request(False), stream)
    progress.start("http://example.com/")
    progress.page(PageResult(url="http://example.com/", status="ok", findings=0))
    progress.finish()
    assert stream.getvalue() == ""
