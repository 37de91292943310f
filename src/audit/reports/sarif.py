"""SARIF 2.1.0 log of an audit, for code-scanning dashboards.

Mapping:

* one run; ``tool.driver`` is ``a11y`` with one reporting descriptor per rule id that appears
  (``helpUri``, short/full description, ``properties.tags``);
* each finding is a result of kind ``fail`` with level ``error`` (critical, serious),
  ``warning`` (moderate) or ``note`` (minor);
* needs-review items are results of kind ``review`` (SARIF requires level ``none`` then);
* best-practice items (present only when asked) are ``fail`` results at level ``note``;
* the location is the page URL as ``physicalLocation.artifactLocation.uri`` plus the CSS
  selector as a logical location of kind ``element``; the opening-tag markup goes into the
  result's properties, because a SARIF region needs line/offset data a DOM element lacks;
* pages that failed to load become ``toolExecutionNotifications`` of the invocation.
"""

from __future__ import annotations

import json
from typing import Any

from ..meta import TOOL_NAME, package_version
from ..models import AuditResult, BestPracticeItem, Finding, NeedsReviewItem

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"

LEVEL_BY_IMPACT = {"critical": "error", "serious": "error", "moderate": "warning", "minor": "note"}


def _location(item: Finding | NeedsReviewItem | BestPracticeItem) -> dict[str, Any]:
    return {
        "physicalLocation": {"artifactLocation": {"uri": item.page_url}},
        "logicalLocations": [
            {
                "name": item.element or item.selector,
                "fullyQualifiedName": item.selector,
                "kind": "element",
            }
        ],
    }


def _rule_tags(item: Finding | NeedsReviewItem | BestPracticeItem) -> list[str]:
    if isinstance(item, BestPracticeItem):
        return ["accessibility", "best-practice"]
    return ["accessibility", f"WCAG-{item.level}", *(f"WCAG-{sc}" for sc in item.success_criteria)]


def render_sarif(result: AuditResult) -> str:
    return json.dumps(sarif_log(result), indent=2, ensure_ascii=False) + "\n"


def sarif_log(result: AuditResult) -> dict[str, Any]:
    """The SARIF log as a dict (``render_sarif`` serializes it)."""
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}

    def rule_index(item: Finding | NeedsReviewItem | BestPracticeItem) -> int:
        if item.rule_id not in index:
            index[item.rule_id] = len(rules)
            descriptor: dict[str, Any] = {
                "id": item.rule_id,
                "shortDescription": {"text": item.help_text or item.description or item.rule_id},
                "fullDescription": {"text": item.description or item.help_text or item.rule_id},
                "properties": {"tags": _rule_tags(item)},
            }
            if item.help:
                descriptor["helpUri"] = item.help
                descriptor["help"] = {"text": f"{item.help_text} ({item.help})".strip()}
            if not isinstance(item, BestPracticeItem):
                descriptor["properties"]["wcagLevel"] = item.level
                descriptor["properties"]["successCriteria"] = list(item.success_criteria)
            rules.append(descriptor)
        return index[item.rule_id]

    results: list[dict[str, Any]] = []
    for f in result.findings:
        props: dict[str, Any] = {
            "impact": f.impact,
            "wcagLevel": f.level,
            "successCriteria": list(f.success_criteria),
            "html": f.html,
            "source": f.source,
        }
        if f.llm is not None:
            props["llm"] = f.llm.model_dump(mode="json")
        text = f"{f.help_text or f.description} Element: {f.selector}"
        if f.failure_summary:
            text += f"\n{f.failure_summary}"
        results.append(
            {
                "ruleId": f.rule_id,
                "ruleIndex": rule_index(f),
                "kind": "fail",
                "level": LEVEL_BY_IMPACT[f.impact],
                "message": {"text": text},
                "locations": [_location(f)],
                "properties": props,
            }
        )
    for r in result.needs_review:
        results.append(
            {
                "ruleId": r.rule_id,
                "ruleIndex": rule_index(r),
                "kind": "review",
                "level": "none",
                "message": {"text": f"Needs review: {r.reason} Element: {r.selector}"},
                "locations": [_location(r)],
                "properties": {
                    "impact": r.impact,
                    "wcagLevel": r.level,
                    "successCriteria": list(r.success_criteria),
                    "html": r.html,
                },
            }
        )
    for b in result.best_practices:
        results.append(
            {
                "ruleId": b.rule_id,
                "ruleIndex": rule_index(b),
                "kind": "fail",
                "level": "note",
                "message": {
                    "text": f"Best practice ({b.outcome}): {b.help_text} Element: {b.selector}"
                },
                "locations": [_location(b)],
                "properties": {"impact": b.impact, "html": b.html, "bestPractice": True},
            }
        )
    notifications = [
        {
            "level": "error",
            "message": {
                "text": f"{p.url}: {p.error.code}: {p.error.message}"
                if p.error
                else f"{p.url}: failed"
            },
        }
        for p in result.pages
        if p.status == "failed"
    ]
    invocation: dict[str, Any] = {"executionSuccessful": not notifications}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications

    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": package_version(),
                        "semanticVersion": package_version(),
                        "rules": rules,
                        "properties": {
                            "engine": result.engine.name,
                            "engineVersion": result.engine.version,
                        },
                    }
                },
                "invocations": [invocation],
                "results": results,
                "properties": {
                    "url": result.url,
                    "wcagVersion": result.wcag_version,
                    "wcagLevel": result.wcag_level,
                    "score": result.score,
                    "conformant": result.conformant,
                },
            }
        ],
    }
