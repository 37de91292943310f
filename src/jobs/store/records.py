"""What the store hands out and takes in: frozen records and the vocabularies of states.

Record fields carry the names of the table columns (``schema.py``), so a row becomes a
record by name and a renamed column cannot silently feed the wrong field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

RUN_STATUSES = ("queued", "running", "completed", "failed", "cancelled")
RUN_FINISHED = frozenset({"completed", "failed", "cancelled"})
# The only moves a run makes; a finished run has none, so it is never reopened.
RUN_TRANSITIONS: Mapping[str, frozenset[str]] = {
    "queued": frozenset({"running", "failed", "cancelled"}),
    "running": frozenset({"completed", "failed", "cancelled"}),
}
RUN_KINDS = ("sync", "job")

PAGE_STATUSES = ("queued", "running", "ok", "failed", "skipped")
PAGE_PENDING = frozenset({"queued", "running"})
PAGE_DONE = frozenset({"ok", "failed", "skipped"})

FINDING_KINDS = ("finding", "review", "best_practice")
IMPACTS = ("critical", "serious", "moderate", "minor")

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Run:
    """One audit, synchronous or a job. The counters sum the run's page rows (see Store)."""

    id: str
    url: str
    site: str
    kind: str
    status: str
    request: Json
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    pages_done: int
    pages_failed: int
    pages_queued: int
    findings_total: int
    critical: int
    serious: int
    moderate: int
    minor: int
    score: float | None
    error: Json | None
    result: Json | None
    #: The stored API token that started it (by name); None for ``--token`` or no auth.
    submitted_by: str | None = None

    @property
    def finished(self) -> bool:
        return self.status in RUN_FINISHED


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a run: a frontier entry while queued, its result once done."""

    id: int
    run_id: str
    url: str
    url_key: str
    depth: int
    seq: int
    status: str
    attempts: int
    score: float | None
    duration_ms: int | None
    timings: Json | None
    error: Json | None
    finding_count: int
    data: Json | None
    final_url: str | None
    links: list[str] | None
    enqueued: bool
    updated_at: datetime
    #: The final URL normalised when it is another page than ``url_key`` (a redirect).
    final_key: str | None = None


@dataclass(frozen=True, slots=True)
class StoredFinding:
    """A finding, needs-review item or best practice of one page, as the result shows it."""

    id: int
    run_id: str
    page_id: int
    page_seq: int
    kind: str
    seq: int
    rule_id: str
    impact: str | None
    fingerprint: str | None
    data: Json


@dataclass(frozen=True, slots=True)
class Event:
    """A progress event; ``id`` is the Server-Sent Events id a client resumes after."""

    id: int
    run_id: str
    type: str
    data: Json
    created_at: datetime


class NewPage(NamedTuple):
    """A page to add to a run's frontier (a plain 4-tuple in this order works too)."""

    url: str
    url_key: str
    depth: int
    seq: int


@dataclass(frozen=True, slots=True)
class FindingRecord:
    """One item of a page's result to store: ``kind`` is one of FINDING_KINDS, ``data`` the
    item as the result shows it (its ``ruleId`` and ``impact`` are indexed)."""

    kind: str
    data: Mapping[str, Any]
    fingerprint: str | None = None
