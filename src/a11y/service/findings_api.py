"""``GET /audits/{id}/findings``: a completed run's findings, a window at a time, filtered by
rule, impact, page or problem, as a list or (``?group=problems``) under their problems in the
problems' priority order (:mod:`.finding_listing` says how windows and groups fit).

Why an endpoint of its own: ``GET /audits/{id}`` windows every list of the result at once and
repeats the whole result's pages with each window, where a person working through the
findings wants one list, filtered, and a tracker the findings of one problem.

Conventions are the jobs API's (:mod:`.jobs_api`): the token (read scope; a token limited to
sites sees only their runs), the run id, the query string, then the store; 404 for no such
run, 409 while the run is not completed, 400 naming each bad query value.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field
from quart import Response
from quart_trio import QuartTrio

from audit.models import ErrorBody, Finding
from audit.openapi import JsonSchemaMode, OpenApiPaths, SchemaRef, json_content

from .finding_listing import FindingFilter, ListingAsk, list_findings
from .handlers import Service
from .jobs_api import _answer, _jobs
from .jobs_schema import (
    _ERRORS,
    _SECURITY,
    MAX_QUERY_INT,
    ProblemSummary,
    QueryModel,
    _Answer,
    _run_id,
    query_parameters,
)
from .replies import json_response

FINDINGS_DEFAULT, FINDINGS_MAX = 100, 1000
#: Text a query names a rule or a page by: no control characters (no stored id or URL has one).
_TEXT = r"^[^\x00-\x1f\x7f]+$"


class FindingsQuery(QueryModel):
    """``GET /audits/{id}/findings``: the filters, the window and the grouping."""

    offset: int = Field(0, ge=0, le=MAX_QUERY_INT,
                        description="First finding of the window (in the listing's order).")
    limit: int = Field(FINDINGS_DEFAULT, ge=1, le=FINDINGS_MAX, description="Findings in the window.")
    rule: str | None = Field(None, min_length=1, max_length=200, pattern=_TEXT,
                             description="Only findings of this rule (ruleId).")
    impact: Literal["critical", "serious", "moderate", "minor"] | None = Field(
        None, description="Only findings of this impact.")
    page: str | None = Field(None, min_length=1, max_length=8192, pattern=_TEXT,
                             description="Only findings of the page with this URL, as findings give "
                             "it (pageUrl), exactly.")
    problem: str | None = Field(None, pattern=r"^[0-9a-f]{16}$",
                                description="Only findings of this problem (problems[].id).")
    group: Literal["findings", "problems"] = Field(
        "findings", description="findings: one list, in the result's order (page by page); "
        "problems: under their problems, most important problem first, each problem's findings "
        "in the result's order (a group may go on in the next window).",
    )


class ListingPage(_Answer):
    offset: int = Field(ge=0)
    limit: int = Field(ge=1)
    total: int = Field(ge=0, description="Findings that pass the filters (all of the run's without).")


class FindingsList(_Answer):
    """Body of ``GET /audits/{id}/findings`` (group=findings)."""

    run: str = Field(description="The run's id.")
    findings: list[Finding] = Field(description="The window; ids are those of the whole result.")
    findings_page: ListingPage


class FindingGroup(_Answer):
    """A problem and its findings in this window."""

    problem: ProblemSummary
    total: int = Field(ge=1, description="The problem's findings that pass the filters, in all "
                       "windows: a group may begin in the window before and go on in the next.")
    findings: list[Finding] = Field(min_length=1)


class GroupedFindings(_Answer):
    """Body of ``GET /audits/{id}/findings?group=problems``."""

    run: str = Field(description="The run's id.")
    groups: list[FindingGroup]
    findings_page: ListingPage


def register_findings_routes(app: QuartTrio, service: Service) -> None:
    async def findings(run_id: str) -> Response:
        return await _answer(service, run_id, FindingsQuery, _findings)

    app.add_url_rule("/audits/<run_id>/findings", "audits_findings", findings, methods=["GET"])


async def _findings(service: Service, run_id: str, query: FindingsQuery) -> Response:
    ask = ListingAsk(
        where=FindingFilter(rule=query.rule, impact=query.impact, page=query.page),
        problem=query.problem, grouped=query.group == "problems",
        offset=query.offset, limit=query.limit,
    )
    listing = await list_findings(_jobs(service), run_id, ask)
    page = ListingPage(offset=query.offset, limit=query.limit, total=listing.total)
    answer: _Answer
    if ask.grouped:
        answer = GroupedFindings(run=run_id, findings_page=page, groups=[
            FindingGroup(problem=group.problem, total=group.total,
                         findings=[Finding.model_validate(f) for f in group.findings])
            for group in listing.groups
        ])
    else:
        answer = FindingsList(run=run_id, findings_page=page,
                              findings=[Finding.model_validate(f) for f in listing.findings])
    return json_response(answer.model_dump(mode="json"))


_MODELS: list[tuple[type[Any], JsonSchemaMode]] = [
    (FindingsList, "serialization"),
    (GroupedFindings, "serialization"),
    (ErrorBody, "serialization"),
]


def _paths(use: SchemaRef) -> dict[str, Any]:
    error = json_content(use(ErrorBody, "serialization"))
    body = {"oneOf": [use(FindingsList, "serialization"), use(GroupedFindings, "serialization")]}
    return {
        "/audits/{id}/findings": {
            "get": {
                "operationId": "auditFindings",
                "summary": "A completed run's findings, filtered, as a list or under their problems.",
                "security": _SECURITY,
                "parameters": [_run_id(), *query_parameters(FindingsQuery)],
                "responses": {
                    "200": {
                        "description": "A window of the findings: FindingsList, or with "
                        "group=problems GroupedFindings.",
                        "content": json_content(body),
                    },
                    **{
                        code: {"description": _ERRORS[code], "content": error}
                        for code in ("400", "401", "404")
                    },
                    "409": {
                        "description": "conflict: the run has not completed (yet).",
                        "content": error,
                    },
                },
            },
        },
    }


FINDINGS_OPENAPI = OpenApiPaths(models=_MODELS, build=_paths)
