"""``POST /audit`` step by step, and the JSON bodies every route answers with.

Failures of the audit itself arrive as ``AuditFailed`` (the engine classifies them, once) and
are answered with their own code; anything else out of the engine is a bug, answered as
``audit_failed`` with a sentence, never a traceback (that goes to the log).
"""

from __future__ import annotations

import hmac
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import trio
from pydantic import ValidationError
from quart import Response, request
from werkzeug.exceptions import RequestEntityTooLarge

from audit.engine import run_audit
from audit.failures import AuditFailed
from audit.llm.config import provider_configured
from audit.models import (
    AuditRequest,
    AuditResult,
    error_body,
    request_errors,
    validate_against_limits,
)
from cdpdriver import Browser

from .body import InvalidJson, parse_json_body
from .config import ServiceConfig, log
from .gate import AuditGate
from .supervisor import BrowserSupervisor, BrowserUnavailable

MAX_BODY_BYTES = 64 * 1024
JSON_MIMETYPE = "application/json"


@dataclass
class Service:
    """Per-app state, reachable from handlers as ``app.extensions["a11y"]``."""

    config: ServiceConfig
    supervisor: BrowserSupervisor
    gate: AuditGate


def json_response(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    response = Response(
        json.dumps(body, ensure_ascii=False, separators=(",", ":")),
        status=status,
        content_type="application/json",
    )
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def error_response(
    status: int,
    code: str,
    message: str,
    details: list[dict[str, Any]] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    return json_response(error_body(code, message, details), status, headers)


def _authorized(header: str | None, token: str) -> bool:
    """``Authorization: Bearer <token>``, compared in constant time."""
    scheme, _, supplied = (header or "").strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(supplied.strip().encode(), token.encode())


def llm_missing_setting(provider: str, environ: Mapping[str, str]) -> str | None:
    """Why ``provider`` cannot be used with this server's environment (names the env var,
    never its value), or None when it can. Delegates to the LLM package so the service and
    the engine agree on keys and base-URL overrides."""
    ok, reason = provider_configured(provider, environ)
    return None if ok else reason


def _internal_error(exc: Exception) -> AuditFailed:
    """A bug, not a failure of the audited page: named by type only, the rest is logged."""
    return AuditFailed(
        "audit_failed",
        f"The audit failed because of an internal error ({type(exc).__name__}); "
        "the server log has the details.",
    )


async def handle_audit(service: Service) -> Response:
    """``POST /audit``, in the order of the package docstring; one log line per request."""
    config = service.config
    started = time.monotonic()
    url = "-"

    def done(response: Response, pages: int = 0, findings: int = 0, note: str = "") -> Response:
        log.info(
            "audit url=%s status=%d pages=%d findings=%d duration_ms=%d%s",
            "".join(ch if ch.isprintable() and ch != " " else "?" for ch in url),
            response.status_code, pages, findings,
            (time.monotonic() - started) * 1000, f" {note}" if note else "",
        )
        return response

    if config.token and not _authorized(request.headers.get("Authorization"), config.token):
        return done(error_response(
            401, "unauthorized", "A valid 'Authorization: Bearer <token>' header is required.",
            headers={"WWW-Authenticate": 'Bearer realm="a11y"'},
        ), note="code=unauthorized")
    if request.mimetype != JSON_MIMETYPE:
        got = request.mimetype or "none"
        return done(error_response(
            400, "unsupported_media_type",
            f"The body must be sent as application/json (got {got}).",
        ), note="code=unsupported_media_type")
    too_large = error_response(
        400, "payload_too_large", f"The body is larger than {MAX_BODY_BYTES // 1024} KiB."
    )
    if (request.content_length or 0) > MAX_BODY_BYTES:
        return done(too_large, note="code=payload_too_large")
    try:
        raw = await request.get_data(cache=False)  # capped at MAX_CONTENT_LENGTH while streaming
    except RequestEntityTooLarge:
        return done(too_large, note="code=payload_too_large")
    try:
        data = parse_json_body(raw)
    except InvalidJson as exc:
        return done(error_response(400, "invalid_json", f"The body is not valid JSON: {exc}."),
                    note="code=invalid_json")
    if isinstance(data, dict) and isinstance(data.get("url"), str):
        url = data["url"][:200]  # for the log line only
    try:
        req = validate_against_limits(AuditRequest.model_validate(data), config.max_pages)
    except ValidationError as exc:
        details = request_errors(exc)
        fields = ", ".join(d["field"] for d in details)
        return done(error_response(400, "invalid_request", f"The request is invalid: {fields}.", details),
                    note="code=invalid_request")
    url = req.url
    if req.llm.enabled:
        reason = llm_missing_setting(req.llm.provider, config.environ)
        if reason:
            return done(error_response(
                400, "llm_not_configured",
                f"LLM provider '{req.llm.provider}' is not configured on this server: {reason}.",
                [{"field": "llm.provider", "message": f"Not usable on this server: {reason}."}],
            ), note="code=llm_not_configured")

    gate = service.gate
    if not gate.try_admit():
        return done(error_response(
            503, "overloaded",
            f"The server is busy ({gate.running} audits running, {gate.waiting} waiting); retry later.",
            headers={"Retry-After": str(gate.retry_after())},
        ), note="code=overloaded")
    try:
        async with gate.limiter:
            try:
                browser = await service.supervisor.wait_ready(config.browser_wait_timeout)
            except BrowserUnavailable as exc:
                return done(error_response(
                    503, "browser_unavailable", f"No browser is available: {exc}.",
                    headers={"Retry-After": "5"},
                ), note="code=browser_unavailable")
            audit_started = time.monotonic()
            try:
                result = await _run_with_timeout(browser, req, config, gate.pages)
            except Exception as exc:  # noqa: BLE001 - every failure becomes a 500 body
                failure = exc if isinstance(exc, AuditFailed) else _internal_error(exc)
                if failure.code == "audit_failed":
                    log.error("audit of %s failed", url, exc_info=exc)
                return done(error_response(500, failure.code, failure.message, failure.details),
                            note=f"code={failure.code}")
            except BaseException:  # cancelled (possibly inside a group): client gone or shutdown
                log.info("audit url=%s status=cancelled duration_ms=%d", url,
                         (time.monotonic() - started) * 1000)
                raise
            finally:
                gate.record_duration(time.monotonic() - audit_started)
    finally:
        gate.release()
    return done(
        json_response(result.model_dump(mode="json")),
        pages=result.stats.total_pages,
        findings=result.stats.total_findings,
    )


async def _run_with_timeout(
    browser: Browser, req: AuditRequest, config: ServiceConfig, pages: trio.CapacityLimiter
) -> AuditResult:
    """``run_audit`` under a hard deadline: the engine's own ``audit_timeout`` plus a grace,
    so a stuck engine still cannot hold a slot forever (reported like the engine's own)."""
    with trio.move_on_after(config.audit_timeout + config.audit_timeout_grace):
        return await run_audit(browser, req, config.engine_limits(pages))
    raise AuditFailed("timeout", f"The audit did not finish within {config.audit_timeout:g} s.")
