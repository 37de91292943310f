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
* pages that failed to load become ``toolExecutionNotifications`` of the invocation;
* every result carries its fingerprint as ``partialFingerprints["a11yFingerprint/v1"]``;
* with a baseline (an earlier run's result), every result carries ``baselineState``: ``new``
  or ``unchanged`` by fingerprint (:mod:`audit.diff`), and each finding of the baseline that
  is gone comes back as a result of kind ``pass`` with ``baselineState: absent``, so a
  code-scanning UI can show only what is new and close what was fixed.
"""

from __future__ import annotations

import json
from typing import Any

from ..diff import Diff, diff_items, fingerprint_of
from ..fingerprints import SARIF_KEY
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


def render_sarif(result: AuditResult, baseline: AuditResult | None = None) -> str:
    return json.dumps(sarif_log(result, baseline), indent=2, ensure_ascii=False) + "\n"


class _BaselineStates:
    """The ``baselineState`` of each item of the result (none without a baseline)."""

    def __init__(self, result: AuditResult, baseline: AuditResult | None) -> None:
        self.findings: Diff[Finding] | None = None
        self._new: set[int] = set()
        if baseline is None:
            return
        self.findings = diff_items(result.findings, baseline.findings)
        diffs: list[Diff[Any]] = [
            self.findings,
            diff_items(result.needs_review, baseline.needs_review),
            diff_items(result.best_practices, baseline.best_practices),
        ]
        self._new = {id(item) for diff in diffs for item in diff.new}

    def mark(self, entry: dict[str, Any], item: Finding | NeedsReviewItem | BestPracticeItem) -> dict[str, Any]:
        """``entry`` with the item's fingerprint and, against a baseline, its state."""
        entry["partialFingerprints"] = {SARIF_KEY: fingerprint_of(item)}
        if self.findings is not None:
            entry["baselineState"] = "new" if id(item) in self._new else "unchanged"
        return entry


def sarif_log(result: AuditResult, baseline: AuditResult | None = None) -> dict[str, Any]:
    """The SARIF log as a dict (``render_sarif`` serializes it); ``baseline`` is an earlier
    run's result to mark each result's ``baselineState`` against."""
    states = _BaselineStates(result, baseline)
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
        results.append(states.mark(
            {
                "ruleId": f.rule_id,
                "ruleIndex": rule_index(f),
                "kind": "fail",
                "level": LEVEL_BY_IMPACT[f.impact],
                "message": {"text": text},
                "locations": [_location(f)],
                "properties": props,
            }, f
        ))
    for r in result.needs_review:
        results.append(states.mark(
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
            }, r
        ))
    for b in result.best_practices:
        results.append(states.mark(
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
            }, b
        ))
    for gone in states.findings.fixed if states.findings is not None else []:
        results.append({
            "ruleId": gone.rule_id,
            "ruleIndex": rule_index(gone),
            "kind": "pass",
            "level": "none",
            "message": {"text": f"Fixed since the baseline: {gone.help_text or gone.description} "
                                f"Element: {gone.selector}"},
            "locations": [_location(gone)],
            "partialFingerprints": {SARIF_KEY: fingerprint_of(gone)},
            "baselineState": "absent",
            "properties": {"impact": gone.impact, "wcagLevel": gone.level, "html": gone.html},
        })
    return sarif_envelope(result, rules, results)


def sarif_envelope(
    result: AuditResult, rules: list[dict[str, Any]], results: list[dict[str, Any]], **properties: Any
) -> dict[str, Any]:
    """The SARIF log around a run's ``rules`` and ``results``: the tool, one invocation (its
    failed pages as notifications) and the run's properties (``properties`` added to them)."""
    notifications = [
        {
            "level": "error",
            "message": {"text": f"{p.url}: {p.error.code}: {p.error.message}" if p.error else f"{p.url}: failed"},
        }
        for p in result.pages
        if p.status == "failed"
    ]
    invocation: dict[str, Any] = {"executionSuccessful": not notifications}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    driver = {
        "name": TOOL_NAME,
        "version": package_version(),
        "semanticVersion": package_version(),
        "rules": rules,
        "properties": {"engine": result.engine.name, "engineVersion": result.engine.version},
    }
    run_properties = {
        "url": result.url,
        "wcagVersion": result.wcag_version,
        "wcagLevel": result.wcag_level,
        "score": result.score,
        "conformant": result.conformant,
        **properties,
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{"tool": {"driver": driver}, "invocations": [invocation], "results": results, "properties": run_properties}],
    }
