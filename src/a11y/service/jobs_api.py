"""The jobs API: audits that outlive the request (``/audits``), on the ``jobs.system.Jobs``
facade the service opens at start.

Every route answers with the service's error body and codes, plus ``not_found`` (404: no
such run, a run the token may not see, or a path that cannot name one), ``forbidden`` (403:
the token's scope is too low) and ``conflict`` (409: the run's state forbids it). The order
of checks is the one of ``POST /audit``: the token and its scope first (a stranger learns
nothing else, :mod:`.auth`), then the path, the query string and the body, then the store.
Bodies are
admitted by the very function ``POST /audit`` uses (``handlers.admit_request``), query
strings and answers go through the models of ``jobs_schema``, which also make the OpenAPI
document.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import trio
from pydantic import ValidationError
from quart import Response, request
from quart_trio import QuartTrio

from audit.reports import render
from audit.reports.html import render_html
from jobs.blocking import in_thread
from jobs.ids import is_run_id
from jobs.models import JobRequest
from jobs.store import StoreFull, StoreUnavailable
from jobs.store.purge import purge_run
from jobs.system import Conflict, Jobs, NotFound

from . import sse
from .auth import authorize, current_principal, require_scope, visible_run
from .config import log
from .evidence import baseline_changes, report_evidence, whole_result, with_screenshot_links
from .finding_listing import ListingAsk, list_findings
from .handlers import RequestLog, Service, admit_request, invalid_request
from .jobs_schema import (
    MAX_QUERY_INT,
    DeleteQuery,
    EventsQuery,
    JobAccepted,
    JobLinks,
    ListQuery,
    QueryModel,
    ReportQuery,
    ResultQuery,
    RunList,
    RunView,
)
from .replies import Refused, error_response, json_response

Q = TypeVar("Q", bound=QueryModel)

#: Content type of each report format.
REPORT_TYPES = {
    "json": "application/json",
    "sarif": "application/sarif+json",
    "html": "text/html; charset=utf-8",
    "junit": "application/xml; charset=utf-8",
}
#: A finished run whose event log has no ``run.done`` (yet) is followed this much longer.
_FINISHED_GRACE = 2.0
#: Longest wait between two looks at shutdown while a stream is quiet.
_STREAM_TICK = 1.0


def register_jobs_routes(app: QuartTrio, service: Service) -> None:
    """Add the ``/audits`` routes to ``app``."""

    @app.post("/audits")
    async def submit() -> Response:
        line = RequestLog("audits.submit")
        try:
            req, principal = await admit_request(service, JobRequest, service.config.max_job_pages, line)
            run = await _jobs(service).submit(req, submitted_by=principal.owner)
        except Refused as refusal:
            return line.refused(refusal)
        links = _links(run.id)
        body = JobAccepted(id=run.id, status=run.status, links=links)
        return line.done(
            json_response(body.model_dump(mode="json"), 202, {"Location": links.self_}),
            note=f"id={run.id}",
        )

    @app.delete("/audits/<run_id>", endpoint="audits_delete")
    async def delete(run_id: str) -> Response:
        purge = request.args.get("purge") == "true"
        line = RequestLog("audits.purge" if purge else "audits.cancel")
        response = await _answer(service, run_id, DeleteQuery, _delete, scope="submit")
        return line.done(response, note=f"id={run_id}" if is_run_id(run_id) else "")

    def view(query: type[QueryModel] | None, handler: Handler) -> Callable[..., Any]:
        async def answer(run_id: str | None = None) -> Response:
            return await _answer(service, run_id, query, handler)

        return answer

    for endpoint, method, path, query, handler in _ROUTES:
        app.add_url_rule(path, endpoint, view(query, handler), methods=[method])


#: A route's own work, given the service, the run id (if any) and the parsed query.
Handler = Callable[[Service, Any, Any], Awaitable[Response]]


async def _answer(service: Service, run_id: str | None, query: type[Q] | None,
                  handler: Handler, scope: str = "read") -> Response:
    """The shared steps of every route but submit: token and ``scope``, run id (a run the
    token may not see is answered as one that does not exist), query string, then the
    handler, with the store's refusals turned into their answers."""
    try:
        principal = await authorize(service, scope)
        if run_id is not None:
            if not is_run_id(run_id):
                raise _no_run(run_id)
            if principal.sites is not None:
                await visible_run(_jobs(service), principal, run_id)
        args = None if query is None else _parse_query(query)
        return await handler(service, run_id, args)
    except Refused as refusal:
        return refusal.response
    except NotFound:
        return _no_run(run_id or "").response
    except Conflict as exc:
        reason = str(exc)
        return error_response(409, "conflict", f"{reason[:1].upper()}{reason[1:]}.")


def _jobs(service: Service) -> Jobs:
    if service.jobs is None:  # only an app built without serve_app (unit tests of routes)
        raise Refused(503, "unavailable", "The run store is not open.")
    return service.jobs


def _no_run(run_id: str) -> Refused:
    shown = run_id if is_run_id(run_id) else "with this id"
    return Refused(404, "not_found", f"There is no run {shown}.")


def _parse_query(model: type[Q]) -> Q:
    try:
        return model.model_validate(request.args.to_dict())
    except ValidationError as exc:
        raise invalid_request(exc) from None


def _links(run_id: str) -> JobLinks:
    base = f"/audits/{run_id}"
    return JobLinks(self_=base, events=f"{base}/events", report=f"{base}/report")


async def _list(service: Service, _: None, query: ListQuery) -> Response:
    sites = current_principal().sites
    runs = await _jobs(service).list(url=query.url, status=query.status, limit=query.limit,
                                     sites=None if sites is None else sorted(sites))
    return json_response(RunList(runs=[RunView.of(run) for run in runs]).body())


