"""Reports grouped by problem, pure: SARIF with one result per problem and every instance
as a location (valid against the vendored SARIF 2.1.0 schema), JUnit with one test case per
problem, the text report's problems section, and a result without problems grouped on the
fly."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from audit.models import ErrorInfo, PageResult
from audit.reports import render
from audit.reports.sarif_problems import MAX_LOCATIONS, PROBLEM_KEY, problems_sarif_log
from tests.audit_unit.test_reports import build_result
from tests.support.sarif import validate_sarif

from .test_build import site_result


def test_sarif_has_one_result_per_problem_with_every_instance():
    result = site_result()
    log = json.loads(render(result, "sarif", group="problems"))
    assert log == problems_sarif_log(result)
    validate_sarif(log)
    (run,) = log["runs"]
    results = run["results"]
    assert len(results) == len(result.problems)
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert len(rules) == len(set(rules))
    for entry, problem in zip(results, result.problems, strict=True):
        assert entry["partialFingerprints"] == {PROBLEM_KEY: problem.id}
        assert rules[entry["ruleIndex"]] == entry["ruleId"] == problem.rule_id
        assert len(entry["locations"]) == problem.instances <= MAX_LOCATIONS
        assert entry["properties"]["fixLocation"] == problem.fix_location
    label = results[0]
    assert label["kind"] == "fail" and label["level"] == "error"
    pages = {loc["physicalLocation"]["artifactLocation"]["uri"] for loc in label["locations"]}
    assert len(pages) == 20
    review = results[-1]
    assert review["kind"] == "review" and review["level"] == "none"
    assert render(result, "sarif") != render(
        result, "sarif", group="problems"
    )  # findings stay the default


def test_junit_has_one_case_per_problem_and_page_errors():
    result = site_result(3)
    failed = PageResult(
        url="https://example.test/down",
        status="failed",
        error=ErrorInfo(code="navigation_failed", message="net::ERR_CONNECTION_REFUSED"),
    )
    result = result.model_copy(update={"pages": [*result.pages, failed]})
    root = ET.fromstring(render(result, "junit", group="problems"))
    problems, pages = root.findall("testsuite")
    cases = problems.findall("testcase")
    assert len(cases) == len(result.problems) == int(problems.get("tests"))
    failing = [case for case in cases if case.find("failure") is not None]
    assert len(failing) == int(problems.get("failures")) == len(result.problems) - 1
    first = cases[0].find("failure")
    assert (
        first.get("type") == "critical" and "shared by all 3 pages: header template" in first.text
    )
    assert "Needs review" in cases[-1].find("system-out").text
    assert pages.find("testcase/error").get("type") == "navigation_failed"
    assert root.get("tests") == str(len(cases) + 1) and root.get("errors") == "1"


def test_text_report_leads_with_problems():
    text = render(site_result(), "text")
    assert (
        text.index("Problems (44, most important first")
        < text.index("\nPages\n")
        < text.index("Findings by rule")
    )
    assert "  1. [critical] label: label must pass" in text
    assert "fix: shared by all 20 pages: header template (form.search input.q)" in text
    assert "... and 19 more" in text


def test_a_result_without_problems_is_grouped_when_rendered():
    result = build_result()  # made from axe output alone, no problems stored
    assert not result.problems
    log = problems_sarif_log(result)
    validate_sarif(log)
    located = sum(len(entry["locations"]) for entry in log["runs"][0]["results"])
    assert located == len(result.findings) + len(result.needs_review)
    assert all(not finding.problem for finding in result.findings)  # the result is not changed
    with pytest.raises(ValueError, match="grouping"):
        render(result, "sarif", group="rules")


def test_html_report_leads_with_problems_and_their_overview():
    from audit.problems.changes import compare_problems
    from audit.reports.html import render_html

    result = site_result(4)
    baseline = site_result(3)
    changes = compare_problems(result, baseline)
    html = render_html(result, changes=changes)
    assert html.index('class="report-problems"') < html.index("<caption>Audited pages</caption>") \
        < html.index('class="report-findings"')
    assert html.count('<li class="problem"') == len(result.problems)
    first = result.problems[0]
    entry = html[html.index('<li class="problem"'):]
    assert entry.index(first.rule_id) < entry.index(result.problems[1].rule_id)  # priority order
    assert "shared by all 4 pages: header template" in html
    assert f'href="#{first.examples[0].item_id}"' in html  # an instance's card, further down
    assert f'id="{first.examples[0].item_id}"' in html
    assert "<caption>Problems by impact</caption>" in html and "<caption>Problems by WCAG principle</caption>" in html
    assert "Pages with at least one problem: 4 of 4." in html
    # Every problem reached the fourth page (the footer link too: it moved to the new last page).
    assert changes.counts() == {"new": 0, "fixed": 0, "spread": len(result.problems), "unchanged": 0}
    assert f"Since the baseline: 0 new, {len(result.problems)} spread to more pages, 0 fixed" in html
