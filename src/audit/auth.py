"""Logged-in audits: the credentials of a request's ``auth`` put into its browser context
before its first page loads, and sent to the audited site only.

What happens, in order:

1. Once per browser context (the first tab of a request, or of a crawl's shared context,
   does it while the others wait): the cookies (``auth.cookies``, then those of
   ``auth.storageState`` that belong to the audited host) set in that context through
   ``Storage.setCookies``; the audited origin's localStorage of ``storageState`` written from
   a hidden tab that never touches the network (:mod:`audit.storage_state`); then the
   ``login`` steps, run in a tab of their own in the same context, at the audit's first
   viewport and with its headers, by the front end's :class:`LoginRunner` (the tools'
   ``batch_execute`` dispatcher, which the engine may not import, so it is handed in). A
   failure is remembered: every later page of that context fails the same way, untried.
2. Once per tab: the extra ``headers``, added by request interception to the requests of
   the audited origin only (``Network.setExtraHTTPHeaders`` would send them to every origin
   a page loads from, third parties included; and a header added to a request is not carried
   over its redirects); with ``--block-private-networks`` the guard's own interception adds
   them. And the audited origin's sessionStorage of ``storageState``, filled when the tab
   first shows that origin.

The audited site is the start URL's origin (scheme, host, port) for headers and web storage,
its host for cookies (the browser's own rule): entries of a storage state for other sites
are left out, and ``auth.cookies`` for another host are refused when the request is checked.

No value of ``auth`` is ever shown: a failure's message names the step, tool and field, and
what the browser or a tool said is cut of every value the request holds
(:func:`~audit.request_options.redact`); nothing here logs a value.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

import trio

from cdpdriver import Browser, CDPError, Page
from cdpdriver.protocol import fetch

from .failures import AuditFailed
from .models import AuditRequest
from .phases import PhaseClock
from .request_options import AuthOptions, LoginStep, Viewport, domain_matches, redact, site_origin
from .storage_state import (
    cookie_param,
    session_storage_on_arrival,
    set_context_cookies,
    write_local_storage,
)
from .tabs import Tab, TabSource
from .viewports import apply_viewport

log = logging.getLogger(__name__)

LOGIN_FAILED = "login_failed"


class LoginStepFailed(Exception):
    """Raised by a :class:`LoginRunner`: step ``index`` (0-based) running ``tool`` failed
    with the tool's error ``code`` and ``message`` (redacted by the engine, not the runner)."""

    def __init__(self, index: int, tool: str, code: str, message: str) -> None:
        super().__init__(f"login step {index} ({tool}) failed: {code}")
        self.index = index
        self.tool = tool
        self.code = code
        self.message = message


class LoginRunner(Protocol):
    """Runs login steps in ``page`` (a tab of the audit's context, not yet navigated) the
    way ``batch_execute`` runs its steps, stopping at the first that fails; raises
    :class:`LoginStepFailed` for it. Front ends provide one (``a11y.login_runner``)."""

    async def __call__(self, page: Page, steps: Sequence[LoginStep]) -> None: ...


def require_login_runner(request: AuditRequest, runner: LoginRunner | None) -> None:
    """Refuse, before any page is opened, a request with login steps that nothing can run."""
    if request.auth is not None and request.auth.login and runner is None:
        raise AuditFailed(
            "login_unsupported",
            "auth.login needs a front end that runs tool steps (the service, the CLI and "
            "the worker do); this one does not.",
            [{"field": "auth.login"}],
        )


# --------------------------------------------------------------------------- per tab


@dataclass(frozen=True)
class SiteHeaders:
    """Extra headers for the requests of one origin, added while they are paused."""

    origin: str
    headers: Mapping[str, str]

    def for_request(self, url: str, sent: Mapping[str, str]) -> list[fetch.HeaderEntry] | None:
        """The headers to send instead of ``sent`` (ours replacing any of the same name),
        or None to send the request unchanged: any request not to the audited origin."""
        if site_origin(url) != self.origin:
            return None
        ours = {name.lower() for name in self.headers}
        kept = [fetch.HeaderEntry(name=k, value=v) for k, v in sent.items() if k.lower() not in ours]
        return kept + [fetch.HeaderEntry(name=k, value=v) for k, v in self.headers.items()]

    async def attach(self, page: Page, nursery: trio.Nursery) -> None:
        """Pause the page's requests to the origin (only those) and add the headers; the
        handlers run in ``nursery``, which must outlive the page's use."""
        events = page.session.listen(["Fetch.requestPaused"], raw=True)
        nursery.start_soon(self._serve, page, events)
        try:
            pattern = fetch.RequestPattern(url_pattern=self.origin + "/*")
            await page.session.execute(fetch.enable(patterns=[pattern]))
        except BaseException:
            events.close()
            raise

    async def _serve(self, page: Page, events: Any) -> None:
        with events:
            async with trio.open_nursery() as nursery:
                async for event in events:
                    nursery.start_soon(self._continue, page, event.params)

    async def _continue(self, page: Page, params: dict[str, Any]) -> None:
        request = params.get("request") or {}
        headers = self.for_request(str(request.get("url", "")), request.get("headers") or {})
        request_id = fetch.RequestId(params.get("requestId", ""))
        try:
            await page.session.execute(fetch.continue_request(request_id, headers=headers))
        except CDPError as exc:  # the request or its tab went away meanwhile
            log.debug("could not continue a request with the auth headers: %s", type(exc).__name__)


_PREPARED_TABS: weakref.WeakSet[Page] = weakref.WeakSet()


