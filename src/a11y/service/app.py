"""The quart-trio app: its routes, and error handlers that answer every failure, on any
route, with the service's error body."""

from __future__ import annotations

from quart import Response, request
from quart_trio import QuartTrio
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from audit.models import openapi_schema

from .config import ServiceConfig, log
from .gate import AuditGate
from .handlers import MAX_BODY_BYTES, Service, error_response, handle_audit, json_response
from .jobs_api import register_jobs_routes
from .jobs_schema import JOBS_OPENAPI
from .supervisor import BrowserSupervisor

_HTTP_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def _snake(text: str) -> str:
    return "_".join("".join(ch if ch.isalnum() else " " for ch in text.lower()).split())


def create_app(config: ServiceConfig) -> QuartTrio:
    """The quart-trio app with its routes, error handlers and (not yet running) supervisor.

    The supervisor is created here but run by ``serve_app``, so a test may also run it itself
    next to ``app.test_client()``.
    """
    app = QuartTrio("a11y.server")
    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    service = Service(
        config=config,
        supervisor=BrowserSupervisor(config.open_browser, config.max_relaunch_backoff),
        gate=AuditGate(config.concurrency, config.queue_size),
    )
    app.extensions["a11y"] = service
    schema = openapi_schema(JOBS_OPENAPI)

    @app.get("/health")
    async def health() -> Response:
        status = await service.supervisor.health(config.health_wait_timeout)
        body = status.model_dump(mode="json", exclude_none=True)
        if status.browser is not None:
            body["browser"] = status.browser.model_dump(mode="json")
        return json_response(body, 200 if status.status == "healthy" else 503)

    @app.get("/openapi.json")
    async def openapi() -> Response:
        return json_response(schema)

    @app.post("/audit")
    async def audit() -> Response:
        return await handle_audit(service)

    register_jobs_routes(app, service)

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
        log.error("unhandled error on %s %s", request.method, request.path, exc_info=exc)
        return error_response(500, "internal_error", "The server hit an unexpected error; the server log has the details.")

    return app
