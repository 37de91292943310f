"""The two points where the engine calls into LLM assistance, kept here so the engine's
own change is a handful of lines.

* :func:`collect_page_evidence` runs inside ``audit_page`` while the page is still open
  (after axe-core finished), and returns the page's :class:`Evidence` or None when LLM
  assistance is off.
* :func:`review_audit` runs once per audit after every page is done and before the result
  is assembled: it asks the judge, writes each verdict onto its finding / needs-review item,
  adds the LLM's own findings, and returns the ``llm`` summary for the result.

How LLM findings count (``llm.includeFindings``):

* ``false`` (default): the score, stats and conformance stay purely rule-based. Suspected
  problems the model confirmed (meaningless alt text, generic link text) are reported as
  ``needsReview`` items with rule ids ``llm-alt-text-meaningful`` / ``llm-link-purpose``.
* ``true``: confirmed ones (confidence >= 0.5) become findings with ``source: "llm"``; they
  count in ``stats``, break ``conformant`` like any finding, and enter the page score as two
  extra rules (alt text: serious, weight 7; link purpose: moderate, weight 3) that apply on a
  page with at least one image with alt text / link, whose candidates were all answered.

Questions of judgment (``llm.judgment``): the judgment checks (``a11y-judge-…``) make every
element they apply to a needs-review item whose reason is the question, and the verdict lands on
it like any other. Until answered they count nowhere (:func:`scored_results` keeps them out of
the score and ``rulesTested``). With ``includeFindings``, a question the model confirmed (the
element fails, confidence >= 0.5) becomes a finding with ``source: "llm"``, and a judgment check
whose questions on a page were all answered enters the score like an axe rule (impact of the
check); otherwise the answers are annotations only.

Verdicts never remove or re-weigh an axe finding: a ``false_positive`` is an annotation.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import trio

from cdpdriver import Page

from ..axe_bundle import rule_impacts
from ..checks import JUDGMENT
from ..findings import findings_from, opening_tag
from ..fingerprints import selector_free_fingerprint
from ..models import AuditRequest, Finding, FindingReview, LlmSummary, NeedsReviewItem, round1
from ..page_audit import PageAudit
from ..scoring import page_score
from ..urls import without_credentials
from .config import default_model, images_enabled
from .evidence import (
    ALT_RULE,
    LINK_RULE,
    ElementEvidence,
    Evidence,
    collect_evidence,
    score_basis,
)
from .judge import LlmOutcome, review

log = logging.getLogger(__name__)

#: Confirmed suspicions below this confidence stay needs-review items.
MIN_CONFIDENCE = 0.5
#: Time kept back from the audit deadline so the result can still be assembled.
DEADLINE_MARGIN = 2.0

LLM_RULES: dict[str, dict[str, Any]] = {
    ALT_RULE: {
        "description": "Images must have alternative text that conveys their content or purpose, "
        "not a file name or a generic word",
        "help_text": "Alternative text must be meaningful",
        "impact": "serious",
        "success_criteria": ["1.1.1"],
        "tags": ["wcag2a", "wcag111"],
        "help": "https://www.w3.org/WAI/WCAG22/Understanding/non-text-content.html",
    },
    LINK_RULE: {
        "description": "The purpose of each link must be clear from its text or its context, "
        "not only from generic text such as 'click here'",
        "help_text": "Link text must describe the link's purpose",
        "impact": "moderate",
        "success_criteria": ["2.4.4"],
        "tags": ["wcag2a", "wcag244"],
        "help": "https://www.w3.org/WAI/WCAG22/Understanding/link-purpose-in-context.html",
    },
}


_SCORED_KEYS = ("violations", "incomplete", "passes")


def scored_results(results: dict[str, Any]) -> dict[str, Any]:
    """axe's results without the judgment checks: their items are questions, not verdicts, so
    they enter score and ``rulesTested`` only through the judge's answers (:func:`_rescore`);
    the same dict when none ran (LLM assistance off)."""
    def judged(rule: Any) -> bool:
        return isinstance(rule, dict) and rule.get("id") in JUDGMENT

    if not any(judged(rule) for key in _SCORED_KEYS for rule in results.get(key) or []):
        return results
    return {**results, **{key: [r for r in results.get(key) or [] if not judged(r)] for key in _SCORED_KEYS}}


async def collect_page_evidence(
    page: Page, request: AuditRequest, axe_results: dict[str, Any], url: str
) -> Evidence | None:
    """Evidence of an open, audited page; None when LLM assistance is off. Never raises
    (cancellation aside): a failure is recorded in the evidence instead."""
    if not request.llm.enabled:
        return None
    try:
        findings, needs_review = findings_from(axe_results, url)
        evidence = await collect_evidence(
            page, findings, needs_review, screenshots=images_enabled(), page_url=url
        )
        evidence.score_basis = score_basis(scored_results(axe_results))
        return evidence
    except Exception as exc:  # noqa: BLE001 - evidence is optional; the audit goes on
        log.warning("evidence collection on %s failed: %s", without_credentials(url), exc)
        return Evidence(page_url=url, errors=[f"evidence collection failed on {url}: {type(exc).__name__}"])


def _llm_item(item: ElementEvidence, verdict: FindingReview, as_finding: bool) -> Finding | NeedsReviewItem:
    rule = LLM_RULES[item.rule_id]
    html = opening_tag(item.markup) or f"<{item.element}>"
    common: dict[str, Any] = {
        "rule_id": item.rule_id,
        "description": rule["description"],
        "impact": rule["impact"],
        "element": item.element,
        "selector": item.selector,
        "html": html,
        "fingerprint": selector_free_fingerprint(item.rule_id, item.page_url, item.element, html),
        "help": rule["help"],
        "help_text": rule["help_text"],
        "page_url": item.page_url,
        "level": "A",
        "success_criteria": list(rule["success_criteria"]),
        "llm": verdict,
    }
    if as_finding:
        return Finding(id="f0", failure_summary=verdict.reasoning, source="llm", **common)
    return NeedsReviewItem(id="r0", reason=f"Suspected by the LLM review: {verdict.reasoning}", source="llm", **common)


def _answered_judgments(audit: PageAudit) -> dict[str, bool]:
    """Judgment check -> whether it failed, for each check whose every item on the page was
    decided: confirmed (a finding by now) or a pass (``false_positive``); a check with an item
    unanswered, undecided or confirmed with too little confidence is left out."""
    items: dict[str, list[Finding | NeedsReviewItem]] = {}
    for item in [*audit.findings, *audit.needs_review]:
        if item.rule_id in JUDGMENT:
            items.setdefault(item.rule_id, []).append(item)
    return {
        rule_id: any(isinstance(i, Finding) for i in found)
        for rule_id, found in items.items()
        if all(isinstance(i, Finding) or (i.llm is not None and i.llm.verdict == "false_positive") for i in found)
    }


def _rescore(audit: PageAudit, evidence: Evidence, outcome: LlmOutcome) -> None:
    """Page score with the two LLM rules and the answered judgment checks added as axe-style
    rule results (see module doc)."""
    if not evidence.score_basis or audit.page.status != "ok":
        return
    extra: dict[str, list[dict[str, Any]]] = {"violations": [], "passes": []}
    applied: list[str] = []

    def add(rule_id: str, impact: str, tags: list[str], failed: bool) -> None:
        extra["violations" if failed else "passes"].append({"id": rule_id, "impact": impact, "tags": tags, "nodes": []})
        applied.append(rule_id)

    for rule_id, failed in _answered_judgments(audit).items():
        add(rule_id, JUDGMENT[rule_id].impact, JUDGMENT[rule_id].tags, failed)
    for rule_id, present in ((ALT_RULE, evidence.images_with_alt), (LINK_RULE, evidence.links)):
        candidates = [i for i in evidence.items if i.kind == "candidate" and i.rule_id == rule_id]
        if not evidence.candidates_scanned or not present:
            continue
        if any(c.key not in outcome.reviews for c in candidates):
            continue  # not all answered: unknown, so the rule stays out of the score
        rule = LLM_RULES[rule_id]
        add(rule_id, rule["impact"], rule["tags"], any(f.rule_id == rule_id for f in audit.findings))
    if not applied:
        return
    results: dict[str, Any] = dict(evidence.score_basis)
    for key, entries in extra.items():
        results[key] = [*(results.get(key) or []), *entries]
    audit.page.score = round1(page_score(results, rule_impacts()))
    audit.page.rules_tested = sorted({*audit.page.rules_tested, *applied})


def _confident(verdict: FindingReview | None) -> bool:
    return verdict is not None and verdict.verdict == "confirmed" and verdict.confidence >= MIN_CONFIDENCE


def _judged_finding(item: NeedsReviewItem) -> Finding:
    """A question of a judgment check the model answered with a failure, as a finding."""
    assert item.llm is not None
    shared = (set(Finding.model_fields) & set(NeedsReviewItem.model_fields)) - {"id", "source", "failure_summary"}
    fields = {name: getattr(item, name) for name in shared}
    return Finding(**fields, id="f0", source="llm", failure_summary=item.llm.reasoning)


def apply_outcome(request: AuditRequest, audits: Sequence[PageAudit], outcome: LlmOutcome) -> None:
    """Annotate findings and needs-review items in place and add the LLM's own items."""
    include = request.llm.include_findings
    for audit in audits:
        for finding in audit.findings:
            finding.llm = outcome.reviews.get(("finding", finding.page_url, finding.rule_id, finding.selector))
        for item in audit.needs_review:
            item.llm = outcome.reviews.get(("review", item.page_url, item.rule_id, item.selector))
        if include:  # confirmed questions of the judgment checks become findings
            kept: list[NeedsReviewItem] = []
            for item in audit.needs_review:
                if item.rule_id in JUDGMENT and _confident(item.llm):
                    audit.findings.append(_judged_finding(item))
                else:
                    kept.append(item)
            audit.needs_review = kept
        evidence = audit.llm_evidence
        if evidence is None:
            continue
        for candidate in evidence.items:
            verdict = outcome.reviews.get(candidate.key)
            if candidate.kind != "candidate" or verdict is None or verdict.verdict == "false_positive":
                continue
            extra = _llm_item(candidate, verdict, as_finding=include and _confident(verdict))
            if isinstance(extra, Finding):
                audit.findings.append(extra)
            else:
                audit.needs_review.append(extra)
        if include:
            audit.page.findings = len(audit.findings)
            _rescore(audit, evidence, outcome)


