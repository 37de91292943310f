"""The contract of the jobs API (``/audits``): the models of its query strings and answers,
and its OpenAPI paths built from those same models.

The routes (``jobs_api``) validate every query string with these models and build every
answer through them, so the document cannot drift from what the service accepts and says.
Query strings are text, so their models convert (``"20"`` is 20) but reject anything that is
not exactly a value of the field (``"2.5"``, ``"lots"``, a status that does not exist);
names the API does not know are ignored, as HTTP caches and proxies add their own.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from audit.models import (
    AuditResult,
    ErrorBody,
    ErrorObject,
)
from audit.openapi import JsonSchemaMode, OpenApiPaths, SchemaRef, json_content
from audit.urls import without_credentials
from jobs.ids import RUN_ID_PATTERN
from jobs.models import JobRequest
from jobs.store import RUN_STATUSES, Run

from .events_schema import MODELS as EVENT_MODELS
from .events_schema import events_content

RunStatus = Literal[RUN_STATUSES]  # type: ignore[valid-type]
REPORT_FORMATS = ("json", "html", "sarif", "junit")
ReportFormat = Literal[REPORT_FORMATS]  # type: ignore[valid-type]
#: The page size of a result's findings (and its largest).
FINDINGS_PAGE = 1000
LIST_DEFAULT, LIST_MAX = 50, 200


class _Answer(BaseModel):
    """Answers: built from Python names, dumped with the JSON (camelCase) names."""

    model_config = ConfigDict(
        extra="forbid", alias_generator=to_camel, validate_by_name=True, serialize_by_alias=True
    )


#: The largest offset or event id a query may name: the stores keep 64-bit integers (SQLite's
#: INTEGER, PostgreSQL's bigint), so a larger one could not even be asked about.
MAX_QUERY_INT = 2**63 - 1


class QueryModel(BaseModel):
    """Query strings: JSON names only, text converted to the field's type, others ignored."""

    model_config = ConfigDict(
        extra="ignore", alias_generator=to_camel, validate_by_alias=True, validate_by_name=False
    )


# --------------------------------------------------------------------------- queries


class ResultQuery(QueryModel):
    """``GET /audits/{id}``: the window of the completed result's findings."""

    offset: int = Field(0, ge=0, le=MAX_QUERY_INT, description="First finding of the window.")
    limit: int = Field(FINDINGS_PAGE, ge=1, le=FINDINGS_PAGE, description="Findings in the window.")
    include: Literal["screenshots"] | None = Field(
        None, description="screenshots: every finding, needs-review item and page that has an "
        "image gets screenshot (thumbnail for pages): {name, href, mediaType, width, height}.",
    )
    group: Literal["findings", "problems"] = Field(
        "findings", description="problems: the window of findings is taken in the order of their "
        "problems (most important first, then the result's order) and result.findingGroups "
        "names the window's findings of each problem (docs/problems.md).",
    )


class ListQuery(QueryModel):
    """``GET /audits``: newest first, optionally of one start URL and one status."""

    url: str | None = Field(None, min_length=1, description="Only runs of this start URL.")
    status: RunStatus | None = Field(None, description="Only runs in this status.")
    limit: int = Field(LIST_DEFAULT, ge=1, le=LIST_MAX, description="Runs in the answer.")


class ReportQuery(QueryModel):
    """``GET /audits/{id}/report``."""

    format: ReportFormat = Field("json", description="Report format.")
    group: Literal["findings", "problems"] = Field(
        "findings", description="sarif and junit: one result (test case) per finding, or per "
        "problem (docs/problems.md).",
    )


class EventsQuery(QueryModel):
    """``GET /audits/{id}/events``: where to resume (the ``Last-Event-ID`` header wins)."""

    last_event_id: int | None = Field(
        None, ge=0, le=MAX_QUERY_INT,
        description="Resume after this event id (as the Last-Event-ID header).",
    )


class DeleteQuery(QueryModel):
    """``DELETE /audits/{id}``: cancel the run, or delete it for good."""

    purge: bool = Field(
        False, description="true: delete the finished run and everything it owns (its pages, "
        "findings, events, screenshots and a baseline naming it) instead of cancelling it; "
        "needs the admin scope.",
    )

    @field_validator("purge", mode="before")
    @classmethod
    def _true_or_false(cls, value: Any) -> Any:
        """Exactly ``true`` or ``false``, as the document's boolean is written in a query
        string (not pydantic's ``1``, ``yes`` or ``on``)."""
        if value in ("true", "false"):
            return value == "true"
        raise PydanticCustomError("bool_parsing", "Expected true or false.")


# --------------------------------------------------------------------------- answers


class JobLinks(_Answer):
    self_: str = Field(alias="self", description="The run: GET for its status and result.")
    events: str = Field(description="Its progress as Server-Sent Events.")
    report: str = Field(description="Its report, once completed.")


