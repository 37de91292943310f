"""wait_: block until the page reaches a condition, always with a deadline.

Conditions that live in the page (text, a JS predicate) are polled by one
page-side loop, so a wait costs one CDP round trip rather than one per poll;
when a navigation destroys the document mid-wait the loop is restarted in the
new document with the time that is left. Element states reuse the locator's
own in-page wait; URL and load waits follow the browser's navigation events.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator

from ..errors import ToolError
from ..models import ToolInput, ToolOutput, WaitTimeoutMs
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession
    from ..tab import Tab


ElementState = Literal["attached", "detached", "visible", "hidden"]
POLL_INTERVAL_MS = 50
_LONG_LIVED = {"EventSource", "WebSocket", "Ping", "Preflight"}


# -- outputs -----------------------------------------------------------------------------


class WaitOutput(ToolOutput):
    message: str = Field(description="What was waited for")
    elapsed_ms: int = Field(description="How long the wait took")


class WaitUrlOutput(WaitOutput):
    url: str = Field(description="The page URL when the wait ended")


class WaitFunctionOutput(WaitOutput):
    value: Any = Field(description="The truthy value the function returned (JSON; DOM nodes are described)")


def _elapsed(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


# -- the shared page-side poll ------------------------------------------------------------

# ``check`` returns {done, value?, reason?, code?, fatal?}; the loop ends when it is done,
# fatal (an error that waiting cannot fix), or the deadline passes.


async def poll_in_page(session: ToolSession, check: str, timeout_ms: int) -> dict[str, Any]:
    """Run ``check`` (JS function source) every 50 ms in the current frame until it is done.

    Returns the check's last result; ``timedOut`` is set when the deadline passed.
    """
    import trio

    from cdpdriver import ProtocolError
    from cdpdriver.scripts import load_script

    from .. import locate

    deadline = trio.current_time() + timeout_ms / 1000
    while True:
        remaining = max(0.0, deadline - trio.current_time())
        expression = f"({load_script('tools', 'poll_until')})({check}, {int(remaining * 1000)}, {POLL_INTERVAL_MS})"
        try:
            with trio.move_on_after(remaining + 2):
                result = await locate.evaluate(session, expression, timeout=remaining + 5)
                return result if isinstance(result, dict) else {"done": False, "timedOut": True}
            return {"done": False, "timedOut": True, "reason": "the page did not answer (a script is busy)"}
        except ProtocolError as exc:
            # The document went away mid-wait (navigation): poll again in the new one.
            if locate.context_lost(exc) and trio.current_time() < deadline:
                await trio.sleep(0.05)
                continue
            raise


def _fail(result: dict[str, Any], timeout_message: str) -> ToolError:
    code = result.get("code") or ("timeout" if result.get("timedOut") else "javascript_error")
    if result.get("fatal"):
        return ToolError(code, str(result.get("reason")))
    return ToolError(code, timeout_message)


# -- element states -------------------------------------------------------------------------


class SelectorWaitInput(ToolInput):
    selector: str = Field(min_length=1)
    state: ElementState = "visible"
    timeout_ms: int = WaitTimeoutMs


class StateWaitInput(ToolInput):
    selector: str = Field(min_length=1)
    state: ElementState
    timeout_ms: int = WaitTimeoutMs


async def _wait_element(session: ToolSession, selector: str, state: str, timeout_ms: int) -> WaitOutput:
    from .. import locate

    started = time.perf_counter()
    locator = {"kind": "css", "value": selector, "name": None}
    # find polls in the page and restarts in the new document after a navigation.
    await locate.find(session, locator, state=state, timeout_ms=timeout_ms, scroll=False)
    return WaitOutput(message=f"selector {selector!r} is {state}", elapsed_ms=_elapsed(started))


@tool("wait_for_selector", SelectorWaitInput, WaitOutput, effect="reads")
async def wait_for_selector(session: ToolSession, args: SelectorWaitInput) -> WaitOutput:
    """Wait until an element is visible (or in state)."""
    return await _wait_element(session, args.selector, args.state, args.timeout_ms)


@tool("wait_for_state", StateWaitInput, WaitOutput, effect="reads")
async def wait_for_state(session: ToolSession, args: StateWaitInput) -> WaitOutput:
    """Wait until an element is attached, detached, visible or hidden."""
    return await _wait_element(session, args.selector, args.state, args.timeout_ms)


# -- text -------------------------------------------------------------------------------------


class TextWaitInput(ToolInput):
    text: str = Field(min_length=1)
    selector: str | None = Field(default=None, min_length=1)
    timeout_ms: int = WaitTimeoutMs


def _text_check(text: str, selector: str | None) -> str:
    from cdpdriver.scripts import call_expression, load_script

    return "() => " + call_expression(load_script("tools", "text_present"), text, selector)


@tool("wait_for_text", TextWaitInput, WaitOutput, effect="reads")
async def wait_for_text(session: ToolSession, args: TextWaitInput) -> WaitOutput:
    """Wait until the visible text contains text."""
    started = time.perf_counter()
    result = await poll_in_page(session, _text_check(args.text, args.selector), args.timeout_ms)
    where = f" in {args.selector!r}" if args.selector else ""
    if result.get("done"):
        return WaitOutput(message=f"text {args.text!r} is present{where}", elapsed_ms=_elapsed(started))
    if result.get("code") == "element_not_found":
        raise ToolError("element_not_found", f"selector {args.selector!r} matched 0 elements within "
                        f"{args.timeout_ms} ms; call page_inspect to see the page's elements")
    seen = result.get("seen") or ""
    raise _fail(result, f"text {args.text!r} did not appear{where} within {args.timeout_ms} ms; "
                        f"the text there starts with {seen!r}")


# -- JavaScript predicate ------------------------------------------------------------------------


class FunctionWaitInput(ToolInput):
    function: str = Field(min_length=1)
    timeout_ms: int = WaitTimeoutMs


def _function_check(source: str) -> str:
    """The user's expression, spliced in as code (a page's CSP may forbid eval), then judged."""
    from cdpdriver.scripts import load_script

    body = source.strip().rstrip(";").strip()
    return f"async () => ({load_script('tools', 'truthy_result')})(await (\n{body}\n))"


@tool("wait_for_function", FunctionWaitInput, WaitFunctionOutput, effect="destroys", open_world=True)
async def wait_for_function(session: ToolSession, args: FunctionWaitInput) -> WaitFunctionOutput:
    """Wait until a JS expression is truthy; returns its value."""
    started = time.perf_counter()
    result = await poll_in_page(session, _function_check(args.function), args.timeout_ms)
    if result.get("done"):
        return WaitFunctionOutput(message="the function returned a truthy value",
                                  elapsed_ms=_elapsed(started), value=result.get("value"))
    raise _fail(result, f"the function was still falsy after {args.timeout_ms} ms "
                        f"(last value: {result.get('last', 'none')})")


# -- URL ---------------------------------------------------------------------------------------------


def url_matcher(pattern: str) -> Callable[[str], bool]:
    """``/regex/flags`` is a regular expression (searched); a pattern with ``*`` is a glob
    over the whole URL (``**`` any characters, ``*`` any except ``/``); anything else is a
    substring."""
    head, _, flags = pattern[1:].rpartition("/")
    if pattern.startswith("/") and head and set(flags) <= set("ims"):
        bits = 0
        for f in flags:
            bits |= {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}[f]
        regex = re.compile(head, bits)
        return lambda url: regex.search(url) is not None
    if "*" in pattern:
        parts = re.split(r"(\*\*|\*)", pattern)
        glob = "".join({"**": ".*", "*": "[^/]*"}.get(p, re.escape(p)) for p in parts)
        compiled = re.compile(glob)
        return lambda url: compiled.fullmatch(url) is not None
    return lambda url: pattern in url


class UrlWaitInput(ToolInput):
    pattern: str = Field(min_length=1)
    timeout_ms: int = WaitTimeoutMs

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            url_matcher(value)
        except re.error as exc:
            raise ValueError(f"bad regular expression: {exc}") from None
        return value


def _navigated_url(tab: Tab, method: str, params: dict[str, Any]) -> str | None:
    """The main frame's new URL from a navigation event, or None for other frames."""
    if method == "Page.navigatedWithinDocument":
        return params.get("url") if params.get("frameId") == tab.page.main_frame_id else None
    frame = params.get("frame") or {}
    if frame.get("parentId"):
        return None
    return str(frame.get("url", "")) + str(frame.get("urlFragment") or "")


