"""``GET /audits/{id}/problems``: a completed run's problems (docs/problems.md), in priority
order, a window at a time (``offset``, ``limit``, as a result's findings), each with the
issue it maps to (title, Markdown body with its instances and their screenshots' links,
labels); ``?format=csv`` gives the same window as CSV rows for an issue tracker's import.

Conventions are the jobs API's (:mod:`.jobs_api`): the token, the run id, the query string,
then the store; 404 for no such run, 409 while the run is not completed.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field
from quart import Response
from quart_trio import QuartTrio

from audit.models import ErrorBody
from audit.openapi import JsonSchemaMode, OpenApiPaths, SchemaRef, json_content
from audit.problems.build import problems_of
from audit.problems.issues import IssueDraft, problems_csv
from audit.problems.issues import issue_of as issue_draft
from audit.problems.schema import Problem, ProblemInstance
from audit.screenshots import ScreenshotIndex
from jobs.blocking import in_thread
from jobs.screenshots import stored_index
from jobs.store import Conflict

from .evidence import artifact_base, whole_result
from .handlers import Service
from .jobs_api import _answer, _jobs
from .jobs_schema import (
    _ERRORS,
    _SECURITY,
    MAX_QUERY_INT,
    QueryModel,
    _Answer,
    _run_id,
    query_parameters,
)
from .replies import json_response

PROBLEMS_PAGE, PROBLEMS_MAX = 100, 1000
CSV_TYPE = "text/csv; charset=utf-8"


class ProblemsQuery(QueryModel):
    """``GET /audits/{id}/problems``: the window, and JSON or CSV."""

    offset: int = Field(
        0, ge=0, le=MAX_QUERY_INT,
        description="First problem of the window (0 is the most important).",
    )
    limit: int = Field(PROBLEMS_PAGE, ge=1, le=PROBLEMS_MAX, description="Problems in the window.")
    format: Literal["json", "csv"] = Field(
        "json",
        description="json: the problems with their issues; csv: one row per problem, "
        "for an issue tracker's import (columns in docs/problems.md).",
    )


class ProblemIssue(Problem):
    """A problem with the issue it maps to."""

    issue: IssueDraft


class ProblemsPageInfo(_Answer):
    offset: int = Field(ge=0)
    limit: int = Field(ge=1)
    total: int = Field(ge=0, description="Problems in the whole result.")


class ProblemsAnswer(_Answer):
    """Body of ``GET /audits/{id}/problems`` (JSON)."""

    run: str = Field(description="The run's id.")
    problems: list[ProblemIssue]
    problems_page: ProblemsPageInfo


def register_problem_routes(app: QuartTrio, service: Service) -> None:
    async def problems(run_id: str) -> Response:
        return await _answer(service, run_id, ProblemsQuery, _problems)

    app.add_url_rule("/audits/<run_id>/problems", "audits_problems", problems, methods=["GET"])


def _linker(index: ScreenshotIndex, run_id: str, problem: Problem) -> Any:
    """The screenshot link of an instance of ``problem``, by the item it shows."""
    base = artifact_base(run_id)

    def link(instance: ProblemInstance) -> str | None:
        kind = "review" if instance.item_id.startswith("r") else "finding"
        key = (kind, instance.page_url, problem.rule_id, instance.selector, "")
        image = index.items.get(key)
        return f"{base}{image.name}" if image is not None and image.name else None

    return link


def _with_links(problem: Problem, link: Any) -> Problem:
    def linked(instance: ProblemInstance) -> ProblemInstance:
        return instance.model_copy(update={"screenshot": link(instance)})

    return problem.model_copy(
        update={
            "representative": linked(problem.representative),
            "examples": [linked(instance) for instance in problem.examples],
        }
    )


async def _problems(service: Service, run_id: str, query: ProblemsQuery) -> Response:
    jobs = _jobs(service)
    run = await jobs.get(run_id)
    if run.status != "completed" or run.result is None:
        raise Conflict(f"run {run_id} is {run.status}; only a completed run has problems")
    stored = run.result.get("problems")
    if stored is None:  # completed before runs stored their problems: made from its items now
        stored = [p.model_dump(mode="json") for p in problems_of(await whole_result(jobs, run_id))]
    window = [Problem.model_validate(p) for p in stored[query.offset : query.offset + query.limit]]
    index = await in_thread(stored_index, jobs.store, run_id, with_data=False)
    linked = [_with_links(problem, _linker(index, run_id, problem)) for problem in window]
    if query.format == "csv":
        return Response(
            problems_csv(linked),
            status=200,
            content_type=CSV_TYPE,
            headers={
                "Content-Disposition": f'attachment; filename="{run_id}-problems.csv"',
            },
        )
    answer = ProblemsAnswer(
        run=run_id,
        problems=[
            ProblemIssue(**problem.model_dump(), issue=issue_draft(problem, lambda i: i.screenshot))
            for problem in linked
        ],
        problems_page=ProblemsPageInfo(offset=query.offset, limit=query.limit, total=len(stored)),
    )
    return json_response(answer.model_dump(mode="json"))


_MODELS: list[tuple[type[Any], JsonSchemaMode]] = [
    (ProblemsAnswer, "serialization"),
    (ErrorBody, "serialization"),
]


def _paths(use: SchemaRef) -> dict[str, Any]:
    error = json_content(use(ErrorBody, "serialization"))
    return {
        "/audits/{id}/problems": {
            "get": {
                "operationId": "auditProblems",
                "summary": "A completed run's problems, most important first, with the issue each maps to.",
                "security": _SECURITY,
                "parameters": [_run_id(), *query_parameters(ProblemsQuery)],
                "responses": {
                    "200": {
                        "description": "A window of the problems.",
                        "content": {
                            **json_content(use(ProblemsAnswer, "serialization")),
                            "text/csv": {"schema": {"type": "string"}},
                        },
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


PROBLEMS_OPENAPI = OpenApiPaths(models=_MODELS, build=_paths)
