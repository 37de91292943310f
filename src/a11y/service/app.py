"""The quart-trio app: its routes, and error handlers that answer every failure, on any
route, with the service's error body."""

from __future__ import annotations

import trio
from quart import Response, request
from quart_trio import QuartTrio
from werkzeug.exceptions import (
    HTTPException,
    MethodNotAllowed,
    RequestEntityTooLarge,
    RequestTimeout,
)

from .artifacts_api import register_artifact_routes
from .auth_api import register_auth_routes
from .capacity import Capacity, usable_cpus
from .config import ServiceConfig, log
from .dashboard import register_dashboard_routes
from .findings_api import register_findings_routes
from .gate import AuditGate
from .handlers import MAX_BODY_BYTES, Service, handle_audit
from .jobs_api import register_jobs_routes
from .outages import outage_response
from .problems_api import register_problem_routes
from .replies import error_response, json_response
from .served_document import served_openapi
from .sites_api import register_sites_routes
from .supervisor import BrowserSupervisor

#: How long an early answer waits for the rest of a body it did not need before it gives up
#: on the connection instead.
BODY_DRAIN_TIMEOUT = 2.0

_HTTP_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def _snake(text: str) -> str:
    return "_".join("".join(ch if ch.isalnum() else " " for ch in text.lower()).split())


async def _body_drained() -> bool:
    """True when the request's whole body has been received (read now if need be)."""
    if request.content_length == 0 or (request.content_length is None and "chunked" not in
                                       request.headers.get("Transfer-Encoding", "").lower()):
        return True
    with trio.move_on_after(BODY_DRAIN_TIMEOUT):
        try:
            await request.get_data(cache=False)  # at once when the handler read it already
        except (RequestEntityTooLarge, RequestTimeout):
            return False
        return True
    return False


def create_app(config: ServiceConfig) -> QuartTrio:
    """The quart-trio app with its routes, error handlers and (not yet running) supervisor.

    The supervisor is created here but run by ``serve_app``, so a test may also run it itself
    next to ``app.test_client()``.
    """
    # No static folder: Quart's default would serve ./static/ of the working directory, to
    # anyone, at /static/<path>; the dashboard's files are served by name (dashboard.py).
    app = QuartTrio("a11y.server", static_folder=None)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    service = Service(
        config=config,
        supervisor=BrowserSupervisor(config.open_browser, config.max_relaunch_backoff),
        gate=AuditGate(config.concurrency, config.queue_size),
    )
    app.extensions["a11y"] = service
    capacity = Capacity(config.concurrency, usable_cpus())
    schema = served_openapi(config.environ)

    @app.before_request
    async def read_your_writes() -> None:
        """Every request but ``/audit`` and ``/health`` sees the synchronous audits answered
        before it: their runs are stored just after their answers (``Jobs.write_behind``)."""
        if service.jobs is not None and request.path not in ("/audit", "/health"):
            await service.jobs.written()

    @app.get("/health")
    async def health() -> Response:
        status = await service.supervisor.health(config.health_wait_timeout)
        body = status.model_dump(mode="json", exclude_none=True)
        if status.browser is not None:
            body["browser"] = status.browser.model_dump(mode="json")
        body["capacity"] = capacity.as_json()
        if service.jobs is not None:
            states = await service.jobs.dependencies()
            body["dependencies"] = {"browser": "ok" if status.status == "healthy" else "unavailable", **states}
            if status.status == "healthy" and any(state != "ok" for state in states.values()):
                body["status"] = "degraded"  # audits answer; runs cannot be stored or queued
        return json_response(body, 503 if status.status == "unhealthy" else 200)

    @app.get("/openapi.json")
    async def openapi() -> Response:
        return json_response(schema)

    @app.post("/audit")
    async def audit() -> Response:
        return await handle_audit(service)

    register_jobs_routes(app, service)
    register_sites_routes(app, service)
    register_artifact_routes(app, service)
    register_problem_routes(app, service)
    register_findings_routes(app, service)
    register_dashboard_routes(app, service)
    register_auth_routes(app, service)

    @app.after_request
    async def settle_body(response: Response) -> Response:
        """A connection can carry the next request only once this request's body has
        arrived in full. An answer given before the body was read (a wrong method or path,
        content type or token, a body over the size limit) would otherwise leave the rest
        of it to be parsed as the next request, or leave both sides waiting. So the body is
        drained (a body within the limit, briefly), or the answer closes the connection."""
        if not await _body_drained():
            response.headers["Connection"] = "close"
        return response

    @app.errorhandler(HTTPException)
    async def http_error(exc: HTTPException) -> Response:
        status = exc.code or 500
        headers = {}
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            headers["Allow"] = ", ".join(exc.valid_methods)
        if status == 404:
            message = f"No such endpoint: {request.path}."
        elif status == 405:
            message = f"Method {request.method} is not allowed on {request.path}."
        else:
            message = exc.description or exc.name
        code = _HTTP_CODES.get(status) or _snake(exc.name or "error")
        return error_response(status, code, message, headers=headers)

    @app.errorhandler(Exception)
    async def unexpected(exc: Exception) -> Response:
        outage = outage_response(exc)
        if outage is not None:  # typed: the client can tell an outage from a bug, and retry
            log.warning("%s %s answered %d: %s", request.method, request.path, outage.status_code, exc)
            return outage
        log.error("unhandled error on %s %s", request.method, request.path, exc_info=exc)
        return error_response(500, "internal_error", "The server hit an unexpected error; the server log has the details.")

    return app
