"""SARIF 2.1.0 log with one result per problem (docs/problems.md): every instance of the
problem is a location of its one result, so code scanning shows one alert per defect of a
component, not one per element on every page.

Mapping, beside the per-finding log of :mod:`.sarif` (which keeps working with baselines):

* one reporting descriptor per rule that has a problem;
* a problem with a finding is a result of kind ``fail`` at the level of its impact; one
  that only needs review is of kind ``review`` (level ``none``);
* its locations are every instance, each the page URL and the CSS selector as a logical
  location, the element's opening tag as the location's message; at most
  :data:`MAX_LOCATIONS` (the limit code-scanning services apply), the rest counted in
  ``properties.locationsOmitted``;
* ``partialFingerprints["a11yProblem/v1"]`` is the problem id, stable across runs;
* ``properties`` carry the fix location, the selector pattern, instance and page counts
  and the priority; pages that failed to load are notifications, as in the other log.
"""

from __future__ import annotations

import json
from typing import Any

from ..models import AuditResult
from ..problems.build import instances_by_problem, problems_of
from ..problems.schema import Problem
from .sarif import LEVEL_BY_IMPACT, sarif_envelope

PROBLEM_KEY = "a11yProblem/v1"
MAX_LOCATIONS = 1000


def _descriptor(problem: Problem) -> dict[str, Any]:
    descriptor: dict[str, Any] = {
        "id": problem.rule_id,
        "shortDescription": {"text": problem.title},
        "properties": {
            "tags": [
                "accessibility",
                f"WCAG-{problem.level}",
                *(f"WCAG-{sc}" for sc in problem.success_criteria),
            ],
            "wcagLevel": problem.level,
            "successCriteria": list(problem.success_criteria),
        },
    }
    if problem.help:
        descriptor["helpUri"] = problem.help
        descriptor["help"] = {"text": f"{problem.title} ({problem.help})"}
    return descriptor


def _location(page_url: str, selector: str, element: str, html: str) -> dict[str, Any]:
    location: dict[str, Any] = {
        "physicalLocation": {"artifactLocation": {"uri": page_url}},
        "logicalLocations": [
            {"name": element or selector, "fullyQualifiedName": selector, "kind": "element"}
        ],
    }
    if html:
        location["message"] = {"text": html}
    return location


def problems_sarif_log(result: AuditResult) -> dict[str, Any]:
    """The per-problem SARIF log as a dict."""
    problems = problems_of(result)
    members = instances_by_problem(result, problems)
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    for problem in problems:
        if problem.rule_id not in index:
            index[problem.rule_id] = len(rules)
            rules.append(_descriptor(problem))
        items = members.get(problem.id, [])
        locations = [
            _location(i.page_url, i.selector, i.element, i.html) for i in items[:MAX_LOCATIONS]
        ]
        if not locations:
            rep = problem.representative
            locations = [_location(rep.page_url, rep.selector, "", rep.html)]
        violation = problem.certainty == "violation"
        results.append(
            {
                "ruleId": problem.rule_id,
                "ruleIndex": index[problem.rule_id],
                "kind": "fail" if violation else "review",
                "level": LEVEL_BY_IMPACT[problem.impact] if violation else "none",
                "message": {
                    "text": f"{'' if violation else 'Needs review: '}{problem.title} "
                    f"({problem.instances} instance(s) on {problem.pages} page(s)). "
                    f"Fix: {problem.fix_location}. Matches: {problem.selector_pattern}"
                },
                "locations": locations,
                "partialFingerprints": {PROBLEM_KEY: problem.id},
                "properties": {
                    "impact": problem.impact,
                    "wcagLevel": problem.level,
                    "successCriteria": list(problem.success_criteria),
                    "component": problem.component,
                    "selectorPattern": problem.selector_pattern,
                    "fixLocation": problem.fix_location,
                    "instances": problem.instances,
                    "pages": problem.pages,
                    "priority": problem.priority,
                    "blocksTask": problem.blocks_task,
                    "locationsOmitted": max(0, len(items) - MAX_LOCATIONS),
                },
            }
        )
    return sarif_envelope(result, rules, results, groupedBy="problem")


def render_problems_sarif(result: AuditResult) -> str:
    return json.dumps(problems_sarif_log(result), indent=2, ensure_ascii=False) + "\n"
