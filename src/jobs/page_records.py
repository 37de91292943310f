"""One audited page as the store keeps it, and back.

A page's row holds its ``PageResult`` as the result shows it; its findings, needs-review
and best-practice items are rows of their own (paginated), each as the result shows it with
the id it had on its page: ids are renumbered across the run when a result is read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from audit.failures import AuditFailed
from audit.models import ErrorInfo, PageResult
from audit.page_audit import PageAudit
from audit.urls import scrub_credentials

from .store import FindingRecord

#: (key in the result, kind in the store, id prefix), in the result's order.
RESULT_LISTS = (
    ("findings", "finding", "f"),
    ("needsReview", "review", "r"),
    ("bestPractices", "best_practice", "b"),
)


@dataclass(frozen=True)
class PageRecord:
    """What ``Store.record_page`` takes for one page."""

    status: str
    data: dict[str, Any]
    items: list[FindingRecord]
    final_url: str | None = None
    links: list[str] | None = None
    timings: dict[str, float] | None = None


def audited(audit: PageAudit, *, keep_links: bool) -> PageRecord:
    """An audited (``ok``) or skipped page; its links only when the crawl will follow them.
    No URL in it keeps a ``user:password@``: a page of a site the request gave credentials
    for is loaded with them (``jobs.secrets.with_credentials``), and stored without."""
    return PageRecord(
        status=audit.page.status,
        data=scrub_credentials(audit.page.model_dump(mode="json")),
        items=[
            *_records("finding", audit.findings),
            *_records("review", audit.needs_review),
            *_records("best_practice", audit.best_practices),
        ],
        final_url=scrub_credentials(audit.final_url) or None,
        links=scrub_credentials(list(audit.links)) if keep_links else None,
        timings=dict(audit.timings) or None,
    )


def failed(url: str, failure: AuditFailed) -> PageRecord:
    """A page that could not be audited, as the synchronous crawl reports one: the HTTP
    status when the failure names one, and the failure's code and message."""
    status = next((d.get("status") for d in failure.details if isinstance(d, dict)), None)
    page = PageResult(url=url, status="failed", http_status=status, error=failure.error_info())
    return PageRecord("failed", page.model_dump(mode="json"), [])


def skipped(url: str, code: str, message: str) -> PageRecord:
    """A page deliberately not loaded (e.g. robots.txt disallows it)."""
    page = PageResult(url=url, status="skipped", error=ErrorInfo(code=code, message=message))
    return PageRecord("skipped", page.model_dump(mode="json"), [])


def _records(kind: str, items: Iterable[BaseModel]) -> list[FindingRecord]:
    return [FindingRecord(kind, scrub_credentials(item.model_dump(mode="json"))) for item in items]
