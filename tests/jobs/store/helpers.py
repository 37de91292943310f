"""Small builders and checks shared by the store tests."""

from __future__ import annotations

from collections import Counter

from jobs.ids import url_key
from jobs.store import FindingRecord, NewPage, Store


def site_pages(count: int, *, first_seq: int = 0) -> list[NewPage]:
    """``count`` pages of one test site, depth 1, in seq order."""
    urls = [f"https://site.test/p{first_seq + n}" for n in range(count)]
    return [NewPage(url, url_key(url), 1, first_seq + n) for n, url in enumerate(urls)]


def running_run(store: Store, pages: int = 0) -> str:
    """A running job with ``pages`` queued pages; returns its id."""
    run = store.create_run("https://site.test/", {"url": "https://site.test/"})
    store.set_run_status(run.id, "running")
    if pages:
        store.add_pages(run.id, site_pages(pages))
    return run.id


def page_result(url: str, status: str = "ok", score: float | None = 90.0) -> dict:
    """A PageResult as the audit result shows it."""
    return {"url": url, "status": status, "score": score, "findings": 0}


def items(*impacts: str, kind: str = "finding", rule: str = "image-alt") -> list[FindingRecord]:
    return [
        FindingRecord(kind, {"ruleId": rule, "impact": impact, "n": n})
        for n, impact in enumerate(impacts)
    ]


def everything(read, run_id: str) -> list:
    """All items of a paginated list (``read(offset=, limit=)``), in small windows."""
    found: list = []
    while window := read(run_id, offset=len(found), limit=7):
        found.extend(window)
    return found


def all_events(store: Store, run_id: str) -> list:
    """Every event of a run, read the way an SSE client resumes: after the last id seen."""
    found: list = []
    while window := store.events_after(run_id, found[-1].id if found else 0, limit=7):
        found.extend(window)
    return found


def assert_counters_are_the_rows(store: Store, run_id: str) -> None:
    """The run's counters equal the sums over its page and finding rows."""
    run = store.get_run(run_id)
    statuses = Counter(page.status for page in everything(store.pages, run_id))
    impacts = Counter(item.impact for item in everything(store.findings, run_id))
    counters = {
        "pages_queued": statuses["queued"] + statuses["running"],
        "pages_done": statuses["ok"] + statuses["failed"] + statuses["skipped"],
        "pages_failed": statuses["failed"],
        "findings_total": impacts.total(),
        **{impact: impacts[impact] for impact in ("critical", "serious", "moderate", "minor")},
    }
    assert {name: getattr(run, name) for name in counters} == counters
