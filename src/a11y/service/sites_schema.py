"""The contract of the sites API (``/sites/{site}/…`` and ``/audits/{id}/diff``): the models of
its query strings, bodies and answers, and its OpenAPI paths built from those same models
(see ``jobs_schema``, whose conventions these follow)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import ConfigDict, Field, StrictStr, field_validator
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from audit.models import ErrorBody, Finding
from audit.openapi import JsonSchemaMode, OpenApiPaths, SchemaRef, json_content
from audit.problems.changes import ProblemChanges
from audit.problems.schema import Problem
from jobs.ids import RUN_ID_PATTERN, is_run_id
from jobs.store import Run

from ..origins import SITE_PATTERN
from .jobs_schema import LIST_DEFAULT, LIST_MAX, QueryModel, RunStatus, _Answer, query_parameters

#: ``?against=`` this compares with the site's baseline instead of a named run.
BASELINE = "baseline"


# --------------------------------------------------------------------------- queries, bodies


class DiffQuery(QueryModel):
    """``GET /audits/{id}/diff``: the run to compare with."""

    against: str = Field(
        description="A run id, or 'baseline' for the baseline of the run's site.",
        # In the document; the validator below applies it with its own message.
        json_schema_extra={"pattern": f"^(?:{BASELINE}|{RUN_ID_PATTERN[1:-1]})$"},
    )

    @field_validator("against")
    @classmethod
    def _run_or_baseline(cls, value: str) -> str:
        if value != BASELINE and not is_run_id(value):
            raise PydanticCustomError("against", "Must be a run id or 'baseline'.")
        return value


class HistoryQuery(QueryModel):
    """``GET /sites/{site}/history``: how many of the newest runs."""

    limit: int = Field(LIST_DEFAULT, ge=1, le=LIST_MAX, description="Runs in the answer.")


class BaselineBody(_Answer):
    """Body of ``PUT /sites/{site}/baseline``."""

    model_config = ConfigDict(
        extra="forbid", alias_generator=to_camel, validate_by_alias=True, validate_by_name=False
    )

    # The pattern is in the document; the route applies it with its own message.
    run: StrictStr = Field(
        description="The id of a completed run of this site.", json_schema_extra={"pattern": RUN_ID_PATTERN}
    )


# --------------------------------------------------------------------------- answers


class DiffCounts(_Answer):
    new: int = Field(ge=0)
    fixed: int = Field(ge=0)
    unchanged: int = Field(ge=0)


class ProblemDiffCounts(_Answer):
    new: int = Field(ge=0)
    fixed: int = Field(ge=0)
    spread: int = Field(ge=0)
    unchanged: int = Field(ge=0)


class ProblemSpread(_Answer):
    """A problem both runs have, now on pages where the other run did not find it."""

    problem: Problem
    new_pages: list[str] = Field(description="The pages it reached, sorted.")


class ProblemDiff(_Answer):
    """The runs' problems matched by id (docs/problems.md, Baselines): ``new``, ``spread``
    and ``unchanged`` as the run has them, in its priority order; ``fixed`` as the other run
    had them."""

    counts: ProblemDiffCounts
    new: list[Problem]
    fixed: list[Problem]
    spread: list[ProblemSpread]
    unchanged: list[Problem]

    @classmethod
    def of(cls, changes: ProblemChanges) -> ProblemDiff:
        return cls(
            counts=ProblemDiffCounts(**changes.counts()), new=changes.new, fixed=changes.fixed,
            spread=[ProblemSpread(problem=s.problem, new_pages=list(s.new_pages)) for s in changes.spread],
            unchanged=changes.unchanged,
        )


class RunDiff(_Answer):
    """Body of ``GET /audits/{id}/diff``: the run's findings against another run's, matched
    by fingerprint. ``new`` and ``unchanged`` are the run's own (with its ids), ``fixed`` the
    other run's (with that run's ids). ``problems`` compares them problem by problem; it is
    null when the other run was stored before problems existed."""

    run: str
    against: str = Field(description="The id of the run compared with.")
    counts: DiffCounts
    new: list[Finding]
    fixed: list[Finding]
    unchanged: list[Finding]
    problems: ProblemDiff | None


class SiteBaseline(_Answer):
    """A site's baseline: the run ``?against=baseline`` compares with."""

    site: str = Field(description="The origin, scheme://host[:port].")
    run: str
    set_at: datetime


class FindingCounts(_Answer):
    critical: int = Field(ge=0)
    serious: int = Field(ge=0)
    moderate: int = Field(ge=0)
    minor: int = Field(ge=0)
    total: int = Field(ge=0)


