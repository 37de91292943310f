"""Score, conformance, stats and the CLI exit code, all from data already in hand.

Page score (Lighthouse-style binary weighted mean over the WCAG rules that ran)::

    applicable = WCAG rules listed in violations, passes or incomplete on the page
                 (inapplicable rules, and rules without a WCAG level tag, are left out)
    failed(r)  = r is listed in violations (a rule can be in passes too: failed wins)
    w(r)       = weight of r's impact: critical 10, serious 7, moderate 3, minor 1
    score      = 100 * sum(w(r) for r in applicable if not failed(r))
                     / sum(w(r) for r in applicable)
    score      = 100 when no rule is applicable

A rule that is only incomplete ("needs review") counts as passed, as Lighthouse does: axe
could not show a failure, and needs-review items do not break conformance either.

The impact behind ``w(r)`` is the rule's own impact, looked up in this order:
``rule_impacts[r]`` when the caller passes axe's rule metadata, else the impact axe reports
on the rule result (set for violations and incomplete, ``null`` for passes), else moderate.
The metadata map comes first so that a rule weighs the same whether it passed or failed.
axe's public ``axe.getRules()`` does not return impacts; the engine passes the impacts the
pinned bundle declares (:func:`audit.axe_bundle.rule_impacts`, read from its rule table, the
same data as ``axe._audit.rules``); a rule that declares none falls through to the next
source.

The result's score is the mean of the page scores of the pages that were audited, rounded
half up to one decimal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .models import AuditResult, Finding, PageResult, Stats, round1
from .rules import IMPACT_RANK, is_wcag_rule

IMPACT_WEIGHTS: dict[str, int] = {"critical": 10, "serious": 7, "moderate": 3, "minor": 1}
DEFAULT_WEIGHT_IMPACT = "moderate"

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_AUDIT_FAILED = 2  # used by the CLI, never returned by exit_code()


def _weight(rule_id: str, reported: Any, rule_impacts: Mapping[str, Any] | None) -> int:
    for impact in ((rule_impacts or {}).get(rule_id), reported):
        if isinstance(impact, str) and impact in IMPACT_WEIGHTS:
            return IMPACT_WEIGHTS[impact]
    return IMPACT_WEIGHTS[DEFAULT_WEIGHT_IMPACT]


def page_score(
    axe_results: Mapping[str, Any], rule_impacts: Mapping[str, str] | None = None
) -> float:
    """Score of one page, 0..100, unrounded (see the module docstring for the formula).

    ``rule_impacts`` maps rule id -> axe's declared impact for that rule; optional.
    """
    reported: dict[str, Any] = {}
    failed: set[str] = set()
    for key in ("violations", "incomplete", "passes"):
        for rule in axe_results.get(key) or []:
            if not isinstance(rule, Mapping) or not rule.get("id"):
                continue
            if not is_wcag_rule(rule.get("tags") or []):
                continue
            rule_id = str(rule["id"])
            if reported.get(rule_id) is None:
                reported[rule_id] = rule.get("impact")
            if key == "violations":
                failed.add(rule_id)
    total = 0
    passed = 0
    for rule_id, impact in reported.items():
        w = _weight(rule_id, impact, rule_impacts)
        total += w
        if rule_id not in failed:
            passed += w
    if total == 0:
        return 100.0
    return 100.0 * passed / total


def overall_score(page_scores: Iterable[float | None]) -> float:
    """Mean of the page scores, rounded half up to one decimal; ``None`` entries (pages that
    were not audited) are ignored. With no scored page at all the score is 0.0: nothing was
    shown to pass (such an audit is a failed audit anyway)."""
    scores = [s for s in page_scores if s is not None]
    if not scores:
        return 0.0
    return round1(sum(scores) / len(scores))


def conformant(pages: Sequence[PageResult], findings: Sequence[Finding]) -> bool:
    """True exactly when at least one page was audited, no page failed to load or be audited
    (``skipped`` pages, e.g. non-HTML, were never part of the audit), and there is no finding
    of any impact. Needs-review and best-practice items are not findings and don't count.
    An LLM verdict of ``false_positive`` does not remove a finding: a language model may
    annotate a finding but cannot certify conformance."""
    if any(p.status == "failed" for p in pages):
        return False
    if not any(p.status == "ok" for p in pages):
        return False
    return not findings


def stats(findings: Sequence[Finding], total_pages: int) -> Stats:
    """Counts per impact; ``total_pages`` is the number of pages the audit covered."""
    counts = {impact: 0 for impact in IMPACT_WEIGHTS}
    for f in findings:
        counts[f.impact] += 1
    return Stats(total_pages=total_pages, total_findings=len(findings), **counts)


def exit_code(result: AuditResult, fail_on: str | None) -> int:
    """CLI exit status: 1 when a finding at or above ``fail_on`` impact exists, else 0.

    ``fail_on`` is ``critical``, ``serious``, ``moderate``, ``minor`` or None (never fail on
    findings). Needs-review and best-practice items never count. 2 (audit failed) is the
    CLI's business, not decided here.
    """
    if fail_on is None:
        return EXIT_OK
    threshold = IMPACT_RANK.get(fail_on.lower())
    if threshold is None:
        raise ValueError(f"fail_on must be one of {list(IMPACT_WEIGHTS)} or None, got {fail_on!r}")
    if any(IMPACT_RANK[f.impact] >= threshold for f in result.findings):
        return EXIT_FINDINGS
    return EXIT_OK
