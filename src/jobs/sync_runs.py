"""A synchronous ``POST /audit`` kept as a run: every audit is a run, whatever path ran it.

The finished result goes in as a completed run of kind ``sync``, page by page with its
items, so it reads back (``Jobs.result``) exactly as it was answered, except for any
``user:password@`` in its URLs, which is not kept (nothing will load them again). Page
depths are not part of an ``/audit`` result: the start page is stored at depth 0, the
others at depth 1. An audit that failed is a failed run with the error it answered.
The request is stored as a job's is, without its secrets (``jobs.secrets``), which are
dropped rather than kept: the run is over when it is stored.
"""

from __future__ import annotations

from collections import defaultdict

from audit.failures import AuditFailed
from audit.models import AuditRequest, AuditResult
from audit.screenshots import RunScreenshots
from audit.urls import scrub_credentials

from .events import RUN_DONE, run_done
from .ids import url_key
from .page_records import RESULT_LISTS
from .screenshots import keep_result_shots
from .secrets import split_secrets
from .store import FindingRecord, NewPage, Run, Store

_LISTS = {name for name, _, _ in RESULT_LISTS} | {"pages"}


def record_sync_run(
    store: Store, request: AuditRequest, outcome: AuditResult | AuditFailed,
    shots: RunScreenshots | None = None, *, submitted_by: str | None = None,
) -> Run:
    asked, _secrets = split_secrets(request.model_dump(mode="json"))
    run = store.create_run(asked["url"], asked, kind="sync", submitted_by=submitted_by)
    store.set_run_status(run.id, "running")
    if isinstance(outcome, AuditFailed):
        error = {"code": outcome.code, "message": outcome.message, "details": outcome.details}
        done = store.set_run_status(run.id, "failed", error=error)
    else:
        done = _completed(store, run, outcome, shots)
    store.add_event(run.id, RUN_DONE, run_done(done))
    return done


def _completed(store: Store, run: Run, result: AuditResult, shots: RunScreenshots | None) -> Run:
    dumped = scrub_credentials(result.model_dump(mode="json"))
    pages = [
        NewPage(page["url"], url_key(page["url"]), int(seq > 0), seq)
        for seq, page in enumerate(dumped["pages"])
    ]
    store.add_pages(run.id, pages)
    items: dict[str, list[FindingRecord]] = defaultdict(list)
    for name, kind, _prefix in RESULT_LISTS:
        for item in dumped[name]:
            items[item["pageUrl"]].append(FindingRecord(kind, item))
    for new, page in zip(pages, dumped["pages"], strict=True):
        store.record_page(run.id, new.url_key, page["status"], page, items.get(page["url"], []))
    keep_result_shots(store, run.id, result, shots)
    header = {key: value for key, value in dumped.items() if key not in _LISTS}
    return store.set_run_status(run.id, "completed", result=header)