class HistoryRun(_Answer):
    id: str
    created_at: datetime
    status: RunStatus
    score: float | None = Field(description="The run's score once completed.")
    pages: int = Field(ge=0, description="Pages audited or failed (all pages done while running).")
    findings: FindingCounts

    @classmethod
    def of(cls, run: Run) -> HistoryRun:
        stats = (run.result or {}).get("stats") or {}
        return cls(
            id=run.id, created_at=run.created_at, status=run.status, score=run.score,
            pages=int(stats.get("totalPages", run.pages_done)),
            findings=FindingCounts(critical=run.critical, serious=run.serious, moderate=run.moderate,
                                   minor=run.minor, total=run.findings_total),
        )


class SiteHistory(_Answer):
    """Body of ``GET /sites/{site}/history``: the newest runs of the site, oldest first."""

    site: str
    runs: list[HistoryRun]


# --------------------------------------------------------------------------- OpenAPI

_MODELS: list[tuple[type[Any], JsonSchemaMode]] = [
    (BaselineBody, "validation"),
    (RunDiff, "serialization"),
    (SiteBaseline, "serialization"),
    (SiteHistory, "serialization"),
    (ErrorBody, "serialization"),
]
_SECURITY = [{"bearerAuth": []}, {}]


def _site() -> dict[str, Any]:
    return {
        "name": "site", "in": "path", "required": True,
        "description": "The site's origin, URL-encoded (http%3A%2F%2Fexample.com%3A8080).",
        "schema": {"type": "string", "pattern": SITE_PATTERN},
    }


def _paths(use: SchemaRef) -> dict[str, Any]:
    error = json_content(use(ErrorBody, "serialization"))

    def answers(ok_body: dict[str, Any], errors: dict[str, str]) -> dict[str, Any]:
        return {"200": ok_body, **{code: {"description": text, "content": error}
                                   for code, text in errors.items()}}

    unauthorized = "unauthorized: auth is on and the bearer token is missing, wrong or revoked."
    unseen = " (A site or run the token is not limited to is not_found too.)"
    bad_site = "invalid_request: the site is not an http(s) origin (details name the field)."
    return {
        "/audits/{id}/diff": {
            "get": {
                "operationId": "diffAudit",
                "summary": "New, fixed and unchanged findings against another run or the baseline.",
                "security": _SECURITY,
                "parameters": [
                    {"name": "id", "in": "path", "required": True,
                     "schema": {"type": "string", "pattern": RUN_ID_PATTERN}},
                    *query_parameters(DiffQuery),
                ],
                "responses": answers(
                    {"description": "The diff.", "content": json_content(use(RunDiff, "serialization"))},
                    {"400": "invalid_request: against is neither a run id nor 'baseline'.",
                     "401": unauthorized,
                     "404": "not_found: no such run, or the site has no baseline." + unseen,
                     "409": "conflict: one of the runs has not completed."},
                ),
            },
        },
        "/sites/{site}/baseline": {
            "get": {
                "operationId": "getBaseline",
                "summary": "The site's baseline.",
                "security": _SECURITY,
                "parameters": [_site()],
                "responses": answers(
                    {"description": "The baseline.", "content": json_content(use(SiteBaseline, "serialization"))},
                    {"400": bad_site, "401": unauthorized,
                     "404": "not_found: the site has no baseline." + unseen},
                ),
            },
            "put": {
                "operationId": "setBaseline",
                "summary": "Make a completed run of the site its baseline.",
                "security": _SECURITY,
                "parameters": [_site()],
                "requestBody": {"required": True, "content": json_content(use(BaselineBody, "validation"))},
                "responses": answers(
                    {"description": "The baseline set.", "content": json_content(use(SiteBaseline, "serialization"))},
                    {"400": bad_site + " Or the body is invalid, or the run is of another site (field run).",
                     "401": unauthorized, "404": "not_found: no such run." + unseen,
                     "409": "conflict: the run has not completed."},
                ),
            },
        },
        "/sites/{site}/history": {
            "get": {
                "operationId": "siteHistory",
                "summary": "Score, findings by impact and pages of the site's runs, oldest first.",
                "security": _SECURITY,
                "parameters": [_site(), *query_parameters(HistoryQuery)],
                "responses": answers(
                    {"description": "The runs.", "content": json_content(use(SiteHistory, "serialization"))},
                    {"400": bad_site, "401": unauthorized,
                     "404": "not_found: the path cannot be routed (its site holds a line break)."
                     + unseen},
                ),
            },
        },
    }


SITES_OPENAPI = OpenApiPaths(models=_MODELS, build=_paths)
