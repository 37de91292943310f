"""network_: the requests a tab made, mocked responses (routes) and offline mode.

Routes are answered through the Fetch domain. While at least one route exists,
every tab (and every out-of-process iframe and worker below it) pauses all of
its requests; one helper task per target answers each paused request, either
with the newest matching route's response or by letting it continue. Every
path ends in a fulfil or a continue, so no request is ever left hanging.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator

from ..errors import ToolError
from ..models import MessageOutput, NetworkRequest, NoInput, RouteInfo, ToolInput, ToolOutput
from ..registry import tool
from .cdp_emulation import (
    NETWORK_OFFLINE_KEY as OFFLINE_KEY,  # tab.extras: session id -> offline applied
)
from .cdp_emulation import network_conditions

if TYPE_CHECKING:
    from cdpdriver import Batch, Session, Subscription
    from cdpdriver.page import ChildTarget

    from ..session import ToolSession
    from ..tab import RequestRecord, Tab


STATE_KEY = "network"
FETCH_KEY = "network.fetch"       # tab.extras: session id -> (Session, Subscription) being answered
CHILD_HOOK_KEY = "network.child_hook"
ANSWER_TIMEOUT = 10.0             # a paused request is answered within this, whatever happens
COMMAND_TIMEOUT = 10.0
CHILD_TYPES = ("iframe", "worker")

RESOURCE_TYPES = (
    "Document", "Stylesheet", "Image", "Media", "Font", "Script", "TextTrack", "XHR", "Fetch",
    "Prefetch", "EventSource", "WebSocket", "Manifest", "SignedExchange", "Ping",
    "CSPViolationReport", "Preflight", "FedCM", "Other",
)
ResourceType = Literal[
    "Document", "Stylesheet", "Image", "Media", "Font", "Script", "TextTrack", "XHR", "Fetch",
    "Prefetch", "EventSource", "WebSocket", "Manifest", "SignedExchange", "Ping",
    "CSPViolationReport", "Preflight", "FedCM", "Other",
]
_RESOURCE_BY_LOWER = {name.lower(): name for name in RESOURCE_TYPES}

PATTERN_HELP = "Glob over the whole URL (* matches anything), /regex/i, or a substring"

# -- URL patterns -----------------------------------------------------------------------

_SLASHED_REGEX = re.compile(r"^/(.+)/([imsx]*)$", re.S)
_REGEX_HINTS = ("^", "$", ".*", ".+", "\\", "(?", "|", "[^", "(")


def url_matcher(pattern: str) -> Callable[[str], bool]:
    """Compile an agent's URL pattern; a bad regex raises ValueError (an argument error)."""
    slashed = _SLASHED_REGEX.match(pattern)
    try:
        if slashed:
            flags = 0
            for letter in slashed.group(2):
                flags |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X}[letter]
            return re.compile(slashed.group(1), flags).search
        if any(hint in pattern for hint in _REGEX_HINTS):
            return re.compile(pattern).search
    except re.error as exc:
        raise ValueError(f"not a valid regular expression: {exc}") from None
    if "*" in pattern:
        glob = re.compile("".join(".*" if part == "*" else re.escape(part)
                                  for part in re.split(r"(\*)", re.sub(r"\*+", "*", pattern))))
        return lambda url: glob.fullmatch(url) is not None
    return lambda url: pattern in url


def _check_pattern(pattern: str) -> str:
    url_matcher(pattern)
    return pattern


# -- state ----------------------------------------------------------------------------------


@dataclass
class Route:
    pattern: str
    matches: Callable[[str], bool]
    status: int
    body: str
    content_type: str
    headers: dict[str, str]


@dataclass
class NetworkState:
    routes: list[Route] = field(default_factory=list)
    offline: bool = False
    hooked: bool = False

    def route_for(self, url: str) -> Route | None:
        """The most recently added route that matches wins."""
        for route in reversed(self.routes):
            if route.matches(url):
                return route
        return None


def network_state(session: ToolSession) -> NetworkState:
    """The routes and offline flag; the first use sets up every future tab (popups too)."""
    state = session.state(STATE_KEY, NetworkState)
    if not state.hooked:
        state.hooked = True

        def setup(tab: Tab, batch: Batch) -> None:
            _queue_new_tab(tab, state, batch)

        session.tab_setups.append(setup)
    return state


def _open_tabs(session: ToolSession) -> list[Tab]:
    return [tab for tab in session.tabs if not tab.page.is_closed]


# -- per-tab set-up: interception and offline ----------------------------------------------


