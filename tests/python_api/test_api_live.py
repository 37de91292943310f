"""The Python API against real Chromium and pages served on 127.0.0.1: ``audit`` on a browser
it launches, ``Auditor`` on a browser given by ``browser_url``, the blocking ``audit_sync``
and ``SyncAuditor``, and the result's accessors (SARIF, JUnit, diff)."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET

import a11y
from a11y import Auditor, AuditResult, SyncAuditor, audit, audit_sync

PLANTED = {"image-alt", "label", "color-contrast", "button-name"}


def _rules(result: AuditResult) -> set[str]:
    return {finding.rule_id for finding in result.findings}


async def test_audit_launches_a_browser_for_one_request(site):
    result = await audit(site.url("/audit/violations.html"), level="AA", version="2.2")
    assert isinstance(result, AuditResult)
    assert _rules(result) >= PLANTED
    assert 0 < result.score < 100 and not result.conformant


async def test_auditor_runs_many_pages_on_an_attached_browser(chromium, site):
    async with Auditor(browser_url=chromium.http_url) as auditor:
        assert auditor.browser.pid is None  # attached, not launched: nothing of ours to kill
        bad = await auditor.audit(site.url("/audit/violations.html"), best_practices=True)
        clean = await auditor.audit({"url": site.url("/audit/clean.html")})
    assert _rules(bad) >= PLANTED
    assert clean.findings == [] and clean.score == 100 and clean.conformant

    sarif = json.loads(bad.to_sarif())
    assert sarif["version"] == "2.1.0"
    assert {item["ruleId"] for item in sarif["runs"][0]["results"]} >= PLANTED
    junit = ET.fromstring(bad.to_junit())
    failures = " ".join(
        node.get("message", "") + (node.text or "") for node in junit.iter("failure")
    )
    assert all(rule in failures for rule in PLANTED)

    against_clean = bad.diff(clean)
    assert against_clean.new == bad.findings and against_clean.fixed == []
    against_itself = bad.diff([bad, clean])
    assert against_itself.new == [] and against_itself.unchanged == bad.findings
    assert clean.diff(bad).fixed == bad.findings


def test_audit_sync_attaches_to_a_running_browser(chromium, site):
    result = audit_sync(site.url("/audit/violations.html"), browser_url=chromium.ws_url)
    assert _rules(result) >= PLANTED


def test_sync_auditor_holds_one_launched_browser_and_kills_it(site):
    with SyncAuditor() as auditor:
        pid = auditor.browser_pid
        assert pid is not None
        first = auditor.audit(site.url("/audit/violations.html"))
        second = auditor.audit(url=site.url("/audit/clean.html"))
        assert auditor.browser_pid == pid  # both audits on the same browser
    assert _rules(first) >= PLANTED and second.findings == []
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        pass
    else:
        raise AssertionError(f"the browser (pid {pid}) outlived its SyncAuditor")
    auditor.close()  # idempotent


def test_a_failed_audit_raises_the_engines_typed_failure(chromium):
    from tests.support.site import refused_url

    try:
        audit_sync(refused_url(), browser_url=chromium.http_url)
    except a11y.AuditFailed as failure:
        assert failure.code == "navigation_failed"
    else:
        raise AssertionError("an audit of a refused URL did not fail")
