"""The progress events of a run: their names and payloads in one place (the SSE contract).

``run.started {runId}``, ``page.started {url, depth}``, ``page.done {url, status, score,
findings, critical, serious, moderate, minor, durationMs}``, ``page.failed {url, error}``,
``run.progress {done, queued, failed, findings}``, ``run.done {status, score, totalPages,
totalFindings}``. Writers go through :func:`emit`, which wakes this process's followers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .blocking import in_thread
from .store import FindingRecord, Run, Store
from .wakeup import Wakeup

RUN_STARTED = "run.started"
PAGE_STARTED = "page.started"
PAGE_DONE = "page.done"
PAGE_FAILED = "page.failed"
RUN_PROGRESS = "run.progress"
RUN_DONE = "run.done"

IMPACTS = ("critical", "serious", "moderate", "minor")


async def emit(
    store: Store, wakeup: Wakeup | None, run_id: str, event_type: str, data: Mapping[str, Any]
) -> None:
    """Add an event; only ``run.done`` is added to a finished run, and it comes last."""
    added = await in_thread(
        store.add_event, run_id, event_type, data, unless_finished=event_type != RUN_DONE
    )
    if added is not None and wakeup is not None:
        wakeup.notify()


def page_done(
    page: Mapping[str, Any], records: Sequence[FindingRecord], duration_ms: int | None
) -> dict[str, Any]:
    impacts = Counter(r.data.get("impact") for r in records if r.kind == "finding")
    return {
        "url": page["url"],
        "status": page["status"],
        "score": page.get("score"),
        "findings": impacts.total(),
        **{impact: impacts[impact] for impact in IMPACTS},
        "durationMs": duration_ms,
    }


def page_failed(page: Mapping[str, Any]) -> dict[str, Any]:
    return {"url": page["url"], "error": page.get("error")}


def run_progress(run: Run) -> dict[str, Any]:
    return {
        "done": run.pages_done,
        "queued": run.pages_queued,
        "failed": run.pages_failed,
        "findings": run.findings_total,
    }


def run_done(run: Run) -> dict[str, Any]:
    """For a completed run its result's figures; for a failed or cancelled one, what was
    done (``score`` None)."""
    stats = (run.result or {}).get("stats") or {}
    return {
        "status": run.status,
        "score": run.score,
        "totalPages": stats.get("totalPages", run.pages_done),
        "totalFindings": stats.get("totalFindings", run.findings_total),
    }