class JobAccepted(_Answer):
    """Body of ``202`` to ``POST /audits``: the run is stored and queued."""

    id: str
    status: RunStatus
    links: JobLinks


class Progress(_Answer):
    pages_done: int = Field(ge=0, description="Pages finished (audited, failed or skipped).")
    pages_queued: int = Field(ge=0, description="Pages waiting or being audited.")
    pages_failed: int = Field(ge=0)
    findings: int = Field(ge=0, description="WCAG findings so far.")


class FindingsPage(_Answer):
    offset: int = Field(ge=0)
    limit: int = Field(ge=1)
    total: int = Field(ge=0, description="Findings in the whole result.")


class ProblemSummary(_Answer):
    """A problem heading its findings (all of it: ``GET /audits/{id}/problems``)."""

    id: str = Field(description="The problem's id (problems[].id).")
    rank: int = Field(ge=0, description="Its place among the run's problems, most important first "
                      "(0): its offset in GET /audits/{id}/problems.")
    rule_id: str
    title: str = Field(description="The rule's one-sentence help.")
    impact: Literal["critical", "serious", "moderate", "minor"] = Field(
        description="The worst impact among its instances.")
    level: Literal["A", "AA", "AAA"]
    certainty: Literal["violation", "needs_review"]
    component: str
    selector_pattern: str = Field(description="A CSS selector matching every instance.")
    fix_location: str = Field(description="A plain-language guess where the fix lives.")
    instances: int = Field(ge=1, description="Findings and needs-review items in the problem.")
    pages: int = Field(ge=1, description="Pages it was found on.")
    priority: float = Field(ge=0, description="The documented priority score (docs/problems.md).")
    blocks_task: bool


class FindingGroupRef(_Answer):
    """``GET /audits/{id}?group=problems``: one problem and its findings in the window."""

    problem: ProblemSummary
    total: int = Field(ge=1, description="The problem's findings in the whole result; a group "
                       "may go on in the next window.")
    finding_ids: list[str] = Field(description="Its findings in this window (findings[].id), in order.")


class JobResult(AuditResult):
    """A completed run's result: the ``POST /audit`` shape, with one window of findings."""

    findings_page: FindingsPage
    finding_groups: list[FindingGroupRef] | None = Field(
        None, exclude_if=lambda value: value is None,
        description="With group=problems only: the window's findings under their problems, "
        "in the problems' priority order.",
    )


class RunView(_Answer):
    """A run, synchronous (``POST /audit``) or a job; ``error`` when it failed, ``result``
    when it completed (only in ``GET /audits/{id}``). ``url`` is shown without any
    ``user:password@`` it was submitted with."""

    id: str
    kind: Literal["sync", "job"]
    status: RunStatus
    url: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    progress: Progress
    error: ErrorObject | None = None
    result: JobResult | None = None

    @classmethod
    def of(cls, run: Run, result: dict[str, Any] | None = None) -> RunView:
        return cls(
            id=run.id, kind=run.kind, status=run.status, url=without_credentials(run.url),
            created_at=run.created_at, started_at=run.started_at, finished_at=run.finished_at,
            progress=Progress(
                pages_done=run.pages_done, pages_queued=run.pages_queued,
                pages_failed=run.pages_failed, findings=run.findings_total,
            ),
            error=run.error, result=result,
        )

    def body(self) -> dict[str, Any]:
        """The JSON body: ``error`` and ``result`` only when there is one."""
        return self.model_dump(mode="json", exclude={
            name for name in ("error", "result") if getattr(self, name) is None
        })


class RunList(_Answer):
    """Body of ``GET /audits``: newest first, without results."""

    runs: list[RunView]

    def body(self) -> dict[str, Any]:
        return {"runs": [run.body() for run in self.runs]}


# --------------------------------------------------------------------------- OpenAPI

_MODELS: list[tuple[type[BaseModel], JsonSchemaMode]] = [
    (JobRequest, "validation"),
    (JobAccepted, "serialization"),
    (RunView, "serialization"),
    (RunList, "serialization"),
    (ErrorBody, "serialization"),
    *EVENT_MODELS,
]
_ERRORS = {
    "400": "invalid_request (details: one {field, message} per bad field or query value)",
    "401": "unauthorized: auth is on and the bearer token is missing, wrong or revoked.",
    "404": "not_found: there is no run with this id, or none the token may see (a token "
    "limited to sites sees only their runs).",
    "409": "conflict: the run is not in a state that allows this.",
}
_BODY_ERRORS = (
    "invalid_json, invalid_request (details: one {field, message} per bad field), "
    "unsupported_media_type, payload_too_large (body over 64 KiB)."
)
_SECURITY = [{"bearerAuth": []}, {}]