async def _get(service: Service, run_id: str, query: ResultQuery) -> Response:
    jobs = _jobs(service)
    run = await jobs.get(run_id)
    result = None
    if run.status == "completed":
        result = await jobs.result(run_id, offset=query.offset, limit=query.limit)
        result["findingsPage"] = {
            "offset": query.offset, "limit": query.limit, "total": result["stats"]["totalFindings"],
        }
        if query.group == "problems":  # the same window of the problem-ordered listing
            ask = ListingAsk(grouped=True, offset=query.offset, limit=query.limit)
            listing = await list_findings(jobs, run_id, ask)
            result["findings"] = listing.findings
            result["findingGroups"] = [group.ref().model_dump(mode="json") for group in listing.groups]
    body = RunView.of(run, result).body()
    if result is not None and query.include == "screenshots":
        body = await with_screenshot_links(jobs, run_id, body)
    return json_response(body)


async def _delete(service: Service, run_id: str, query: DeleteQuery) -> Response:
    """Cancel the run (``submit``: only a run the token started; ``admin`` any), or with
    ``?purge=true`` (``admin``) delete the finished run and everything it owns, answering
    with the run as it was. A run the token may not cancel is answered as one that does not
    exist."""
    principal = current_principal()
    jobs = _jobs(service)
    if query.purge:
        require_scope(principal, "admin")
        run = await in_thread(purge_run, jobs.store, run_id)
        return json_response(RunView.of(run).body())
    if not principal.may_cancel(await jobs.get(run_id)):
        raise NotFound(f"no run {run_id}")
    run = await jobs.cancel(run_id)
    return json_response(RunView.of(run).body())


async def _report(service: Service, run_id: str, query: ReportQuery) -> Response:
    jobs = _jobs(service)
    result = await whole_result(jobs, run_id)
    if query.format == "html":  # with the run's screenshots inline, its site's trend and baseline
        screenshots, history = await report_evidence(jobs, run_id, inline=True)
        changes = await baseline_changes(jobs, run_id, result)
        text = render_html(result, screenshots, history, run_id=run_id, changes=changes)
    else:
        text = render(result, query.format, group=query.group)
    return Response(text, status=200, content_type=REPORT_TYPES[query.format])


async def _events(service: Service, run_id: str, query: EventsQuery) -> Response:
    header = request.headers.get("Last-Event-ID")
    last_id = query.last_event_id or 0
    if header is not None:
        text = header.strip()
        if not (text.isascii() and text.isdigit() and int(text) <= MAX_QUERY_INT):
            raise Refused(400, "invalid_request", "The request is invalid: Last-Event-ID.", [{
                "field": "Last-Event-ID",
                "message": f"Expected an event id: a whole number from 0 to {MAX_QUERY_INT}.",
            }])
        last_id = int(text)
    await _jobs(service).get(run_id)  # 404 before the stream starts
    response = Response(_stream(service, run_id, last_id), status=200,
                        content_type=sse.CONTENT_TYPE, headers=sse.HEADERS)
    response.timeout = None  # the stream ends by itself (see _stream), not by Quart's timeout
    return response


async def _stream(service: Service, run_id: str, last_id: int) -> AsyncIterator[bytes]:
    """The run's events after ``last_id``, then new ones as they are written, until
    ``run.done`` (or, for a run that finished without one, a short grace after it finished),
    a shutdown of the service, or the client going away (the request's task is cancelled
    then). A comment goes out after every ``sse_heartbeat`` s of silence."""
    jobs = _jobs(service)
    heartbeat = service.config.sse_heartbeat
    service.streams += 1
    try:
        quiet_since = trio.current_time()
        finished_at: float | None = None
        while not service.stopping.is_set():
            batch = await jobs.events_after(run_id, last_id, limit=100)
            for item in batch:
                yield sse.event(item.id, item.type, item.data)
                last_id = item.id
                if item.type == "run.done":
                    return
            now = trio.current_time()
            if batch:
                quiet_since = now
                continue
            if now - quiet_since >= heartbeat:
                yield sse.comment("heartbeat")
                quiet_since = now
            if finished_at is None and (await jobs.get(run_id)).finished:
                finished_at = now
            if finished_at is not None and now - finished_at >= _FINISHED_GRACE:
                return
            wait = min(_STREAM_TICK, heartbeat - (now - quiet_since))
            await jobs.wait_for_event(run_id, last_id, timeout=max(wait, 0.01))
    except NotFound:
        return  # the run was deleted (DELETE ?purge=true) while it was followed
    except (StoreUnavailable, StoreFull) as exc:
        # The stream ends whole (a comment, then the end of the body): the client reconnects
        # with the last id it read, and is answered 503 store_unavailable until the store is back.
        log.warning("event stream of %s ended: %s", run_id, exc)
        yield sse.comment("the run store cannot be reached; reconnect with Last-Event-ID")
    finally:
        service.streams -= 1


#: The routes besides ``POST /audits`` and ``DELETE /audits/{id}``: endpoint, method, path, query model, handler.
_ROUTES: list[tuple[str, str, str, type[QueryModel] | None, Handler]] = [
    ("audits_list", "GET", "/audits", ListQuery, _list),
    ("audits_get", "GET", "/audits/<run_id>", ResultQuery, _get),
    ("audits_report", "GET", "/audits/<run_id>/report", ReportQuery, _report),
    ("audits_events", "GET", "/audits/<run_id>/events", EventsQuery, _events),
]
