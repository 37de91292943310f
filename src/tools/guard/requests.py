"""The request-level guard: every request the browser makes is paused, judged and answered.

``Fetch.enable`` on a session of the *browser* target pauses the requests of every target
in the browser, including those no page session reaches: service workers and shared workers
(checked on this Chromium: a page session's ``Fetch`` misses both). Documents, redirects
(each hop is paused again), subresources, ``fetch``/XHR, beacons, popups, iframes
(out-of-process ones too), dedicated, shared and service workers and ``file:`` URLs all come
here; each is judged by :meth:`GuardConfig.url_verdict` and failed with ``BlockedByClient``
(a network error in the page, ``net::ERR_BLOCKED_BY_CLIENT`` for a navigation) or let
through. WebSockets never come here; :mod:`.egress` refuses their connections.

With ``--confirm-actions`` a document request that submits a form to another origin waits
for the confirmation of the call whose tab it is (:mod:`.confirm`): a POST navigation (its
``Origin`` header names the submitting page), or a GET one that the page announced as a
``formSubmissionGet`` (``Page.frameRequestedNavigation``, read from each tab's subscription
just before the decision: the browser sends it before the request, so it is always queued).

Every paused request ends in a continue or a fail, shielded from cancellation and bounded
in time; one session of the browser target serves the whole browser for the guard's life.
The rules apply to the whole browser this server drives (with ``--browser-url``, to the
contexts of other clients of that browser too, while the server is connected).
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

import trio

from cdpdriver import CDPError, Session

from .confirm import outside_a_call
from .egress import OriginProxy
from .policy import GuardConfig, Refusal, origin_of

if TYPE_CHECKING:
    from cdpdriver import Browser, Subscription

    from ..tab import Tab
    from .calls import CallGuard

log = logging.getLogger(__name__)

ANSWER_MARGIN = 10.0  # seconds past the confirmation timeout after which a request is failed anyway
COMMAND_TIMEOUT = 10.0
FORMS_KEPT = 64
REFUSALS_KEPT = 256
#: Chromium's proxy bypass rule that sends loopback through the proxy too.
BYPASS_NOTHING = "<-loopback>"


class GuardedSession(Protocol):
    guard: CallGuard | None

    def owns_frame(self, frame_id: str) -> bool: ...


class BrowserGuard:
    """The guard rails of one browser: request interception and the context proxy."""

    def __init__(self, config: GuardConfig, sessions: Callable[[], Sequence[GuardedSession]]) -> None:
        self.config = config
        self._sessions = sessions
        self.proxy: OriginProxy | None = None
        self.refused: deque[Refusal] = deque(maxlen=REFUSALS_KEPT)
        self._form_events: list[Subscription] = []
        self._forms: OrderedDict[tuple[str, str], None] = OrderedDict()

    def context_options(self) -> dict[str, str]:
        """What ``Target.createBrowserContext`` needs for a context guarded by the proxy."""
        if self.proxy is None:
            return {}
        return {"proxy_server": self.proxy.proxy_server, "proxy_bypass_list": BYPASS_NOTHING}

    async def run(self, browser: Browser, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Start the proxy and the interception, report ready, and serve until cancelled."""
        async with trio.open_nursery() as nursery:
            if self.config.origins_ruled:
                proxy = OriginProxy(rules=self.config)
                await nursery.start(proxy.serve)
                self.proxy = proxy
            if self.config.intercepts:
                reply = await browser.session.send("Target.attachToBrowserTarget", timeout=COMMAND_TIMEOUT)
                session = Session(browser.connection, reply["sessionId"])
                events = session.listen(["Fetch.requestPaused"], raw=True)
                await session.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]}, timeout=COMMAND_TIMEOUT)
                nursery.start_soon(self._serve, session, events)
            task_status.started()

    def watch_forms(self, tab: Tab) -> None:
        """Note the form submissions ``tab`` announces (``Page.frameRequestedNavigation``)."""
        if self.config.confirm_actions:
            self._form_events.append(tab.session.listen(["Page.frameRequestedNavigation"], raw=True))

    async def _serve(self, session: Session, events: Subscription) -> None:
        with events:
            async with trio.open_nursery() as nursery:
                async for event in events:
                    nursery.start_soon(self._answer, session, event.params)

    async def _answer(self, session: Session, params: dict[str, Any]) -> None:
        request_id = params.get("requestId", "")
        url = str((params.get("request") or {}).get("url", ""))
        with trio.CancelScope(shield=True), trio.move_on_after(self.config.confirm_timeout + ANSWER_MARGIN) as late:
            refusal = self.config.url_verdict(url)
            if refusal is not None:
                self._record(refusal, params)
                log.info("refused a request: %s", refusal.message)
            elif self.config.confirm_actions and params.get("resourceType") == "Document":
                refusal = await self._confirm_form(params)
            await self._reply(session, request_id, url, refusal is None)
        if late.cancelled_caught:
            with trio.CancelScope(shield=True), trio.move_on_after(COMMAND_TIMEOUT):
                await self._reply(session, request_id, url, False)

    async def _reply(self, session: Session, request_id: str, url: str, allowed: bool) -> None:
        try:
            if allowed:
                await session.send("Fetch.continueRequest", {"requestId": request_id}, timeout=COMMAND_TIMEOUT)
            else:
                await session.send("Fetch.failRequest", {"requestId": request_id, "errorReason": "BlockedByClient"},
                                   timeout=COMMAND_TIMEOUT)
        except CDPError as exc:  # the request was cancelled or its target closed meanwhile
            log.debug("could not answer the paused request for %s: %s", origin_of(url), exc)

    def _record(self, refusal: Refusal, params: dict[str, Any]) -> None:
        self.refused.append(refusal)
        owner = self._owner(str(params.get("frameId") or ""))
        if owner is not None and owner.guard is not None:
            owner.guard.note_refusal(refusal, document=params.get("resourceType") == "Document")

    def _owner(self, frame_id: str) -> GuardedSession | None:
        sessions = list(self._sessions())
        return next((s for s in sessions if frame_id and s.owns_frame(frame_id)), None)

    # -- form submissions to other origins -------------------------------------------------

    async def _confirm_form(self, params: dict[str, Any]) -> Refusal | None:
        request = params.get("request") or {}
        url = str(request.get("url", ""))
        source = self._submitted_from(params, request, url)
        if source is None or source == origin_of(url):
            return None
        owner = self._owner(str(params.get("frameId") or ""))
        confirmations = owner.guard.confirmations if owner is not None and owner.guard is not None else None
        if confirmations is None:
            confirmations = outside_a_call()
        target = origin_of(url)
        refused = await confirmations.confirm(
            "form", target, f"Submit a form of {source} to {target} ({request.get('method', 'GET')} {url[:200]})?")
        if refused is None:
            return None
        refusal = Refusal(url, target, "--confirm-actions", refused.message)
        self.refused.append(refusal)
        return refusal

    def _submitted_from(self, params: dict[str, Any], request: dict[str, Any], url: str) -> str | None:
        """The origin a form submission came from ("unknown" when unsaid); None for no submission."""
        headers = {str(k).lower(): str(v) for k, v in (request.get("headers") or {}).items()}
        referrer = origin_of(headers["referer"]) if headers.get("referer") else "an unknown origin"
        if str(request.get("method", "GET")).upper() != "GET":
            origin = headers.get("origin")
            return origin if origin and origin != "null" else referrer
        self._drain_forms()
        key = (str(params.get("frameId") or ""), _without_fragment(url))
        if key in self._forms:
            del self._forms[key]
            return referrer
        return None

    def _drain_forms(self) -> None:
        """Take every announced navigation the tabs' subscriptions hold, keeping form ones."""
        for events in list(self._form_events):
            while True:
                try:
                    event = events.receive_nowait()
                except trio.WouldBlock:
                    break
                except (trio.EndOfChannel, trio.ClosedResourceError):
                    self._form_events.remove(events)
                    break
                if str(event.params.get("reason", "")).startswith("formSubmission"):
                    key = (str(event.params.get("frameId", "")), _without_fragment(str(event.params.get("url", ""))))
                    self._forms[key] = None
                    while len(self._forms) > FORMS_KEPT:
                        self._forms.popitem(last=False)


def _without_fragment(url: str) -> str:
    try:
        return urlsplit(url)._replace(fragment="").geturl()
    except ValueError:
        return url
