"""The jobs API: audits that outlive the request (``/audits``), on the ``jobs.system.Jobs``
facade the service opens at start.

Every route answers with the service's error body and codes, plus ``not_found`` (404: no
such run, or a path that cannot name one) and ``conflict`` (409: the run's state forbids
it). The order of checks is the one of ``POST /audit``: the token first (a stranger learns
nothing else), then the path, the query string and the body, then the store. Bodies are
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

from audit.models import AuditResult
from audit.reports import render
from audit.reports.html import render_html
from jobs.ids import is_run_id
from jobs.models import JobRequest
from jobs.store import StoreFull, StoreUnavailable
from jobs.system import Conflict, Jobs, NotFound

from . import sse
from .config import log
from .evidence import report_evidence, with_screenshot_links
from .handlers import (
    Refused,
    RequestLog,
    Service,
    admit_request,
    error_response,
    invalid_request,
    json_response,
    require_token,
)
from .jobs_schema import (
    FINDINGS_PAGE,
    MAX_QUERY_INT,
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

Q = TypeVar("Q", bound=QueryModel)

#: Content type of each report format.
REPORT_TYPES = {
    "json": "application/json",
    "sarif": "application/sarif+json",
    "html": "text/html; charset=utf-8",
    "junit": "application/xml; charset=utf-8",
}
#: The lists of a result that are paginated (each by the same offset and limit).
_ITEM_LISTS = ("findings", "needsReview", "bestPractices")
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
            req = await admit_request(service.config, JobRequest, service.config.max_job_pages, line)
            run = await _jobs(service).submit(req)
        except Refused as refusal:
            return line.refused(refusal)
        links = _links(run.id)
        body = JobAccepted(id=run.id, status=run.status, links=links)
        return line.done(
            json_response(body.model_dump(mode="json"), 202, {"Location": links.self_}),
            note=f"id={run.id}",
        )

    def view(query: type[QueryModel] | None, handler: Handler) -> Callable[..., Any]:
        async def answer(run_id: str | None = None) -> Response:
            return await _answer(service, run_id, query, handler)

        return answer

    for endpoint, method, path, query, handler in _ROUTES:
        app.add_url_rule(path, endpoint, view(query, handler), methods=[method])


#: A route's own work, given the service, the run id (if any) and the parsed query.
Handler = Callable[[Service, Any, Any], Awaitable[Response]]


async def _answer(service: Service, run_id: str | None, query: type[Q] | None,
                  handler: Handler) -> Response:
    """The shared steps of every route but submit: token, run id, query string, then the
    handler, with the store's refusals turned into their answers."""
    try:
        require_token(service.config)
        if run_id is not None and not is_run_id(run_id):
            raise _no_run(run_id)
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
    runs = await _jobs(service).list(url=query.url, status=query.status, limit=query.limit)
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
    body = RunView.of(run, result).body()
    if result is not None and query.include == "screenshots":
        body = await with_screenshot_links(jobs, run_id, body)
    return json_response(body)


async def _cancel(service: Service, run_id: str, _: None) -> Response:
    run = await _jobs(service).cancel(run_id)
    return json_response(RunView.of(run).body())


async def _report(service: Service, run_id: str, query: ReportQuery) -> Response:
    jobs = _jobs(service)
    result = await whole_result(jobs, run_id)
    if query.format == "html":  # with the run's screenshots inline and its site's trend
        screenshots, history = await report_evidence(jobs, run_id, inline=True)
        text = render_html(result, screenshots, history, run_id=run_id)
    else:
        text = render(result, query.format, group=query.group)
    return Response(text, status=200, content_type=REPORT_TYPES[query.format])


async def whole_result(jobs: Jobs, run_id: str) -> AuditResult:
    """The completed run's whole result (every finding), read window by window."""
    whole = await jobs.result(run_id, offset=0, limit=FINDINGS_PAGE)
    offset = FINDINGS_PAGE
    while any(len(whole[name]) >= offset for name in _ITEM_LISTS):
        window = await jobs.result(run_id, offset=offset, limit=FINDINGS_PAGE)
        for name in _ITEM_LISTS:
            whole[name].extend(window[name])
        offset += FINDINGS_PAGE
    return AuditResult.model_validate(whole)


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
    except (StoreUnavailable, StoreFull) as exc:
        # The stream ends whole (a comment, then the end of the body): the client reconnects
        # with the last id it read, and is answered 503 store_unavailable until the store is back.
        log.warning("event stream of %s ended: %s", run_id, exc)
        yield sse.comment("the run store cannot be reached; reconnect with Last-Event-ID")
    finally:
        service.streams -= 1


#: The routes besides ``POST /audits``: endpoint, method, path, query model, handler.
_ROUTES: list[tuple[str, str, str, type[QueryModel] | None, Handler]] = [
    ("audits_list", "GET", "/audits", ListQuery, _list),
    ("audits_get", "GET", "/audits/<run_id>", ResultQuery, _get),
    ("audits_cancel", "DELETE", "/audits/<run_id>", None, _cancel),
    ("audits_report", "GET", "/audits/<run_id>/report", ReportQuery, _report),
    ("audits_events", "GET", "/audits/<run_id>/events", EventsQuery, _events),
]
