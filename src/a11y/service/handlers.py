"""``POST /audit`` step by step, the admission steps every request with a body shares, and
the one log line of a request (the JSON bodies every route answers with are :mod:`.replies`).

Failures of the audit itself arrive as ``AuditFailed`` (the engine classifies them, once) and
are answered with their own code; anything else out of the engine is a bug, answered as
``audit_failed`` with a sentence, never a traceback (that goes to the log).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

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
    request_errors,
    validate_against_limits,
)
from audit.screenshots import RunScreenshots
from audit.urls import without_credentials
from cdpdriver import Browser

from .auth import STATE_CHANGING, Principal, authorize, principal_name, require_site
from .body import InvalidJson, parse_json_body
from .config import ServiceConfig, log
from .gate import AuditGate
from .receive_pump import answered
from .replies import Refused, error_response, json_response
from .supervisor import BrowserSupervisor, BrowserUnavailable

if TYPE_CHECKING:
    from jobs.system import Jobs

MAX_BODY_BYTES = 64 * 1024
JSON_MIMETYPE = "application/json"
RequestModel = TypeVar("RequestModel", bound=AuditRequest)


@dataclass
class Service:
    """Per-app state, reachable from handlers as ``app.extensions["a11y"]``.

    ``jobs`` is set while ``serve_app`` runs (the store and queue live in its nursery);
    ``stopping`` is set when the service begins to shut down, so long-lived responses
    (event streams) end instead of holding the shutdown for the whole grace period.
    """

    config: ServiceConfig
    supervisor: BrowserSupervisor
    gate: AuditGate
    jobs: Jobs | None = None
    stopping: trio.Event = field(default_factory=trio.Event)
    #: Event streams open now (each holds one request task until it ends).
    streams: int = 0
    #: The store is known to hold API tokens, so auth is on (:mod:`.auth`); never unset.
    tokens_seen: bool = False


class RequestLog:
    """The one log line of a request (``<action> url=… status=… …``), written by ``done``.
    ``url`` is shown without credentials and only once the body named one; a request that
    changes something also names its token (``token=<name>``, never the value; ``-`` when
    none was known)."""

    def __init__(self, action: str) -> None:
        self.action = action
        self.started = time.monotonic()
        self.url = "-"

    def saw_url(self, url: str) -> None:
        self.url = without_credentials(url)[:200]

    def done(self, response: Response, pages: int = 0, findings: int = 0, note: str = "") -> Response:
        who = f" token={principal_name()}" if request.method in STATE_CHANGING else ""
        log.info(
            "%s url=%s status=%d pages=%d findings=%d duration_ms=%d%s%s",
            self.action,
            "".join(ch if ch.isprintable() and ch != " " else "?" for ch in self.url),
            response.status_code, pages, findings,
            (time.monotonic() - self.started) * 1000, who, f" {note}" if note else "",
        )
        return response

    def refused(self, refusal: Refused) -> Response:
        return self.done(refusal.response, note=f"code={refusal.code}")


def llm_missing_setting(provider: str, environ: Mapping[str, str]) -> str | None:
    """Why ``provider`` cannot be used with this server's environment (names the env var,
    never its value), or None when it can. Delegates to the LLM package so the service and
    the engine agree on keys and base-URL overrides."""
    ok, reason = provider_configured(provider, environ)
    return None if ok else reason


async def admit_request(
    service: Service, model: type[RequestModel], max_pages: int, line: RequestLog
) -> tuple[RequestModel, Principal]:
    """The validated body of a request that starts an audit, and who asked, in the order of
    the package docstring (token and scope ``submit`` -> content type -> size -> JSON ->
    model -> server limits -> the token's sites -> LLM configuration), cheapest rejection
    first and nothing opened before the request is known to be good. Raises
    :class:`Refused` with the answer otherwise."""
    config = service.config
    principal = await authorize(service, "submit")
    data = await read_json_body()
    if isinstance(data, dict) and isinstance(data.get("url"), str):
        line.saw_url(data["url"])
    try:
        req = validate_against_limits(model.model_validate(data), max_pages)
    except ValidationError as exc:
        raise invalid_request(exc) from None
    line.saw_url(req.url)
    require_site(principal, req.url)
    if req.llm.enabled:
        reason = llm_missing_setting(req.llm.provider, config.environ)
        if reason:
            raise Refused(
                400, "llm_not_configured",
                f"LLM provider '{req.llm.provider}' is not configured on this server: {reason}.",
                [{"field": "llm.provider", "message": f"Not usable on this server: {reason}."}],
            )
    return req, principal


async def read_json_body() -> Any:
    """The request's JSON body (content type -> size -> JSON, cheapest rejection first), for
    every route that takes one; raises :class:`Refused` with the answer otherwise."""
    if request.mimetype != JSON_MIMETYPE:
        got = request.mimetype or "none"
        raise Refused(400, "unsupported_media_type",
                      f"The body must be sent as application/json (got {got}).")
    too_large = Refused(400, "payload_too_large",
                        f"The body is larger than {MAX_BODY_BYTES // 1024} KiB.")
    if (request.content_length or 0) > MAX_BODY_BYTES:
        raise too_large
    try:
        raw = await request.get_data(cache=False)  # capped at MAX_CONTENT_LENGTH while streaming
    except RequestEntityTooLarge:
        raise too_large from None
    try:
        return parse_json_body(raw)
    except InvalidJson as exc:
        raise Refused(400, "invalid_json", f"The body is not valid JSON: {exc}.") from None


def invalid_request(exc: ValidationError) -> Refused:
    """``invalid_request`` naming every bad field (of a body or of a query string)."""
    details = request_errors(exc)
    fields = ", ".join(d["field"] for d in details)
    return Refused(400, "invalid_request", f"The request is invalid: {fields}.", details)


def _internal_error(exc: Exception) -> AuditFailed:
    """A bug, not a failure of the audited page: named by type only, the rest is logged."""
    return AuditFailed(
        "audit_failed",
        f"The audit failed because of an internal error ({type(exc).__name__}); "
        "the server log has the details.",
    )


def _screenshots_asked() -> bool:
    """``POST /audit?include=screenshots``: the stored run keeps a picture of every finding.
    Off otherwise, because the synchronous endpoint is the one CI waits on, and the pictures
    cost a tenth of a second or more per page (jobs, the dashboard and the CLI's HTML
    report always take them)."""
    return any("screenshots" in value.split(",") for value in request.args.getlist("include"))


async def handle_audit(service: Service) -> Response:
    """``POST /audit``, in the order of the package docstring; one log line per request.
    A finished audit (completed or failed) is also stored as a run of kind ``sync``, after
    its slot is released and behind its answer (``Jobs.write_behind``); the response does
    not depend on the store."""
    config = service.config
    line = RequestLog("audit")
    try:
        req, principal = await admit_request(service, AuditRequest, config.max_pages, line)
    except Refused as refusal:
        return line.refused(refusal)

    gate = service.gate
    if not gate.try_admit():
        return line.done(error_response(
            503, "overloaded",
            f"The server is busy ({gate.running} audits running, {gate.waiting} waiting); retry later.",
            headers={"Retry-After": str(gate.retry_after())},
        ), note="code=overloaded")
    outcome: AuditResult | AuditFailed
    shots = RunScreenshots() if service.jobs is not None and _screenshots_asked() else None
    try:
        async with gate.limiter:
            try:
                browser = await service.supervisor.wait_ready(config.browser_wait_timeout)
            except BrowserUnavailable as exc:
                return line.done(error_response(
                    503, "browser_unavailable", f"No browser is available: {exc}.",
                    headers={"Retry-After": "5"},
                ), note="code=browser_unavailable")
            audit_started = time.monotonic()
            try:
                outcome = await _run_with_timeout(browser, req, config, gate.pages, shots)
            except Exception as exc:  # noqa: BLE001 - every failure becomes a 500 body
                outcome = exc if isinstance(exc, AuditFailed) else _internal_error(exc)
                if outcome.code == "audit_failed":
                    log.error("audit of %s failed", line.url, exc_info=exc)
            except BaseException:  # cancelled (possibly inside a group): client gone or shutdown
                log.info("audit url=%s status=cancelled duration_ms=%d", line.url,
                         (time.monotonic() - line.started) * 1000)
                raise
            finally:
                gate.record_duration(time.monotonic() - audit_started)
    finally:
        gate.release()
    if service.jobs is not None:  # stored after the answer; later requests wait for it
        record = partial(_record_sync, service.jobs, req, outcome, shots, principal.owner)
        service.jobs.write_behind(record, answered())
    if isinstance(outcome, AuditFailed):
        return line.done(error_response(500, outcome.code, outcome.message, outcome.details),
                         note=f"code={outcome.code}")
    return line.done(
        json_response(outcome.model_dump(mode="json")),
        pages=outcome.stats.total_pages,
        findings=outcome.stats.total_findings,
    )


async def _record_sync(jobs: Jobs, req: AuditRequest, outcome: AuditResult | AuditFailed,
                       shots: RunScreenshots | None, submitted_by: str | None) -> None:
    """Store the synchronous audit as a run, completed or failed (with its screenshots),
    owned by the token that asked; a store that fails is logged, never answered."""
    try:
        await jobs.record_sync(req, outcome, shots, submitted_by=submitted_by)
    except Exception as exc:  # noqa: BLE001 - the audit's answer must not depend on the store
        log.error("could not store the audit of %s: %s", without_credentials(req.url), exc,
                  exc_info=exc)


async def _run_with_timeout(
    browser: Browser, req: AuditRequest, config: ServiceConfig, pages: trio.CapacityLimiter,
    shots: RunScreenshots | None = None,
) -> AuditResult:
    """``run_audit`` under a hard deadline: the engine's own ``audit_timeout`` plus a grace,
    so a stuck engine still cannot hold a slot forever (reported like the engine's own)."""
    with trio.move_on_after(config.audit_timeout + config.audit_timeout_grace):
        return await run_audit(browser, req, replace(config.engine_limits(pages), screenshots=shots))
    raise AuditFailed("timeout", f"The audit did not finish within {config.audit_timeout:g} s.")
