"""A finished run as the ``/audit`` result: the header stored when the run completes, and
the whole result read back with a window of its item lists.

The header is what :func:`audit.page_audit.assemble` gives, computed from the store's rows
and counters instead of every page in memory (a run may have 100,000 pages): the mean of
the ``ok`` pages' scores, conformance, and stats from the counters the store keeps equal
to its rows. It holds everything of the result but its lists (pages, findings,
needs-review, best practices), which are rows; its problems are made then from those rows
(:func:`run_problems`), once.
"""

from __future__ import annotations

from typing import Any

from audit.models import AuditRequest, AuditResult, Finding, NeedsReviewItem, PageResult, Stats
from audit.page_audit import assemble
from audit.problems.build import ProblemBuilder
from audit.scoring import conformant, overall_score

from .page_records import RESULT_LISTS
from .store import MAX_LIMIT, Conflict, Store

_LISTS = ("pages", *(name for name, _, _ in RESULT_LISTS))
#: The stored kinds that problems group, and their models.
_PROBLEM_ITEMS: dict[str, type[Finding] | type[NeedsReviewItem]] = {"finding": Finding, "review": NeedsReviewItem}
_ORDER = [field.alias or name for name, field in AuditResult.model_fields.items()]


def result_header(store: Store, run_id: str, request: AuditRequest, duration_ms: int) -> dict[str, Any]:
    """The result of a run whose pages are all done, without its lists (JSON names)."""
    run = store.get_run(run_id)
    counts = store.page_counts(run_id)
    # conformant() decides on which page statuses occur and whether there are findings:
    # one page of each status present stands for them all.
    present = [PageResult(url=run.url, status=s) for s in ("ok", "failed", "skipped") if counts[s]]
    header = assemble(request, [], duration_ms).model_copy(update={
        "score": overall_score(store.ok_scores(run_id)),
        "conformant": conformant(present, []) and run.findings_total == 0,
        "stats": Stats(
            total_pages=counts["ok"] + counts["failed"],
            total_findings=run.findings_total,
            critical=run.critical,
            serious=run.serious,
            moderate=run.moderate,
            minor=run.minor,
        ),
    })
    dumped = header.model_dump(mode="json")
    dumped["problems"] = run_problems(store, run_id, counts["ok"])
    return {key: value for key, value in dumped.items() if key not in _LISTS}


def run_problems(store: Store, run_id: str, total_pages: int) -> list[dict[str, Any]]:
    """The run's problems (:mod:`audit.problems`) from its stored findings and needs-review
    items, read window by window and numbered as the whole result numbers them."""
    builder = ProblemBuilder(total_pages)
    for _name, kind, prefix in RESULT_LISTS:
        model = _PROBLEM_ITEMS.get(kind)
        if model is None:
            continue
        offset = 0
        while window := store.findings(run_id, kind, offset=offset, limit=MAX_LIMIT):
            for n, stored in enumerate(window, 1):
                item = model.model_validate({**stored.data, "id": f"{prefix}{offset + n}"})
                builder.add(item, is_finding=kind == "finding")
            offset += len(window)
            if len(window) < MAX_LIMIT:
                break
    return [problem.model_dump(mode="json") for problem in builder.problems()]


def read_result(store: Store, run_id: str, offset: int, limit: int) -> dict[str, Any]:
    """The completed run's result: every page, and items ``offset`` to ``offset + limit``
    of each list, numbered as in the whole result. ``Conflict`` unless completed."""
    run = store.get_run(run_id)
    if run.status != "completed" or run.result is None:
        raise Conflict(f"run {run_id} is {run.status}; only a completed run has a result")
    body: dict[str, Any] = dict(run.result)
    body["pages"] = _all_pages(store, run_id)
    for name, kind, prefix in RESULT_LISTS:
        window = store.findings(run_id, kind, offset=offset, limit=limit)
        body[name] = [
            {**item.data, "id": f"{prefix}{offset + n}"} for n, item in enumerate(window, 1)
        ]
    return {key: body[key] for key in _ORDER if key in body}


def _all_pages(store: Store, run_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    while window := store.pages(run_id, offset=len(found), limit=MAX_LIMIT):
        found.extend(page.data or {} for page in window)
        if len(window) < MAX_LIMIT:
            break
    return found
