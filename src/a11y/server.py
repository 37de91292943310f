"""``a11y serve``: the HTTP audit service (quart-trio on hypercorn, in-process, one nursery).

Shape of the process::

    trio.run
    └── nursery (serve_app)
        ├── BrowserSupervisor.run   one warm browser; relaunched whenever it dies
        └── hypercorn.trio.serve    POST /audit, GET /health, GET /openapi.json

Why one nursery: the browser, the HTTP server and every in-flight audit share one
lifetime, so a shutdown (SIGINT/SIGTERM or a test leaving ``running_service``) cancels the
audits, stops the server and kills the browser's process group, with nothing left behind.

Why a supervisor instead of launching per request: a Chromium start costs ~0.5-1 s, far more
than a small audit; every audit gets a fresh browser *context* instead (the engine's job), so
isolation does not need a fresh process. When the browser crashes the audits running on it
fail with ``browser_crashed`` and the next ones wait (bounded) for the relaunch.

Request handling order for ``POST /audit`` (cheapest rejection first, nothing is opened
before the request is known to be good): token -> content type -> size -> JSON -> model ->
server limits -> LLM configuration -> queue admission -> browser -> audit.
"""

from __future__ import annotations

import argparse
import hmac
import json
import logging
import math
import os
import signal
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import trio
from hypercorn.config import Config as HypercornConfig
from pydantic import ValidationError
from quart import Response, request
from quart_trio import QuartTrio
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge

from audit.engine import AuditFailed, EngineLimits, run_audit
from audit.llm.config import provider_configured
from audit.meta import package_version
from audit.models import (
    AuditRequest,
    AuditResult,
    BrowserInfo,
    HealthStatus,
    error_body,
    openapi_schema,
    request_errors,
    validate_against_limits,
)
from audit.spares import warm_up
from cdpdriver import (
    Browser,
    CDPError,
    CommandTimeout,
    ConnectionClosed,
    LaunchOptions,
    NavigationFailed,
    NavigationTimeout,
    connect,
    launch,
)

log = logging.getLogger("a11y.server")

MAX_BODY_BYTES = 64 * 1024
JSON_MIMETYPE = "application/json"

BrowserFactory = Callable[[], AbstractAsyncContextManager[Browser]]


# --------------------------------------------------------------------------- configuration