def _queue_new_tab(tab: Tab, state: NetworkState, batch: Batch) -> None:
    """A new tab's share of :func:`_prepare_tab`, queued so it holds from its first request."""
    _hook_children(tab, state)
    if state.routes and _start_answering(tab, tab.session, state):
        batch.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})
    if state.offline:
        batch.send("Network.emulateNetworkConditions", network_conditions(tab, tab.session, True))
        tab.extras.setdefault(OFFLINE_KEY, {})[tab.session.session_id or ""] = True


def _hook_children(tab: Tab, state: NetworkState) -> None:
    if not tab.extras.get(CHILD_HOOK_KEY):
        tab.extras[CHILD_HOOK_KEY] = True

        async def on_child(child: ChildTarget) -> None:
            if child.type in CHILD_TYPES:
                await _apply(tab, child.session, state)

        tab.page.child_hooks.append(on_child)


async def _prepare_tab(tab: Tab, state: NetworkState) -> None:
    """Bring a tab (and its iframes and workers) in line with the routes and offline flag."""
    _hook_children(tab, state)
    await _apply(tab, tab.session, state, strict=True)
    for child in list(tab.page.children.values()):
        if child.type in CHILD_TYPES:
            await _apply(tab, child.session, state)


async def _apply(tab: Tab, target: Session, state: NetworkState, *, strict: bool = False) -> None:
    """Intercept or release one target and set its offline state; only the tab itself must succeed."""
    from cdpdriver import CDPError

    from ..session import log

    try:
        if state.routes:
            await _intercept(tab, target, state)
        else:
            await _release(tab, target)
        await _emulate_offline(tab, target, state.offline)
    except CDPError as exc:
        if strict:
            raise
        log.debug("network set-up of %s failed: %s", target, exc)


async def _emulate_offline(tab: Tab, target: Session, offline: bool) -> None:
    """Send the emulation only when it changes, so untouched tabs cost nothing."""
    applied: dict[str, bool] = tab.extras.setdefault(OFFLINE_KEY, {})
    key = target.session_id or ""
    if applied.get(key, False) == offline:
        return
    params = network_conditions(tab, target, offline)  # keeps cdp_emulate_network's throttle
    await target.send("Network.emulateNetworkConditions", params, timeout=COMMAND_TIMEOUT)
    applied[key] = offline


async def _intercept(tab: Tab, target: Session, state: NetworkState) -> None:
    """Start the answering task, then pause the target's requests (so none is missed)."""
    from cdpdriver import CDPError

    if not _start_answering(tab, target, state):
        return
    try:
        await target.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]}, timeout=COMMAND_TIMEOUT)
    except CDPError:
        await _release(tab, target)  # the enable may have taken effect: undo it before stopping
        raise


def _start_answering(tab: Tab, target: Session, state: NetworkState) -> bool:
    """Start the task that answers the target's paused requests; False if it runs already."""
    answering: dict[str, tuple[Session, Subscription]] = tab.extras.setdefault(FETCH_KEY, {})
    key = target.session_id or ""
    if key in answering:
        return False
    events = target.listen(["Fetch.requestPaused"], raw=True)
    answering[key] = (target, events)
    tab.page.browser.start_task(_answer_all, target, events, state)
    return True


async def _release(tab: Tab, target: Session) -> None:
    """Stop pausing the target's requests, then let its task answer what is still queued and end.

    Events for requests paused before ``Fetch.disable`` arrive before its reply, so closing
    the subscription afterwards drops none of them. If the target is alive but refuses the
    disable, the task keeps answering: a paused request must never be stranded.
    """
    from cdpdriver import TargetClosed

    answering: dict[str, tuple[Session, Subscription]] = tab.extras.get(FETCH_KEY, {})
    key = target.session_id or ""
    entry = answering.get(key)
    if entry is None:
        return
    try:
        await target.send("Fetch.disable", timeout=COMMAND_TIMEOUT)
    except TargetClosed:
        pass
    answering.pop(key, None)
    entry[1].close()


async def _release_all(tab: Tab) -> None:
    from cdpdriver import CDPError

    from ..session import log

    answering: dict[str, tuple[Session, Subscription]] = tab.extras.get(FETCH_KEY, {})
    for target, _ in list(answering.values()):
        try:
            await _release(tab, target)
        except CDPError as exc:
            log.warning("Fetch.disable on %s failed; its requests are still answered: %s", target, exc)


async def _answer_all(target: Session, events: Subscription, state: NetworkState) -> None:
    """One task per intercepted target; it ends when the target goes away or is released."""
    import trio

    with events:
        async with trio.open_nursery() as nursery:
            async for event in events:
                nursery.start_soon(_answer, target, event.params, state)