async def review_audit(
    request: AuditRequest, audits: Sequence[PageAudit], deadline: float | None = None
) -> LlmSummary | None:
    """Run the judge over every page's evidence and apply its verdicts; the ``llm`` summary
    of the result, or None when LLM assistance is off. Never raises (cancellation aside)."""
    options = request.llm
    if not options.enabled:
        return None
    try:
        evidence = [a.llm_evidence for a in audits if a.llm_evidence is not None]
        stop = None if deadline is None else max(trio.current_time(), deadline - DEADLINE_MARGIN)
        outcome = await review(evidence, options, deadline=stop)
        apply_outcome(request, audits, outcome)
        for ev in evidence:
            outcome.errors.extend(ev.errors)
        summary = outcome.summary()
        log.info(
            "LLM review (%s, %s): %d item(s) reviewed in %d call(s), %d tokens%s",
            summary.provider, summary.model, summary.reviewed, outcome.calls, outcome.tokens_used,
            f"; error: {summary.error}" if summary.error else "",
        )
        return summary
    except Exception as exc:  # noqa: BLE001 - LLM assistance must never fail the audit
        log.exception("LLM review failed")
        return LlmSummary(
            provider=options.provider,
            model=options.model or default_model(options.provider),
            error=f"the LLM review failed internally ({type(exc).__name__})",
        )
