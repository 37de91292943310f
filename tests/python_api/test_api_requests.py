"""The Python API without a browser: requests built and refused as POST /audit would, the
lazy package attributes, and a plugin that costs nothing until a test uses it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import a11y
from a11y import AuditRequest, AuditRequestError, make_request
from a11y.pytest_audits import check_fail_on


def test_keyword_fields_take_python_or_json_names():
    by_python = make_request("http://127.0.0.1:9/", best_practices=True, crawl={"maxPages": 3})
    by_json = make_request(
        {"url": "http://127.0.0.1:9/", "bestPractices": True, "crawl": {"maxPages": 3}}
    )
    assert by_python == by_json
    assert by_python.best_practices is True and by_python.crawl.max_pages == 3
    given = AuditRequest.model_validate({"url": "http://127.0.0.1:9/"})
    assert make_request(given) is given


def test_bad_requests_name_every_field():
    with pytest.raises(AuditRequestError) as caught:
        make_request(
            "ftp://example.test/", crawl={"maxPages": 0}, bestPractices="yes", colour="red"
        )
    assert caught.value.fields == ["url", "crawl.maxPages", "bestPractices", "colour"]
    assert "crawl.maxPages: Must be at least 1." in str(caught.value)
    assert isinstance(caught.value, ValueError)
    with pytest.raises(AuditRequestError) as twice:
        make_request("http://127.0.0.1:9/", url="http://127.0.0.1:9/other")
    assert twice.value.fields == ["url"]


def test_mixed_or_wrong_targets_are_type_errors():
    given = make_request("http://127.0.0.1:9/")
    with pytest.raises(TypeError, match="either an AuditRequest or keyword fields"):
        make_request(given, level="A")
    with pytest.raises(TypeError, match="not int"):
        make_request(42)
    with pytest.raises(TypeError, match="browser_url .* or launch_options"):
        a11y.Auditor(browser_url="http://127.0.0.1:9", launch_options=a11y_launch_options())


def a11y_launch_options():
    from cdpdriver import LaunchOptions

    return LaunchOptions()


def test_audit_sync_refuses_a_bad_request_before_any_browser():
    with pytest.raises(AuditRequestError) as caught:
        a11y.audit_sync("not a url", level="AAAA")
    assert caught.value.fields == ["url", "level"]


async def test_blocking_calls_say_what_to_use_inside_async_code():
    with pytest.raises(RuntimeError, match=r"await a11y\.audit"):
        a11y.audit_sync("http://127.0.0.1:9/")


def test_fail_on_is_an_impact_or_none():
    assert check_fail_on("Serious") == "serious" and check_fail_on(None) is None
    with pytest.raises(ValueError, match="fail_on must be one of critical, serious"):
        check_fail_on("severe")


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        a11y.nothing_here  # noqa: B018


def test_importing_the_package_and_the_plugin_loads_no_engine():
    """`python -m a11y mcp` and every pytest run (the plugin loads through its entry point)
    must not pay for the engine, the driver or Trio until an audit is asked for."""
    script = (
        "import sys, a11y, a11y.pytest_plugin; "
        "print(sorted({m.split('.')[0] for m in sys.modules} "
        "& {'trio', 'audit', 'cdpdriver', 'pydantic', 'httpx', 'tools', 'jobs'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"


def _finding(number: int, rule: str, impact: str, fingerprint: str) -> dict:
    return {
        "id": f"f{number}",
        "ruleId": rule,
        "description": rule,
        "impact": impact,
        "element": "img",
        "selector": f"#e{number}",
        "html": f'<img id="e{number}">',
        "level": "A",
        "help": f"https://example.test/rules/{rule}",
        "helpText": f"Help for {rule}.",
        "pageUrl": "http://127.0.0.1:9/",
        "fingerprint": fingerprint,
    }


def _result(*findings: dict) -> dict:
    return {
        "url": "http://127.0.0.1:9/",
        "wcagVersion": "2.2",
        "wcagLevel": "AA",
        "score": 50.0,
        "conformant": not findings,
        "stats": {"totalPages": 1, "totalFindings": len(findings)},
        "findings": list(findings),
        "engine": {"version": "4.10.0"},
    }


def test_baselines_judgement_and_message_without_a_browser(tmp_path):
    """Baseline files (one report or an array), what fails, and the message, on results
    built from their JSON; the live half is in test_pytest_plugin.py."""
    from a11y.baseline_cli import BaselineError
    from a11y.pytest_audits import baseline_results, failing_findings, failure_message

    old = _finding(1, "image-alt", "critical", "aaaa")
    minor = _finding(2, "region", "moderate", "bbbb")
    new = _finding(3, "label", "serious", "cccc")
    earlier = a11y.AuditResult.model_validate(_result(old))
    current = a11y.AuditResult.model_validate(_result(old, minor, new))
    single, array = tmp_path / "one.json", tmp_path / "many.json"
    single.write_text(earlier.model_dump_json())
    array.write_text(json.dumps([earlier.model_dump(mode="json"), _result(minor)]))
    assert baseline_results(str(single)) == [earlier]
    assert [len(r.findings) for r in baseline_results(array)] == [1, 1]
    assert baseline_results(earlier) == [earlier] and baseline_results(None) is None
    array.write_text(json.dumps([earlier.model_dump(mode="json"), {"url": "x"}]))
    with pytest.raises(BaselineError, match=r"many\.json\[1\] is not a JSON report"):
        baseline_results(array)
    with pytest.raises(BaselineError, match="cannot read"):
        baseline_results(tmp_path / "missing.json")
    with pytest.raises(TypeError, match="list of AuditResults"):
        baseline_results(["not a result"])

    failing, known = failing_findings(current, "serious", None)
    assert [f.rule_id for f in failing] == ["image-alt", "label"] and known == 0
    assert failing_findings(current, None, None) == ([], 0)
    failing, known = failing_findings(current, "serious", [earlier])
    assert [f.rule_id for f in failing] == ["label"] and known == 1

    message = failure_message(current, failing, "serious", known=known)
    assert message.splitlines() == [
        "a11y: 1 new finding(s) at or above 'serious' on http://127.0.0.1:9/ (WCAG 2.2 AA, "
        "score 50); 1 finding(s) already in the baseline",
        "  [serious] label: #e3",
        "      Help for label.",
        "      https://example.test/rules/label",
    ]