async def _answer(target: Session, params: dict[str, Any], state: NetworkState) -> None:
    """Fulfil from a route or continue; shielded so a cancelled helper never strands a request."""
    import trio

    from cdpdriver import CDPError

    from ..session import log

    request_id = params.get("requestId", "")
    request = params.get("request") or {}
    with trio.CancelScope(shield=True), trio.move_on_after(ANSWER_TIMEOUT):
        route = state.route_for(request.get("url", ""))
        if route is not None:
            try:
                await target.send("Fetch.fulfillRequest", _fulfilment(route, request_id, request),
                                  timeout=COMMAND_TIMEOUT)
                return
            except CDPError as exc:
                log.warning("could not fulfil %s from route %r: %s", request.get("url"), route.pattern, exc)
        try:
            await target.send("Fetch.continueRequest", {"requestId": request_id}, timeout=COMMAND_TIMEOUT)
        except CDPError as exc:  # the request was cancelled or the target closed meanwhile
            log.debug("could not continue %s: %s", request.get("url"), exc)


def _fulfilment(route: Route, request_id: str, request: dict[str, Any]) -> dict[str, Any]:
    """The mocked response: route headers win over the defaults; CORS is open for the caller."""
    request_headers = {k.lower(): v for k, v in (request.get("headers") or {}).items()}
    headers: dict[str, str] = {"Content-Type": route.content_type, "Cache-Control": "no-store"}
    origin = request_headers.get("origin")
    if origin:
        headers.update({
            "Access-Control-Allow-Origin": origin if origin != "null" else "*",
            "Access-Control-Allow-Credentials": "true",
            "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS",
            "Access-Control-Allow-Headers": request_headers.get("access-control-request-headers", "*"),
            "Access-Control-Expose-Headers": ", ".join(route.headers) or "*",
            "Vary": "Origin",
        })
    lowered = {k.lower() for k in route.headers}
    merged = [{"name": k, "value": v} for k, v in headers.items() if k.lower() not in lowered]
    merged += [{"name": k, "value": v} for k, v in route.headers.items()]
    status = route.status
    preflight = request.get("method") == "OPTIONS" and "access-control-request-method" in request_headers
    body = b"" if preflight else route.body.encode()
    if preflight:
        status = 204
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    reply: dict[str, Any] = {"requestId": request_id, "responseCode": status, "responseHeaders": merged,
                             "body": base64.b64encode(body).decode()}
    if phrase:
        reply["responsePhrase"] = phrase
    return reply


# -- network_get_requests / network_clear ---------------------------------------------------


class GetRequestsInput(ToolInput):
    url_pattern: str | None = Field(default=None, min_length=1)
    method: str | None = Field(default=None, min_length=1)
    resource_type: ResourceType | None = None
    clear: bool = False
    limit: int = Field(default=100, ge=0, le=5000)

    @field_validator("url_pattern")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        return _check_pattern(value) if value is not None else value

    @field_validator("resource_type", mode="before")
    @classmethod
    def _canonical_type(cls, value: Any) -> Any:
        return _RESOURCE_BY_LOWER.get(value.lower(), value) if isinstance(value, str) else value


class GetRequestsOutput(ToolOutput):
    requests: list[NetworkRequest] = Field(description="Matching requests, oldest first")
    count: int = Field(description="Requests returned")
    total_matched: int = Field(description="Requests that matched before the limit was applied")
    dropped: int = Field(description="Older requests the tab no longer keeps (0 when none)")


def _request_view(record: RequestRecord) -> NetworkRequest:
    return NetworkRequest(
        url=record.url, method=record.method, resource_type=record.resource_type, status=record.status,
        status_text=record.status_text, response_size=record.response_size, request_id=record.request_id,
        failed=record.failed, error_text=record.error_text,
    )


@tool("network_get_requests", GetRequestsInput, GetRequestsOutput, effect="deletes")
async def network_get_requests(session: ToolSession, args: GetRequestsInput) -> GetRequestsOutput:
    """Requests since the tab opened or was cleared, with request_id for cdp_get_response_body."""
    tab = await session.tab()
    matches = url_matcher(args.url_pattern) if args.url_pattern else None
    method = args.method.upper() if args.method else None
    chosen = [
        r for r in list(tab.requests.values())
        if (matches is None or matches(r.url))
        and (method is None or r.method.upper() == method)
        and (args.resource_type is None or r.resource_type == args.resource_type)
    ]
    shown = chosen[-args.limit:] if args.limit else chosen
    dropped = tab.requests.dropped
    if args.clear:
        tab.requests.clear()
    return GetRequestsOutput(requests=[_request_view(r) for r in shown], count=len(shown),
                             total_matched=len(chosen), dropped=dropped)


