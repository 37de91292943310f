"""The sites API: what changed between runs (``/audits/{id}/diff``), the run each site is
compared against (``/sites/{site}/baseline``) and a site's runs over time
(``/sites/{site}/history``).

Conventions are the jobs API's (``jobs_api``): the token and its scope first (``admin`` to
set a baseline), then the path, the query string and the body, then the store; typed errors
(``not_found``, ``conflict``, ``invalid_request`` naming the field). A site the token is not
limited to is ``not_found``, and so is a run of one. ``{site}`` is an origin, URL-encoded
in the path (:mod:`a11y.origins`); it is compared as :func:`jobs.ids.site_of` writes it
into every run.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from quart import Response, request
from quart_trio import QuartTrio

from audit.diff import diff_items
from audit.problems.changes import compare_problems, lacks_problems
from jobs.blocking import in_thread
from jobs.ids import is_run_id
from jobs.store import NotFound
from jobs.store.sites import WrongSite, get_baseline, set_baseline, site_history
from jobs.system import Conflict

from ..origins import SITE_RULE, parse_origin
from .auth import authorize, current_principal, visible_run
from .evidence import whole_result
from .handlers import RequestLog, Service, invalid_request, read_json_body
from .jobs_api import _answer, _jobs, _no_run, _parse_query
from .replies import Refused, error_response, json_response
from .sites_schema import (
    BASELINE,
    BaselineBody,
    DiffCounts,
    DiffQuery,
    HistoryQuery,
    HistoryRun,
    ProblemDiff,
    RunDiff,
    SiteBaseline,
    SiteHistory,
)

_SITE_MESSAGE = f"{SITE_RULE}, URL-encoded in the path."


def register_sites_routes(app: QuartTrio, service: Service) -> None:
    """Add the diff and ``/sites`` routes to ``app``."""

    async def diff(run_id: str) -> Response:
        return await _answer(service, run_id, DiffQuery, _diff)

    async def baseline(site: str) -> Response:
        if request.method != "PUT":
            return await _site_answer(service, site, _get_baseline)
        line = RequestLog("sites.baseline")
        return line.done(await _site_answer(service, site, _put_baseline, scope="admin"))

    async def history(site: str) -> Response:
        return await _site_answer(service, site, _history)

    app.add_url_rule("/audits/<run_id>/diff", "audits_diff", diff, methods=["GET"])
    app.add_url_rule("/sites/<path:site>/baseline", "sites_baseline", baseline, methods=["GET", "PUT"])
    app.add_url_rule("/sites/<path:site>/history", "sites_history", history, methods=["GET"])


def _invalid(field: str, message: str) -> Refused:
    return Refused(400, "invalid_request", f"The request is invalid: {field}.",
                   [{"field": field, "message": message}])


def origin_of(raw: str) -> str:
    """The site a path names, as runs store it; ``invalid_request`` (field ``site``) unless
    it is an http(s) origin and nothing more."""
    try:
        return parse_origin(raw)
    except ValueError:
        raise _invalid("site", _SITE_MESSAGE) from None


async def _site_answer(service: Service, site: str, handler: Any, scope: str = "read") -> Response:
    """The shared steps of the ``/sites`` routes: token and ``scope``, site (one the token
    is not limited to is ``not_found``), then the handler, with the store's refusals turned
    into their answers."""
    try:
        principal = await authorize(service, scope)
        origin = origin_of(site)
        if not principal.sees(origin):
            raise Refused(404, "not_found", f"There is no site {origin} for this token.")
        return await handler(service, origin)
    except Refused as refusal:
        return refusal.response
    except Conflict as exc:
        reason = str(exc)
        return error_response(409, "conflict", f"{reason[:1].upper()}{reason[1:]}.")


async def _diff(service: Service, run_id: str, query: DiffQuery) -> Response:
    jobs = _jobs(service)
    run = await jobs.get(run_id)
    other_id = query.against
    if other_id == BASELINE:
        baseline = await in_thread(get_baseline, jobs.store, run.site)
        if baseline is None:
            raise Refused(404, "not_found", f"The site {run.site} has no baseline.")
        other_id = baseline.run_id
    try:
        other = await visible_run(jobs, current_principal(), other_id)
    except NotFound:
        raise _no_run(other_id) from None
    for compared in (run, other):
        if compared.status != "completed":
            raise Conflict(f"run {compared.id} is {compared.status}; only completed runs are compared")
    # One read of each run serves both comparisons: by finding and by problem.
    current, earlier = await whole_result(jobs, run.id), await whole_result(jobs, other.id)
    diff = diff_items(current.findings, earlier.findings)
    problems = None if lacks_problems(earlier) else ProblemDiff.of(compare_problems(current, earlier))
    body = RunDiff(run=run.id, against=other.id, counts=DiffCounts(**diff.counts()),
                   new=diff.new, fixed=diff.fixed, unchanged=diff.unchanged, problems=problems)
    return json_response(body.model_dump(mode="json"))


async def _get_baseline(service: Service, site: str) -> Response:
    baseline = await in_thread(get_baseline, _jobs(service).store, site)
    if baseline is None:
        raise Refused(404, "not_found", f"The site {site} has no baseline.")
    return json_response(SiteBaseline(site=site, run=baseline.run_id, set_at=baseline.set_at)
                         .model_dump(mode="json"))


async def _put_baseline(service: Service, site: str) -> Response:
    try:
        body = BaselineBody.model_validate(await read_json_body())
    except ValidationError as exc:
        raise invalid_request(exc) from None
    if not is_run_id(body.run):
        raise _invalid("run", "Must be a run id.")
    jobs = _jobs(service)
    try:
        await visible_run(jobs, current_principal(), body.run)  # another site's: as unknown
        baseline = await in_thread(set_baseline, jobs.store, site, body.run)
    except NotFound:
        raise _no_run(body.run) from None
    except WrongSite as exc:
        raise _invalid("run", f"The run is not of this site ({exc}).") from None
    return json_response(SiteBaseline(site=site, run=baseline.run_id, set_at=baseline.set_at)
                         .model_dump(mode="json"))


async def _history(service: Service, site: str) -> Response:
    query = _parse_query(HistoryQuery)
    runs = await in_thread(site_history, _jobs(service).store, site, limit=query.limit)
    body = SiteHistory(site=site, runs=[HistoryRun.of(run) for run in runs])
    return json_response(body.model_dump(mode="json"))
