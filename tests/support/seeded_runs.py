"""Completed runs written straight into a store, as a finished ``POST /audit`` is kept: for
tests of who may see and change which run, which need runs but not the audits behind them."""

from __future__ import annotations

from audit.models import AuditRequest, AuditResult, EngineInfo, PageResult, Stats
from jobs.store import Run, Store
from jobs.sync_runs import record_sync_run


def tiny_result(url: str) -> AuditResult:
    """One page audited, nothing found."""
    return AuditResult(
        url=url, wcag_version="2.2", wcag_level="AA", score=100.0, conformant=True,
        stats=Stats(total_pages=1, total_findings=0),
        pages=[PageResult(url=url, status="ok", http_status=200, score=100.0)],
        engine=EngineInfo(version="4.11.4"),
    )


def completed_run(store: Store, url: str, *, submitted_by: str | None = None) -> Run:
    """A completed synchronous run of ``url`` (its site: ``url``'s origin), with its result,
    pages and ``run.done`` event, started by the token named ``submitted_by``."""
    request = AuditRequest.model_validate({"url": url})
    return record_sync_run(store, request, tiny_result(url), submitted_by=submitted_by)