async def _prepare_tab(tab: Tab, auth: AuthOptions, origin: str) -> None:
    if auth.headers:
        headers = SiteHeaders(origin, dict(auth.headers))
        if tab.guard is not None:  # the guard pauses every request already: it adds them
            tab.guard.add_headers = headers.for_request
        else:
            assert tab.nursery is not None, "Tab.attach() gives every tab a nursery"
            await headers.attach(tab.page, tab.nursery)
    for entry in auth.storage_state.origins if auth.storage_state is not None else []:
        if entry.origin == origin and entry.session_storage:
            await session_storage_on_arrival(tab.page, origin, dict(entry.session_storage))


# --------------------------------------------------------------------------- per context


@dataclass
class _ContextSetup:
    lock: trio.Lock = field(default_factory=trio.Lock)
    done: bool = False
    failure: AuditFailed | None = None


#: Per source of tabs (one per request, or per run's shared context in a worker).
_CONTEXTS: weakref.WeakKeyDictionary[TabSource, _ContextSetup] = weakref.WeakKeyDictionary()


async def prepare_auth(
    browser: Browser,
    source: TabSource,
    tab: Tab,
    request: AuditRequest,
    runner: LoginRunner | None,
    viewport: Viewport | None,
    clock: PhaseClock,
) -> None:
    """Before ``tab`` loads its page: the context's credentials and login (once per
    ``source``) and the tab's own headers and sessionStorage (once per tab), timed as the
    ``auth`` phase. Raises :class:`AuditFailed` ``login_failed`` when they cannot be put in
    place."""
    if request.auth is not None:
        with clock.phase("auth"):
            await _prepare(browser, source, tab, request, request.auth, runner, viewport)


async def _prepare(
    browser: Browser,
    source: TabSource,
    tab: Tab,
    request: AuditRequest,
    auth: AuthOptions,
    runner: LoginRunner | None,
    viewport: Viewport | None,
) -> None:
    require_login_runner(request, runner)
    origin = site_origin(request.url) or ""
    setup = _CONTEXTS.setdefault(source, _ContextSetup())
    async with setup.lock:
        if setup.failure is not None:
            raise AuditFailed(setup.failure.code, setup.failure.message, setup.failure.details)
        if not setup.done:
            try:
                await _prepare_context(browser, tab, request, auth, origin, runner, viewport)
            except AuditFailed as failure:
                setup.failure = failure
                raise
            setup.done = True
    if tab.page not in _PREPARED_TABS:
        await _prepare_tab(tab, auth, origin)
        _PREPARED_TABS.add(tab.page)


async def _prepare_context(
    browser: Browser,
    tab: Tab,
    request: AuditRequest,
    auth: AuthOptions,
    origin: str,
    runner: LoginRunner | None,
    viewport: Viewport | None,
) -> None:
    context_id = tab.page.context_id
    secrets = auth.secrets()
    host = (urlsplit(request.url).hostname or "").lower()
    cookies = list(auth.cookies)
    if auth.storage_state is not None:
        cookies += [c for c in auth.storage_state.cookies if _for_host(c.domain, c.url, host)]
    try:
        await set_context_cookies(browser, context_id, [cookie_param(c.as_dict(origin + "/")) for c in cookies])
    except CDPError as exc:
        raise _failed("The browser refused the auth cookies", exc, secrets, {"field": "auth.cookies"}) from None
    for entry in auth.storage_state.origins if auth.storage_state is not None else []:
        if entry.origin == origin and entry.local_storage:
            try:
                await write_local_storage(browser, context_id, origin, dict(entry.local_storage))
            except CDPError as exc:
                detail = {"field": "auth.storageState.origins"}
                raise _failed(f"Could not restore the localStorage of {origin}", exc, secrets, detail) from None
    if auth.login and runner is not None:
        await _log_in(browser, context_id, auth, origin, runner, viewport, secrets)


def _for_host(domain: str | None, url: str | None, host: str) -> bool:
    """Whether a storage state's cookie belongs to the audited host."""
    if domain:
        return domain_matches(host, domain)
    if url:
        return (urlsplit(url).hostname or "").lower() == host
    return True


async def _log_in(
    browser: Browser,
    context_id: str | None,
    auth: AuthOptions,
    origin: str,
    runner: LoginRunner,
    viewport: Viewport | None,
    secrets: list[str],
) -> None:
    """The login steps in a tab of their own in the audit's context, closed afterwards."""
    failed: LoginStepFailed | None = None
    with trio.CancelScope(shield=True):  # a tab the browser made is always recorded for closing
        page = await browser.new_page(context_id=context_id)
    try:
        async with trio.open_nursery() as nursery:
            if auth.headers:
                await SiteHeaders(origin, dict(auth.headers)).attach(page, nursery)
            if viewport is not None:
                await apply_viewport(page, viewport)
            try:
                await runner(page, auth.login)
            except LoginStepFailed as exc:
                failed = exc
            nursery.cancel_scope.cancel()
    finally:
        await page.close()
    if failed is not None:
        message = redact(f"Login step {failed.index} ({failed.tool}) failed: {failed.message}", secrets)
        raise AuditFailed(LOGIN_FAILED, message, [{
            "field": f"auth.login[{failed.index}]", "step": failed.index, "tool": failed.tool,
            "code": failed.code,
        }])
    log.debug("logged in with %d step(s)", len(auth.login))


def _failed(what: str, exc: CDPError, secrets: list[str], detail: dict[str, Any]) -> AuditFailed:
    return AuditFailed(LOGIN_FAILED, redact(f"{what}: {exc}", secrets), [detail])
