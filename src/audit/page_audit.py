"""The seam between running an audit and reporting it: what one page yields, and how the
pages of an audit become one :class:`~audit.models.AuditResult`.

The engine fills a :class:`PageAudit` per page (the crawler reads its links, the LLM review
its evidence); :func:`assemble` is pure, so the whole result is decided by the pages alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .axe_bundle import load_bundle
from .findings import number_findings
from .llm.evidence import Evidence
from .models import (
    AuditRequest,
    AuditResult,
    BestPracticeItem,
    EngineInfo,
    Finding,
    NeedsReviewItem,
    PageResult,
)
from .problems.build import build_problems
from .scoring import conformant, overall_score, stats


@dataclass
class PageAudit:
    """One page's share of the result, before ids are made unique across pages."""

    page: PageResult
    findings: list[Finding] = field(default_factory=list)
    needs_review: list[NeedsReviewItem] = field(default_factory=list)
    best_practices: list[BestPracticeItem] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    final_url: str = ""
    axe_results: dict[str, Any] | None = None
    #: Gathered while the page was open; only with LLM assistance on.
    llm_evidence: Evidence | None = None
    #: Seconds per phase of this page's audit (:mod:`audit.phases`); not part of the result.
    timings: dict[str, float] = field(default_factory=dict)


def assemble(request: AuditRequest, audits: list[PageAudit], duration_ms: int) -> AuditResult:
    """The AuditResult of audited pages: ids made unique, score, conformance, stats, and the
    findings grouped into problems (:mod:`audit.problems`)."""
    findings = number_findings([f for a in audits for f in a.findings], "f")
    review = number_findings([r for a in audits for r in a.needs_review], "r")
    best = number_findings([b for a in audits for b in a.best_practices], "b")
    pages = [a.page for a in audits]
    covered = sum(1 for p in pages if p.status != "skipped")
    problems = build_problems(findings, review, sum(1 for p in pages if p.status == "ok"))
    return AuditResult(
        url=request.url,
        wcag_version=request.version,
        wcag_level=request.level,
        score=overall_score(p.score for p in pages if p.status == "ok"),
        conformant=conformant(pages, findings),
        stats=stats(findings, covered),
        findings=findings,
        needs_review=review,
        best_practices=best,
        pages=pages,
        duration_ms=max(0, duration_ms),
        engine=EngineInfo(version=load_bundle().version),
        problems=problems,
    )
