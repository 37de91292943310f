"""JUnit XML with one test case per problem (docs/problems.md), for CI test tabs that
should list defects rather than elements: a suite ``problems`` where each problem with a
finding is a failing case (its fix location, pattern and instances in the failure's text)
and each problem that only needs review a passing case with its instances in
``<system-out>``; a page that could not be audited is an erroring case of a suite
``pages``, as in the per-page report (:mod:`.junit`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..models import AuditResult
from ..problems.build import instances_by_problem, problems_of
from .junit import xml_safe

#: Instances listed in a case's text; the rest are counted.
LISTED = 50


def render_problems_junit(result: AuditResult) -> str:
    problems = problems_of(result)
    members = instances_by_problem(result, problems)
    root = ET.Element(
        "testsuites",
        name=xml_safe(
            f"a11y WCAG {result.wcag_version} {result.wcag_level} problems: {result.url}"
        ),
    )
    suite = ET.SubElement(root, "testsuite", name="problems")
    failures = 0
    for problem in problems:
        case = ET.SubElement(
            suite,
            "testcase",
            name=xml_safe(f"{problem.rule_id}: {problem.selector_pattern}"),
            classname=xml_safe(problem.rule_id),
        )
        items = members.get(problem.id, [])
        lines = [
            f"Fix: {problem.fix_location}",
            f"Component: {problem.component}",
            f"WCAG {problem.level}; success criteria: {', '.join(problem.success_criteria) or '-'}",
            f"{problem.instances} instance(s) on {problem.pages} page(s); priority {problem.priority}",
            f"Help: {problem.help}",
        ]
        lines += [f"{i.id} {i.page_url} {i.selector}" for i in items[:LISTED]]
        if len(items) > LISTED:
            lines.append(f"... and {len(items) - LISTED} more")
        if problem.certainty == "violation":
            failures += 1
            failure = ET.SubElement(
                case,
                "failure",
                message=xml_safe(f"{problem.title} ({problem.instances} instance(s))"),
                type=xml_safe(problem.impact),
            )
            failure.text = xml_safe("\n".join(lines))
        else:
            ET.SubElement(case, "system-out").text = xml_safe("Needs review\n" + "\n".join(lines))
    suite.set("tests", str(len(problems)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suite.set("skipped", "0")
    failed = [page for page in result.pages if page.status == "failed"]
    if failed:
        pages = ET.SubElement(
            root,
            "testsuite",
            name="pages",
            tests=str(len(failed)),
            failures="0",
            errors=str(len(failed)),
            skipped="0",
        )
        for page in failed:
            case = ET.SubElement(pages, "testcase", name="page-load", classname=xml_safe(page.url))
            code, message = (
                (page.error.code, page.error.message) if page.error else ("audit_failed", "failed")
            )
            ET.SubElement(
                case, "error", message=xml_safe(message), type=xml_safe(code)
            ).text = xml_safe(f"{code}: {message}")
    root.set("tests", str(len(problems) + len(failed)))
    root.set("failures", str(failures))
    root.set("errors", str(len(failed)))
    root.set("skipped", "0")
    root.set("time", f"{result.duration_ms / 1000:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
