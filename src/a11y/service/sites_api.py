"""The sites API: what changed between runs (``/audits/{id}/diff``), the run each site is
compared against (``/sites/{site}/baseline``) and a site's runs over time
(``/sites/{site}/history``).

Conventions are the jobs API's (``jobs_api``): the token first, then the path, the query
string and the body, then the store; typed errors (``not_found``, ``conflict``,
``invalid_request`` naming the field). ``{site}`` is an origin, URL-encoded in the path;
it is compared as :func:`jobs.ids.site_of` writes it into every run.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError
from quart import Response, request
from quart_trio import QuartTrio

from audit.diff import diff_items
from jobs.blocking import in_thread
from jobs.ids import is_run_id, site_of
from jobs.store import NotFound
from jobs.store.sites import WrongSite, all_findings, get_baseline, set_baseline, site_history
from jobs.system import Conflict

from .handlers import (
    Refused,
    Service,
    error_response,
    invalid_request,
    json_response,
    read_json_body,
    require_token,
)
from .jobs_api import _answer, _jobs, _no_run, _parse_query
from .sites_schema import (
    BASELINE,
    SITE_PATTERN,
    BaselineBody,
    DiffCounts,
    DiffQuery,
    HistoryQuery,
    HistoryRun,
    RunDiff,
    SiteBaseline,
    SiteHistory,
)

_SITE_MESSAGE = "Must be an http(s) origin, scheme://host[:port], URL-encoded in the path."
# A proxy (or the router) may have merged the two slashes of a decoded "http://".
_MERGED_SLASHES = re.compile(r"^(https?):/*", re.IGNORECASE)
_SITE = re.compile(SITE_PATTERN[1:-1])


def register_sites_routes(app: QuartTrio, service: Service) -> None:
    """Add the diff and ``/sites`` routes to ``app``."""

    async def diff(run_id: str) -> Response:
        return await _answer(service, run_id, DiffQuery, _diff)

    async def baseline(site: str) -> Response:
        return await _site_answer(service, site, _put_baseline if request.method == "PUT" else _get_baseline)

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
    bad = _invalid("site", _SITE_MESSAGE)
    if not _SITE.fullmatch(raw):  # the document's pattern, applied as it states it
        raise bad
    text = _MERGED_SLASHES.sub(lambda m: f"{m.group(1)}://", raw)
    try:
        parts = urlsplit(text)
        site = site_of(text)
    except ValueError:
        raise bad from None
    if parts.path not in ("", "/") or parts.query or parts.fragment or "@" in parts.netloc:
        raise bad
    return site


async def _site_answer(service: Service, site: str, handler: Any) -> Response:
    """The shared steps of the ``/sites`` routes: token, site, then the handler, with the
    store's refusals turned into their answers."""
    try:
        require_token(service.config)
        return await handler(service, origin_of(site))
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
        other = await jobs.get(other_id)
    except NotFound:
        raise _no_run(other_id) from None
    for compared in (run, other):
        if compared.status != "completed":
            raise Conflict(f"run {compared.id} is {compared.status}; only completed runs are compared")
    diff = diff_items(
        await in_thread(all_findings, jobs.store, run.id),
        await in_thread(all_findings, jobs.store, other.id),
    )
    body = RunDiff(run=run.id, against=other.id, counts=DiffCounts(**diff.counts()),
                   new=diff.new, fixed=diff.fixed, unchanged=diff.unchanged)
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
    try:
        baseline = await in_thread(set_baseline, _jobs(service).store, site, body.run)
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
