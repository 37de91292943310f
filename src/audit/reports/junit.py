"""JUnit XML for CI test tabs: one ``<testsuite>`` per page, one ``<testcase>`` per WCAG rule
tested on that page.

A rule with findings on the page gets a ``<failure>`` listing its elements; a rule that only
needs review passes with the items in ``<system-out>``. The rules of a page are
``PageResult.rules_tested`` plus every rule that has a finding or needs-review item there, so
the report stays truthful when the engine left ``rules_tested`` empty. A page that failed
holds one ``page-load`` testcase with an ``<error>``; a skipped page one ``<skipped>`` case.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict

from ..models import AuditResult, Finding, NeedsReviewItem, PageResult
from ._common import fmt_score

# Characters XML 1.0 cannot carry at all, even escaped.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_safe(text: object) -> str:
    """``text`` as a string XML 1.0 can carry: characters it cannot, even escaped, replaced."""
    return _XML_ILLEGAL.sub("\ufffd", str(text))


def _page_suite(
    page: PageResult, findings: list[Finding], review: list[NeedsReviewItem]
) -> ET.Element:
    suite = ET.Element("testsuite", name=xml_safe(page.url))
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="status", value=page.status)
    ET.SubElement(props, "property", name="score", value=fmt_score(page.score))
    if page.http_status is not None:
        ET.SubElement(props, "property", name="httpStatus", value=str(page.http_status))
    tests = failures = errors = skipped = 0

    if page.status == "failed":
        case = ET.SubElement(suite, "testcase", name="page-load", classname=xml_safe(page.url))
        err = ET.SubElement(
            case,
            "error",
            message=xml_safe(page.error.message if page.error else "page could not be audited"),
            type=xml_safe(page.error.code if page.error else "audit_failed"),
        )
        err.text = xml_safe(f"{page.error.code}: {page.error.message}" if page.error else "failed")
        tests, errors = 1, 1
    elif page.status == "skipped":
        case = ET.SubElement(suite, "testcase", name="page", classname=xml_safe(page.url))
        ET.SubElement(
            case, "skipped", message=xml_safe(page.error.message if page.error else "page skipped")
        )
        tests, skipped = 1, 1
    else:
        by_rule: dict[str, list[Finding]] = defaultdict(list)
        for f in findings:
            by_rule[f.rule_id].append(f)
        review_by_rule: dict[str, list[NeedsReviewItem]] = defaultdict(list)
        for r in review:
            review_by_rule[r.rule_id].append(r)
        rule_ids = sorted(set(page.rules_tested) | set(by_rule) | set(review_by_rule))
        for rule_id in rule_ids:
            tests += 1
            case = ET.SubElement(
                suite, "testcase", name=xml_safe(rule_id), classname=xml_safe(page.url)
            )
            failed = by_rule.get(rule_id)
            if failed:
                failures += 1
                first = failed[0]
                fail = ET.SubElement(
                    case,
                    "failure",
                    message=xml_safe(
                        f"{len(failed)} element(s): {first.help_text or first.description}"
                    ),
                    type=xml_safe(first.impact),
                )
                lines = [
                    f"WCAG {first.level}; success criteria: {', '.join(first.success_criteria) or '-'}",
                    f"Help: {first.help}",
                ]
                for f in failed:
                    lines.append(f"{f.id} [{f.impact}] {f.selector}")
                    if f.html:
                        lines.append(f"    {f.html}")
                    if f.failure_summary:
                        lines.extend(f"    {ln}" for ln in f.failure_summary.splitlines())
                fail.text = xml_safe("\n".join(lines))
            items = review_by_rule.get(rule_id)
            if items:
                out = ET.SubElement(case, "system-out")
                out.text = xml_safe(
                    "\n".join(f"Needs review {r.id}: {r.selector}: {r.reason}" for r in items)
                )
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", str(skipped))
    return suite


def render_junit(result: AuditResult) -> str:
    root = ET.Element(
        "testsuites",
        name=xml_safe(f"a11y WCAG {result.wcag_version} {result.wcag_level}: {result.url}"),
    )
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    pages = result.pages or [
        PageResult(url=result.url, status="ok", score=result.score, findings=len(result.findings))
    ]
    page_urls = {p.url for p in pages}
    for page in pages:
        findings = [f for f in result.findings if f.page_url == page.url]
        # Items whose page is not listed fall to the first page rather than vanish.
        if page is pages[0]:
            findings += [f for f in result.findings if f.page_url not in page_urls]
        review = [r for r in result.needs_review if r.page_url == page.url]
        suite = _page_suite(page, findings, review)
        root.append(suite)
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{result.duration_ms / 1000:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