class ClearOutput(MessageOutput):
    cleared: int = Field(description="Requests removed from the buffer")


@tool("network_clear", NoInput, ClearOutput, effect="deletes")
async def network_clear(session: ToolSession, args: NoInput) -> ClearOutput:
    """Empty the request buffer."""
    tab = await session.tab()
    cleared = len(tab.requests)
    tab.requests.clear()
    return ClearOutput(message=f"cleared {cleared} requests", cleared=cleared)


# -- routes ---------------------------------------------------------------------------------


class RouteInput(ToolInput):
    pattern: str = Field(min_length=1)
    status: int = Field(default=200, ge=200, le=599)
    body: str = ""
    content_type: str = Field(default="application/json", min_length=1)
    headers: dict[str, str] = Field(default_factory=dict)

    _pattern = field_validator("pattern")(_check_pattern)

    @field_validator("headers")
    @classmethod
    def _header_text(cls, headers: dict[str, str]) -> dict[str, str]:
        for name, value in headers.items():
            if not re.fullmatch(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+", name):
                raise ValueError(f"{name!r} is not a valid header name")
            if "\r" in value or "\n" in value:
                raise ValueError(f"the value of {name} contains a line break")
        return headers

    @field_validator("content_type")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if "\r" in value or "\n" in value:
            raise ValueError("contains a line break")
        return value


class RouteOutput(MessageOutput):
    pattern: str


async def _sync_tabs(session: ToolSession, state: NetworkState) -> None:
    for tab in _open_tabs(session):
        if not state.routes:
            await _release_all(tab)
        await _prepare_tab(tab, state)


@tool("network_route", RouteInput, RouteOutput, effect="deletes", open_world=True)
async def network_route(session: ToolSession, args: RouteInput) -> RouteOutput:
    """Answer requests matching pattern with this response until network_unroute; the newest route
    wins."""
    state = network_state(session)
    state.routes = [r for r in state.routes if r.pattern != args.pattern]
    state.routes.append(Route(args.pattern, url_matcher(args.pattern), args.status, args.body,
                              args.content_type, dict(args.headers)))
    await _sync_tabs(session, state)
    return RouteOutput(message=f"requests matching {args.pattern!r} now get a mocked {args.status} "
                               f"({len(state.routes)} routes active)", pattern=args.pattern)


class UnrouteInput(ToolInput):
    pattern: str = Field(min_length=1)


@tool("network_unroute", UnrouteInput, MessageOutput, effect="sets")
async def network_unroute(session: ToolSession, args: UnrouteInput) -> MessageOutput:
    """Remove the route with this pattern."""
    state = network_state(session)
    remaining = [r for r in state.routes if r.pattern != args.pattern]
    if len(remaining) == len(state.routes):
        active = ", ".join(repr(r.pattern) for r in state.routes) or "none"
        raise ToolError("not_found", f"no route with pattern {args.pattern!r}; active routes: {active}")
    state.routes = remaining
    await _sync_tabs(session, state)
    return MessageOutput(message=f"route {args.pattern!r} removed ({len(remaining)} routes active)")


class ListRoutesOutput(ToolOutput):
    routes: list[RouteInfo] = Field(description="Active routes, oldest first (the newest matching one wins)")
    count: int


@tool("network_list_routes", NoInput, ListRoutesOutput, effect="reads")
async def network_list_routes(session: ToolSession, args: NoInput) -> ListRoutesOutput:
    """The active mock routes, oldest first."""
    routes = [RouteInfo(pattern=r.pattern, status=r.status, content_type=r.content_type)
              for r in network_state(session).routes]
    return ListRoutesOutput(routes=routes, count=len(routes))


# -- offline ----------------------------------------------------------------------------------


class OfflineInput(ToolInput):
    offline: bool


class OfflineOutput(MessageOutput):
    offline: bool = Field(description="The current state")


@tool("network_set_offline", OfflineInput, OfflineOutput, effect="sets")
async def network_set_offline(session: ToolSession, args: OfflineInput) -> OfflineOutput:
    """Take every tab offline or back online."""
    state = network_state(session)
    state.offline = args.offline
    await _sync_tabs(session, state)
    return OfflineOutput(message="the browser is offline" if args.offline else "the browser is online",
                         offline=args.offline)