@dataclass
class ServiceConfig:
    """Everything the service needs, independent of argparse so tests can build it directly.

    ``browser_url`` attaches to a running browser (the shared test Chromium) instead of
    launching one; ``browser_factory`` overrides both (e.g. a factory that always fails, to
    test the unhealthy path). ``port`` 0 binds a free port; the bound URL is reported by
    ``serve_app``/``running_service``.
    """

    host: str = "127.0.0.1"
    port: int = 8080
    concurrency: int = 4
    max_pages: int = 500
    queue_size: int = 16
    token: str | None = None
    block_private_networks: bool = False
    navigation_timeout: float = 30.0
    audit_timeout: float = 300.0
    browser_url: str | None = None
    browser_factory: BrowserFactory | None = None
    launch_options: LaunchOptions | None = None
    #: How long an audit waits for the browser to be (re)started before giving up with 503.
    browser_wait_timeout: float = 30.0
    #: How long /health waits for a browser that is starting (not one that failed to start).
    health_wait_timeout: float = 5.0
    #: Extra time the outer guard gives the engine to honour its own audit timeout.
    audit_timeout_grace: float = 5.0
    #: Seconds in-flight requests get to finish at shutdown before they are cancelled.
    graceful_timeout: float = 3.0
    max_relaunch_backoff: float = 30.0
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)

    def __post_init__(self) -> None:
        problems = []
        if self.concurrency < 1:
            problems.append("--concurrency must be at least 1")
        if self.queue_size < 0:
            problems.append("--queue-size must be 0 or more")
        if self.max_pages < 1:
            problems.append("--max-pages must be at least 1")
        if self.navigation_timeout <= 0 or self.audit_timeout <= 0:
            problems.append("timeouts must be positive")
        if not 0 <= self.port <= 65535:
            problems.append("--port must be 0..65535")
        if problems:
            raise ValueError("; ".join(problems))

    @classmethod
    def from_args(cls, args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> ServiceConfig:
        """Build from ``a11y serve`` arguments; ``A11Y_API_TOKEN`` is the token when
        ``--token`` is not given (so the secret need not appear in ``ps`` output)."""
        env = os.environ if environ is None else environ
        return cls(
            host=args.host,
            port=args.port,
            concurrency=args.concurrency,
            max_pages=args.max_pages,
            queue_size=args.queue_size,
            token=args.token or env.get("A11Y_API_TOKEN") or None,
            block_private_networks=args.block_private_networks,
            navigation_timeout=args.navigation_timeout,
            audit_timeout=args.audit_timeout,
            environ=env,
        )

    def engine_limits(self, page_limiter: trio.CapacityLimiter | None = None) -> EngineLimits:
        """The engine's limits; ``page_limiter`` (one per service) bounds the pages open at
        once across all audits, ``concurrency`` those of one crawl."""
        return EngineLimits(
            navigation_timeout=self.navigation_timeout,
            audit_timeout=self.audit_timeout,
            concurrency=self.concurrency,
            block_private_networks=self.block_private_networks,
            page_limiter=page_limiter,
        )

    def open_browser(self) -> AbstractAsyncContextManager[Browser]:
        """A fresh browser connection: the factory, an attach to ``browser_url``, or a launch."""
        if self.browser_factory is not None:
            return self.browser_factory()
        if self.browser_url:
            return connect(self.browser_url)
        return launch(self.launch_options or LaunchOptions())


# --------------------------------------------------------------------------- browser supervisor


class BrowserUnavailable(Exception):
    """No connected browser within the wait bound; the message says why."""


class BrowserSupervisor:
    """Keeps one browser connected for the whole service and relaunches it when it dies.

    Consecutive launch failures back off exponentially (0.5 s doubling to a cap) so a missing
    binary does not spin the CPU; a browser that ran and then died is relaunched at once.
    """

    def __init__(self, open_browser: BrowserFactory, max_backoff: float = 30.0) -> None:
        self._open = open_browser
        self._max_backoff = max_backoff
        self.browser: Browser | None = None
        self.last_error: str | None = None
        self.launch_failures = 0
        self.launches = 0
        self._changed = trio.Event()
        self._stopping = trio.Event()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    @property
    def ready(self) -> Browser | None:
        browser = self.browser
        return browser if browser is not None and browser.is_connected else None

    def request_stop(self) -> None:
        """Ask ``run`` to close the browser and return (synchronous: callable in ``finally``)."""
        self._stopping.set()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Keep a browser until ``request_stop``; reports started at once, before the first
        launch, so the HTTP server comes up even when the browser cannot.

        The loop is shielded and ends only through ``request_stop``: cancelling a
        ``cdpdriver.connect`` while it is opening makes its shielded websocket close wait
        forever for a handshake its (cancelled) reader can no longer deliver. Leaving the
        ``async with`` normally closes the connection (or kills the launched browser) cleanly.
        """
        task_status.started()
        with trio.CancelScope(shield=True):
            while not self._stopping.is_set():
                try:
                    async with self._open() as browser:
                        self.launches += 1
                        self.launch_failures = 0
                        self.browser = browser
                        self.last_error = None
                        product = browser.version.product if browser.version else "?"
                        log.info("browser ready: %s (pid %s)", product, browser.pid)
                        warm_up(browser)
                        self._notify()
                        await _first_of(browser.connection.closed, self._stopping)
                        if not self._stopping.is_set():
                            self.last_error = "the browser connection closed; relaunching"
                            log.warning("browser connection closed (pid %s); relaunching", browser.pid)
                except Exception as exc:  # noqa: BLE001 - any launch problem is reported, then retried
                    self.launch_failures += 1
                    self.last_error = f"cannot start the browser: {exc}"
                    log.error("%s (attempt %d)", self.last_error, self.launch_failures)
                finally:
                    self.browser = None
                    self._notify()
                if self.launch_failures:
                    backoff = min(self._max_backoff, 0.5 * 2 ** (self.launch_failures - 1))
                    with trio.move_on_after(backoff):
                        await self._stopping.wait()

    async def wait_ready(self, timeout: float) -> Browser:
        """The connected browser, waiting up to ``timeout`` s for a (re)launch; gives up early
        when a launch attempt fails meanwhile (no point holding the request for the backoff)."""
        failures_at_start = self.launch_failures
        with trio.move_on_after(timeout):
            while True:
                browser = self.ready
                if browser is not None:
                    return browser
                if self.launch_failures > failures_at_start:
                    break
                await self._changed.wait()
        raise BrowserUnavailable(self.last_error or "the browser is still starting")

    async def health(self, wait: float) -> HealthStatus:
        """Healthy with the browser build, or unhealthy with the reason. A browser that is
        starting gets ``wait`` seconds; one whose last launch failed is reported at once."""
        with trio.move_on_after(wait):
            while self.ready is None and not self.launch_failures:
                await self._changed.wait()
        browser = self.ready
        if browser is None:
            return HealthStatus(
                status="unhealthy",
                browser=BrowserInfo(connected=False),
                reason=self.last_error or "the browser is still starting",
            )
        return HealthStatus(
            status="healthy",
            browser=BrowserInfo(
                connected=True, version=browser.version.product if browser.version else None
            ),
        )


async def _first_of(*events: trio.Event) -> None:
    """Return as soon as any of ``events`` is set."""
    async with trio.open_nursery() as nursery:

        async def wait(event: trio.Event) -> None:
            await event.wait()
            nursery.cancel_scope.cancel()

        for event in events:
            nursery.start_soon(wait, event)


# --------------------------------------------------------------------------- admission


class AuditGate:
    """At most ``concurrency`` audits run and ``queue_size`` wait; the rest are refused.

    Admission is decided synchronously on arrival (no await between the check and the
    increment), so the bound holds exactly under any interleaving.
    """

    def __init__(self, concurrency: int, queue_size: int) -> None:
        self.capacity = concurrency + queue_size
        self.limiter = trio.CapacityLimiter(concurrency)
        #: Pages being audited at once, over every running audit and crawl.
        self.pages = trio.CapacityLimiter(concurrency)
        self.admitted = 0
        self._mean_duration = 10.0  # seconds, smoothed; only feeds Retry-After

    @property
    def running(self) -> int:
        return self.limiter.borrowed_tokens

    @property
    def waiting(self) -> int:
        return self.admitted - self.running

    def try_admit(self) -> bool:
        if self.admitted >= self.capacity:
            return False
        self.admitted += 1
        return True

    def release(self) -> None:
        self.admitted -= 1

    def record_duration(self, seconds: float) -> None:
        self._mean_duration = 0.8 * self._mean_duration + 0.2 * seconds

    def retry_after(self) -> int:
        """Seconds until a slot is likely free: the queue ahead drained at the mean pace."""
        slots = self.limiter.total_tokens
        rounds = (self.waiting + slots) / slots
        return max(1, min(300, math.ceil(rounds * self._mean_duration)))


# --------------------------------------------------------------------------- the app


@dataclass
class Service:
    """Per-app state, reachable from handlers as ``app.extensions["a11y"]``."""

    config: ServiceConfig
    supervisor: BrowserSupervisor
    gate: AuditGate


def _json(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    response = Response(
        json.dumps(body, ensure_ascii=False, separators=(",", ":")),
        status=status,
        content_type="application/json",
    )
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def _error(
    status: int,
    code: str,
    message: str,
    details: list[dict[str, Any]] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    return _json(error_body(code, message, details), status, headers)


_HTTP_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def _snake(text: str) -> str:
    return "_".join("".join(ch if ch.isalnum() else " " for ch in text.lower()).split())


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


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _leaf(exc: BaseException) -> BaseException:
    """The lone non-cancellation exception inside (nested) groups, else ``exc`` itself."""
    while isinstance(exc, BaseExceptionGroup):
        leaves = [e for e in exc.exceptions if not isinstance(e, trio.Cancelled)]
        if len(leaves) != 1:
            return exc
        exc = leaves[0]
    return exc


def classify_failure(exc: BaseException) -> tuple[str, str, list[dict[str, Any]]]:
    """(code, message, details) of the 500 body for an exception out of the engine.

    The engine is expected to raise ``AuditFailed`` with the right code; driver errors that
    slip through are mapped here too, and anything else is ``audit_failed`` with a sentence
    (never a traceback: that goes to the log).
    """
    exc = _leaf(exc)
    if isinstance(exc, AuditTimeout):
        return "timeout", str(exc), []
    if isinstance(exc, AuditFailed):
        return exc.code, exc.message, list(exc.details or [])
    if isinstance(exc, ConnectionClosed):
        return "browser_crashed", f"The browser stopped during the audit: {exc}", []
    if isinstance(exc, NavigationFailed):
        return "navigation_failed", f"The page could not be loaded: {exc.error_text}.", [
            {"url": exc.url, "netError": exc.error_text}
        ]
    if isinstance(exc, NavigationTimeout | CommandTimeout):
        return "timeout", f"The audit timed out: {exc}.", []
    if isinstance(exc, CDPError):
        return "audit_failed", f"The browser reported an error during the audit: {exc}", []
    return "audit_failed", (
        f"The audit failed because of an internal error ({type(exc).__name__}); "
        "the server log has the details."
    ), []


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
    schema = openapi_schema()

    @app.get("/health")
    async def health() -> Response:
        status = await service.supervisor.health(config.health_wait_timeout)
        body = status.model_dump(mode="json", exclude_none=True)
        if status.browser is not None:
            body["browser"] = status.browser.model_dump(mode="json")
        return _json(body, 200 if status.status == "healthy" else 503)

    @app.get("/openapi.json")
    async def openapi() -> Response:
        return _json(schema)

    @app.post("/audit")
    async def audit() -> Response:
        return await _handle_audit(service)

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
        return _error(status, code, message, headers=headers)

    @app.errorhandler(Exception)
    async def unexpected(exc: Exception) -> Response:
        log.error("unhandled error on %s %s", request.method, request.path, exc_info=exc)
        return _error(500, "internal_error", "The server hit an unexpected error; the server log has the details.")

    return app


async def _handle_audit(service: Service) -> Response:
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
        return done(_error(
            401, "unauthorized", "A valid 'Authorization: Bearer <token>' header is required.",
            headers={"WWW-Authenticate": 'Bearer realm="a11y"'},
        ), note="code=unauthorized")
    if request.mimetype != JSON_MIMETYPE:
        got = request.mimetype or "none"
        return done(_error(
            400, "unsupported_media_type",
            f"The body must be sent as application/json (got {got}).",
        ), note="code=unsupported_media_type")
    too_large = _error(
        400, "payload_too_large", f"The body is larger than {MAX_BODY_BYTES // 1024} KiB."
    )
    if (request.content_length or 0) > MAX_BODY_BYTES:
        return done(too_large, note="code=payload_too_large")
    try:
        raw = await request.get_data(cache=False)  # capped at MAX_CONTENT_LENGTH while streaming
    except RequestEntityTooLarge:
        return done(too_large, note="code=payload_too_large")
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError) as exc:
        return done(_error(400, "invalid_json", f"The body is not valid JSON: {exc}."),
                    note="code=invalid_json")
    if isinstance(data, dict) and isinstance(data.get("url"), str):
        url = data["url"][:200]  # for the log line only
    try:
        req = validate_against_limits(AuditRequest.model_validate(data), config.max_pages)
    except ValidationError as exc:
        details = request_errors(exc)
        fields = ", ".join(d["field"] for d in details)
        return done(_error(400, "invalid_request", f"The request is invalid: {fields}.", details),
                    note="code=invalid_request")
    url = req.url
    if req.llm.enabled:
        reason = llm_missing_setting(req.llm.provider, config.environ)
        if reason:
            return done(_error(
                400, "llm_not_configured",
                f"LLM provider '{req.llm.provider}' is not configured on this server: {reason}.",
                [{"field": "llm.provider", "message": f"Not usable on this server: {reason}."}],
            ), note="code=llm_not_configured")

    gate = service.gate
    if not gate.try_admit():
        return done(_error(
            503, "overloaded",
            f"The server is busy ({gate.running} audits running, {gate.waiting} waiting); retry later.",
            headers={"Retry-After": str(gate.retry_after())},
        ), note="code=overloaded")
    try:
        async with gate.limiter:
            try:
                browser = await service.supervisor.wait_ready(config.browser_wait_timeout)
            except BrowserUnavailable as exc:
                return done(_error(
                    503, "browser_unavailable", f"No browser is available: {exc}.",
                    headers={"Retry-After": "5"},
                ), note="code=browser_unavailable")
            audit_started = time.monotonic()
            try:
                result = await _run_with_timeout(browser, req, config, gate.pages)
            except Exception as exc:  # noqa: BLE001 - every failure becomes a 500 body
                code, message, details = classify_failure(exc)
                if code == "audit_failed":
                    log.error("audit of %s failed", url, exc_info=exc)
                return done(_error(500, code, message, details), note=f"code={code}")
            except BaseException:  # cancelled (possibly inside a group): client gone or shutdown
                log.info("audit url=%s status=cancelled duration_ms=%d", url,
                         (time.monotonic() - started) * 1000)
                raise
            finally:
                gate.record_duration(time.monotonic() - audit_started)
    finally:
        gate.release()
    return done(
        _json(result.model_dump(mode="json")),
        pages=result.stats.total_pages,
        findings=result.stats.total_findings,
    )


class AuditTimeout(Exception):
    """The outer deadline fired: the engine did not honour its own audit timeout."""


async def _run_with_timeout(
    browser: Browser, req: AuditRequest, config: ServiceConfig, pages: trio.CapacityLimiter
) -> AuditResult:
    """``run_audit`` under a hard deadline: the engine's own ``audit_timeout`` plus a grace,
    so a stuck engine still cannot hold a slot forever."""
    with trio.move_on_after(config.audit_timeout + config.audit_timeout_grace):
        return await run_audit(browser, req, config.engine_limits(pages))
    raise AuditTimeout(f"The audit did not finish within {config.audit_timeout:g} s.")


# --------------------------------------------------------------------------- serving


@dataclass
class RunningService:
    """What ``serve_app`` reports once listening: where, and the objects behind it."""

    url: str
    urls: list[str]
    app: QuartTrio
    service: Service
    shutdown: trio.Event

    @property
    def supervisor(self) -> BrowserSupervisor:
        return self.service.supervisor


def hypercorn_config(config: ServiceConfig) -> HypercornConfig:
    """Hypercorn settings: the bind address, no access log (the audit handler logs one line
    per audit instead), errors through logging to stderr, and the shutdown grace period."""
    hc = HypercornConfig()
    host = f"[{config.host}]" if ":" in config.host and not config.host.startswith("[") else config.host
    hc.bind = [f"{host}:{config.port}"]
    hc.accesslog = None  # one line per audit is logged by the handler instead
    hc.errorlog = logging.getLogger("hypercorn.error")
    hc.graceful_timeout = config.graceful_timeout
    return hc


async def serve_app(
    config: ServiceConfig,
    *,
    shutdown: trio.Event | None = None,
    task_status: trio.TaskStatus[RunningService] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Run the supervisor and the HTTP server until ``shutdown`` is set (or cancelled).

    Use with ``nursery.start(serve_app, config)``: it returns a ``RunningService`` once the
    socket is bound (the browser may still be starting; /audit and /health wait for it).
    """
    from hypercorn.trio import serve

    app = create_app(config)
    service: Service = app.extensions["a11y"]
    stop = shutdown if shutdown is not None else trio.Event()
    http_done = trio.Event()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(service.supervisor.run)
        try:

            async def http(task_status: trio.TaskStatus[list[str]]) -> None:
                try:
                    await serve(app, hypercorn_config(config), shutdown_trigger=stop.wait,
                                task_status=task_status)
                finally:
                    http_done.set()

            urls: list[str] = await nursery.start(http)
            log.info("a11y %s listening on %s", package_version(), ", ".join(urls))
            task_status.started(RunningService(urls[0], list(urls), app, service, stop))
            await http_done.wait()  # hypercorn returns after its graceful period
        finally:
            service.supervisor.request_stop()  # the browser goes last, on every exit path


@asynccontextmanager
async def running_service(config: ServiceConfig) -> AsyncIterator[RunningService]:
    """The whole service in-process for the body of the block (tests, benchmarks)::

        async with running_service(ServiceConfig(port=0, browser_url=ws)) as svc:
            httpx.AsyncClient(base_url=svc.url)...
    """
    async with trio.open_nursery() as nursery:
        running: RunningService = await nursery.start(serve_app, config)
        try:
            yield running
        finally:
            running.shutdown.set()


async def _serve_until_signalled(config: ServiceConfig) -> None:
    shutdown = trio.Event()
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def watch() -> None:
                async for signum in signals:
                    log.info("received %s; shutting down", signal.Signals(signum).name)
                    shutdown.set()
                    return

            nursery.start_soon(watch)
            await serve_app(config, shutdown=shutdown)
            nursery.cancel_scope.cancel()


def run(args: argparse.Namespace) -> int:
    """Entry point of ``a11y serve``: returns the process exit code."""
    if not getattr(args, "verbose", False):
        # The engine logs its own summary per audit; the handler's line is the one we keep.
        logging.getLogger("audit").setLevel(logging.WARNING)
    try:
        config = ServiceConfig.from_args(args)
    except ValueError as exc:
        log.error("invalid options: %s", exc)
        return 2
    try:
        trio.run(_serve_until_signalled, config)
    except OSError as exc:
        log.error("cannot serve on %s:%s: %s", config.host, config.port, exc)
        return 1
    except KeyboardInterrupt:
        pass
    return 0