def query_parameters(model: type[QueryModel]) -> list[dict[str, Any]]:
    """The OpenAPI query parameters of a query model, from its JSON schema."""
    schema = model.model_json_schema()
    return [
        {
            "name": name, "in": "query", "required": name in schema.get("required", ()),
            "description": prop.pop("description", ""), "schema": prop,
        }
        for name, prop in schema["properties"].items()
    ]


def _run_id() -> dict[str, Any]:
    return {
        "name": "id", "in": "path", "required": True,
        "description": "The run's id; anything not of this form is not_found.",
        "schema": {"type": "string", "pattern": RUN_ID_PATTERN},
    }


def _paths(use: SchemaRef) -> dict[str, Any]:
    error = json_content(use(ErrorBody, "serialization"))

    def answers(ok: str, ok_body: dict[str, Any], *codes: str,
                said: dict[str, str] | None = None) -> dict[str, Any]:
        """The success answer and the error answers of ``codes`` (described by ``said``
        where the route means something more specific than ``_ERRORS``)."""
        out: dict[str, Any] = {ok: ok_body}
        for code in codes:
            text = (said or {}).get(code, _ERRORS[code])
            out[code] = {"description": text, "content": error}
        return out

    run = {"description": "The run.", "content": json_content(use(RunView, "serialization"))}
    return {
        "/audits": {
            "post": {
                "operationId": "submitAudit",
                "summary": "Start an audit as a job; answers at once.",
                "security": _SECURITY,
                "requestBody": {
                    "required": True, "content": json_content(use(JobRequest, "validation")),
                },
                "responses": answers(
                    "202",
                    {
                        "description": "Stored and queued; Location names the run.",
                        "headers": {"Location": {"schema": {"type": "string"}}},
                        "content": json_content(use(JobAccepted, "serialization")),
                    },
                    "400", "401", said={"400": _BODY_ERRORS},
                ),
            },
            "get": {
                "operationId": "listAudits",
                "summary": "Runs, newest first.",
                "security": _SECURITY,
                "parameters": query_parameters(ListQuery),
                "responses": answers(
                    "200",
                    {"description": "The runs.", "content": json_content(use(RunList, "serialization"))},
                    "400", "401",
                ),
            },
        },
        "/audits/{id}": {
            "get": {
                "operationId": "getAudit",
                "summary": "A run's status and progress; its result once completed.",
                "security": _SECURITY,
                "parameters": [_run_id(), *query_parameters(ResultQuery)],
                "responses": answers("200", run, "400", "401", "404"),
            },
            "delete": {
                "operationId": "cancelAudit",
                "summary": "Cancel a run (no new page starts), or with purge=true delete a "
                "finished run for good.",
                "security": _SECURITY,
                "parameters": [_run_id(), *query_parameters(DeleteQuery)],
                "responses": answers(
                    "200", {**run, "description": "The run: cancelled, or as it was before it "
                            "was deleted."}, "400", "401", "404", "409",
                    said={"400": "invalid_request: purge is neither true nor false.",
                          "404": "not_found: there is no run with this id, or none this token "
                          "may see or cancel (a submit token cancels only the runs it started).",
                          "409": "conflict: the run has already finished (cancel), or is still "
                          "queued or running (purge: cancel it first)."},
                ),
            },
        },
        "/audits/{id}/events": {
            "get": {
                "operationId": "auditEvents",
                "summary": "Progress as Server-Sent Events, until run.done.",
                "description": (
                    "Events: run.started, page.started, page.done, page.failed, run.progress, "
                    "run.done; each with an id to resume after (Last-Event-ID header), each "
                    "type's data in the answer's x-events. A comment line every 15 s keeps the "
                    "connection alive."
                ),
                "security": _SECURITY,
                "parameters": [
                    _run_id(),
                    {"name": "Last-Event-ID", "in": "header", "required": False,
                     "schema": {"type": "integer", "minimum": 0, "maximum": MAX_QUERY_INT}},
                    *query_parameters(EventsQuery),
                ],
                "responses": answers(
                    "200",
                    {"description": "The event stream.", "content": events_content(use)},
                    "400", "401", "404",
                ),
            },
        },
        "/audits/{id}/report": {
            "get": {
                "operationId": "auditReport",
                "summary": "The completed run rendered as a report.",
                "security": _SECURITY,
                "parameters": [_run_id(), *query_parameters(ReportQuery)],
                "responses": answers(
                    "200",
                    {"description": "The report.", "content": {
                        "application/json": {"schema": use(AuditResult, "serialization")},
                        "application/sarif+json": {"schema": {"type": "object"}},
                        "text/html": {"schema": {"type": "string"}},
                        "application/xml": {"schema": {"type": "string"}},
                    }},
                    "400", "401", "404", "409",
                    said={"409": "conflict: the run has not completed (yet)."},
                ),
            },
        },
    }


JOBS_OPENAPI = OpenApiPaths(models=_MODELS, build=_paths)