@tool("wait_for_url", UrlWaitInput, WaitUrlOutput, effect="reads")
async def wait_for_url(session: ToolSession, args: UrlWaitInput) -> WaitUrlOutput:
    """Wait until the URL matches pattern."""
    import trio

    started = time.perf_counter()
    tab = await session.tab()
    matches = url_matcher(args.pattern)
    with tab.session.listen(["Page.frameNavigated", "Page.navigatedWithinDocument"], raw=True) as events:
        url = await tab.url()
        with trio.move_on_after(args.timeout_ms / 1000):
            while not matches(url):
                event = await events.receive()
                url = _navigated_url(tab, event.method, event.params) or url
            return WaitUrlOutput(message=f"the URL matches {args.pattern!r}", elapsed_ms=_elapsed(started), url=url)
    raise ToolError("timeout", f"the URL did not match {args.pattern!r} within {args.timeout_ms} ms; "
                               f"it is {url!r}")


# -- load state --------------------------------------------------------------------------------------


class LoadWaitInput(ToolInput):
    state: Literal["load", "domcontentloaded", "networkidle"]
    timeout_ms: int = WaitTimeoutMs


def _pending_requests(tab: Tab) -> list[str]:
    """Requests of the current document still waiting for a response, from the tab's own log.

    The driver counts in-flight requests only from the first networkidle wait on; this
    covers requests the page started before that.
    """
    records = list(tab.requests.values())
    documents = [r.started for r in records if r.resource_type == "Document"]
    since = max(documents) if documents else 0.0
    return [r.url for r in records
            if r.started >= since and r.status == 0 and not r.failed and r.finished is None
            and r.resource_type not in _LONG_LIVED]


@tool("wait_for_load", LoadWaitInput, WaitUrlOutput, effect="reads")
async def wait_for_load(session: ToolSession, args: LoadWaitInput) -> WaitUrlOutput:
    """Wait until the document reaches a load state."""
    import trio

    started = time.perf_counter()
    tab = await session.tab()
    deadline = trio.current_time() + args.timeout_ms / 1000
    while True:
        remaining = max(0.0, deadline - trio.current_time())
        await tab.page.wait_for_load_state(args.state, timeout=remaining)
        pending = _pending_requests(tab) if args.state == "networkidle" else []
        if not pending:
            break
        if trio.current_time() >= deadline:
            raise ToolError("timeout", f"the network was still busy after {args.timeout_ms} ms "
                                       f"({len(pending)} pending, e.g. {pending[0]})")
        await trio.sleep(0.05)
    url = await tab.url()
    return WaitUrlOutput(message=f"the page reached {args.state}", elapsed_ms=_elapsed(started), url=url)
