"""Find elements for tools, wait until they can be acted on, and act with real input.

``find`` runs ``js/locate_element.js`` in the current frame; it polls inside the
page, so one call covers the whole wait. When navigation destroys the frame's
context mid-wait, the call is retried with the time that is left.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import trio

from cdpdriver import (
    CDPError,
    JavaScriptError,
    ProtocolError,
    Session,
    call_function_remote,
    evaluate_remote,
    single_exception,
)
from cdpdriver.protocol.runtime import RemoteObject
from cdpdriver.scripts import call_expression, load_script

from . import inputs
from .errors import ToolError, stale_reference
from .refs import is_ref, refs_of
from .session import ToolSession
from .tab import FrameRef, Tab

LOCATE_FUNCTION = load_script("tools", "locate_element")
_CONTEXT_LOST = ("Execution context was destroyed", "Cannot find context", "Inspected target navigated",
                 "context with specified id", "Promise was collected")


def context_lost(exc: BaseException) -> bool:
    """True when a command failed only because its document was replaced (a navigation)."""
    return any(marker in str(exc) for marker in _CONTEXT_LOST)


#: Resolves once the page presented a frame (two animation frames), or after 200 ms in a
#: page that draws none (hidden, or one whose requestAnimationFrame never calls back).
_PRESENTED_JS = (
    "new Promise(done => { setTimeout(done, 200);"
    " requestAnimationFrame(() => requestAnimationFrame(() => done())); })"
)
#: Reads of an out-of-process frame's offset at most, until two agree.
_OFFSET_READS = 5


@dataclass
class Element:
    tab: Tab
    frame: FrameRef
    object_id: str
    description: str

    @property
    def session(self) -> Session:
        return self.frame.session

    async def call(self, function: str, *args: Any, by_value: bool = True, user_gesture: bool = False) -> Any:
        """Call ``function(this=element, ...args)`` in the page and return its value (see
        :func:`_tool_value`)."""
        with _thrown_message():
            remote = await call_function_remote(
                self.session, function, *args, object_id=self.object_id, by_value=by_value,
                await_promise=True, user_gesture=user_gesture,
            )
        return _tool_value(remote, by_value)

    async def center(self) -> tuple[float, float]:
        """The element's visible centre in top-level viewport coordinates."""
        try:
            quads = (await self.session.send("DOM.getContentQuads", {"objectId": self.object_id}))["quads"]
        except ProtocolError:
            quads = []
        if not quads:
            box = await self.call("function() { const r = this.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }")
            x, y = box[0] + box[2] / 2, box[1] + box[3] / 2
        else:
            q = max(quads, key=_quad_area)
            x, y = sum(q[0::2]) / 4, sum(q[1::2]) / 4
        dx, dy = await self.frame_offset()
        return x + dx, y + dy

    async def box(self) -> dict[str, float]:
        """The element's box in top-level viewport CSS px.

        Content quads are in the coordinates of the frame's root (the top page for in-process
        iframes, including ones reached with ``>>>``); getBoundingClientRect would be relative to
        the element's own iframe. It is the fallback for elements without layout.
        """
        try:
            quads = (await self.session.send("DOM.getContentQuads", {"objectId": self.object_id}))["quads"]
        except ProtocolError:
            quads = []
        if quads:
            xs = [v for q in quads for v in q[0::2]]
            ys = [v for q in quads for v in q[1::2]]
            x, y, w, h = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
        else:
            x, y, w, h = await self.call(
                "function() { const r = this.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }"
            )
        dx, dy = await self.frame_offset()
        return {"x": x + dx, "y": y + dy, "width": w, "height": h}

    async def frame_offset(self) -> tuple[float, float]:
        """Where the frame's viewport sits in the top page, current as of now.

        Scrolling inside an out-of-process frame scrolls the top page too, in the top page's
        process and a moment later, and the browser routes input to the frame by where the top
        page's last presented frame put it. So the offset is read after the top page presented
        a frame, until two reads agree: a click then lands where the offset says."""
        if self.frame.refresh_offset is None:
            return self.frame.offset
        offset = await self.frame.refresh_offset()
        for _ in range(_OFFSET_READS):
            try:
                await self.tab.page.evaluate(_PRESENTED_JS, timeout=2)
            except (CDPError, trio.TooSlowError):
                break
            again = await self.frame.refresh_offset()
            if again == offset:
                break
            offset = again
        self.frame.offset = offset
        return offset

    async def click(self, *, button: str = "left", click_count: int = 1) -> None:
        x, y = await self.center()
        await guard_dialog(self.tab, inputs.click(self.tab.session, self.tab.mouse, x, y,
                                                   button=button, click_count=click_count))

    async def focus(self) -> None:
        await self.call("function() { this.focus(); }")


def _quad_area(q: list[float]) -> float:
    return abs((q[0] * q[3] - q[1] * q[2]) + (q[2] * q[5] - q[3] * q[4]) + (q[4] * q[7] - q[5] * q[6])
               + (q[6] * q[1] - q[7] * q[0])) / 2


def _tool_value(remote: RemoteObject, by_value: bool) -> Any:
    """What a tool gets back from page script: the JSON value as the browser serialised it
    (None for what JSON cannot carry: undefined, NaN, BigInt…), or the handle's JSON
    (``{"objectId": …}``) when not ``by_value``. Tool answers are JSON."""
    return remote.value if by_value else remote.to_json()


@contextmanager
def _thrown_message() -> Iterator[None]:
    """Report a script error to tools by its message alone, without the location the driver
    appends: page functions signal typed tool errors through that message, which
    ``element.page_call`` reads back as JSON."""
    try:
        yield
    except JavaScriptError as exc:
        raise JavaScriptError(exc.message, stack=exc.stack) from None


async def current_frame(session: ToolSession, tab: Tab) -> FrameRef:
    """The frame chosen with frame_select, or the main frame."""
    if tab.frame is not None:
        if tab.frame.session is tab.session and tab.frame.frame_id in tab.contexts:
            tab.frame.context_id = tab.contexts[tab.frame.frame_id]
        return tab.frame
    return FrameRef(tab.session, tab.page.main_frame_id, None, "main")


def frame_label(frame: FrameRef) -> str:
    return "main" if frame.name == "main" else f"{frame.name or frame.url or frame.frame_id}"


async def find(
    session: ToolSession,
    locator: dict[str, Any],
    *,
    state: str = "visible",
    timeout_ms: int,
    enabled: bool = False,
    editable: bool = False,
    hit_target: bool = False,
    stable: bool = True,
    scroll: bool = True,
) -> Element | None:
    """Wait until the located element reaches ``state``; None for the hidden/detached states.

    A CSS selector that is an element reference (``e12``) names the element it was handed
    out for, in the frame it was seen in, whichever frame is current.
    """
    tab = await session.tab()
    check_no_dialog(tab)
    if locator["kind"] == "css" and is_ref(locator["value"]):
        locator = {"kind": "ref", "value": locator["value"], "name": None}
    frame = await current_frame(session, tab)
    options = {"scroll": scroll, "enabled": enabled, "editable": editable, "hitTarget": hit_target,
               "stable": stable, "visibleFirst": state != "attached"}
    deadline = trio.current_time() + timeout_ms / 1000
    while True:
        remaining_ms = max(0, int((deadline - trio.current_time()) * 1000))
        try:
            with trio.move_on_after(remaining_ms / 1000 + 5):
                if locator["kind"] == "ref":
                    frame, command = await _locate_ref(tab, locator, state, remaining_ms, options)
                    if command is None:
                        return None  # it was to be gone, and it is
                else:
                    command = _locate_in(frame, locator, state, remaining_ms, options)
                reply = await _until_dialog(tab, command)
                return _element_from(reply, tab, frame, locator, state, remaining_ms)
            raise ToolError("timeout", f"{_describe(locator)} did not become {state} within {timeout_ms} ms")
        except ProtocolError as exc:
            if context_lost(exc) and trio.current_time() < deadline:
                await trio.sleep(0.05)
                frame = await current_frame(session, tab)
                continue
            raise


def _locate_in(frame: FrameRef, locator: dict[str, Any], state: str, remaining_ms: int,
               options: dict[str, Any]) -> Awaitable[dict[str, Any]]:
    """The locate call for a selector or semantic locator, run in the frame's main world."""
    params: dict[str, Any] = {
        "expression": call_expression(LOCATE_FUNCTION, locator, state, remaining_ms, options),
        "awaitPromise": True,
        "returnByValue": False,
    }
    if frame.context_id is not None:
        params["contextId"] = frame.context_id
    return frame.session.send("Runtime.evaluate", params, timeout=remaining_ms / 1000 + 10)


async def _locate_ref(tab: Tab, locator: dict[str, Any], state: str, remaining_ms: int,
                      options: dict[str, Any]) -> tuple[FrameRef, Awaitable[dict[str, Any]] | None]:
    """The locate call for an element reference: its node, resolved in its own document; None
    when the node no longer exists and the wait was for it to be gone (``detached``, ``hidden``)."""
    ref = locator["value"]
    target = refs_of(tab).target(tab, ref)
    try:
        node = await target.frame.session.send("DOM.resolveNode", {"backendNodeId": target.backend_node_id})
    except ProtocolError:
        if state in ("detached", "hidden"):
            return target.frame, None
        raise stale_reference(ref, "the element has left the page") from None
    object_id = node["object"]["objectId"]
    params = {
        "functionDeclaration": LOCATE_FUNCTION, "objectId": object_id, "awaitPromise": True,
        "returnByValue": False,
        "arguments": [{"value": locator}, {"value": state}, {"value": remaining_ms}, {"value": options},
                      {"objectId": object_id}],
    }
    return target.frame, target.frame.session.send("Runtime.callFunctionOn", params, timeout=remaining_ms / 1000 + 10)


def _element_from(reply: dict[str, Any] | None, tab: Tab, frame: FrameRef, locator: dict[str, Any],
                  state: str, waited_ms: int) -> Element | None:
    if reply is None:
        raise ToolError("dialog_open", _dialog_message(tab))
    details = reply.get("exceptionDetails")
    if details:
        text = str((details.get("exception") or {}).get("description") or details.get("text", ""))
        first = text.split("\n")[0].removeprefix("Error: ")
        try:
            info = json.loads(first)
        except ValueError:
            raise JavaScriptError(first) from None
        code = info.get("code", "timeout")
        where = f"in frame {frame_label(frame)}"
        if code == "element_not_found":
            message = (f"{_describe(locator)} matched 0 elements {where} after {waited_ms} ms; "
                       "call page_inspect to see the page's elements")
        elif code == "invalid_arguments":
            message = f"{_describe(locator)}: {info.get('message')}"
        elif code == "stale_reference":
            raise stale_reference(locator["value"], str(info.get("message")))
        else:
            message = f"{_describe(locator)} {where}: {info.get('message')} after {waited_ms} ms"
        raise ToolError(code, message)
    result = reply.get("result") or {}
    if result.get("subtype") == "null" or result.get("type") == "undefined":
        return None
    return Element(tab, frame, result["objectId"], _describe(locator))


def _describe(locator: dict[str, Any]) -> str:
    kind, value = locator["kind"], locator["value"]
    if kind == "css":
        return f"selector {value!r}"
    if kind == "ref":
        return f"reference {value}"
    if kind == "role" and locator.get("name"):
        return f"role {value!r} named {locator['name']!r}"
    return f"{kind} {value!r}"


async def element(session: ToolSession, locator: dict[str, Any] | str, timeout_ms: int, *,
                  state: str = "visible", **checks: bool) -> Element:
    """Like ``find`` but always returns an element (for the attached/visible/actionable states)."""
    loc = {"kind": "css", "value": locator, "name": None} if isinstance(locator, str) else locator
    found = await find(session, loc, state=state, timeout_ms=timeout_ms, **checks)
    assert found is not None
    return found


async def actionable(session: ToolSession, locator: dict[str, Any] | str, timeout_ms: int, **checks: bool) -> Element:
    """Visible, stable, scrolled into view and not covered: ready for a real click."""
    checks.setdefault("hit_target", True)
    return await element(session, locator, timeout_ms, state="actionable", **checks)


def check_no_dialog(tab: Tab) -> None:
    if tab.dialog is not None:
        raise ToolError("dialog_open", _dialog_message(tab))


def _dialog_message(tab: Tab) -> str:
    kind = tab.dialog.type if tab.dialog else "dialog"
    text = tab.dialog.message if tab.dialog else ""
    return f"a {kind} dialog is open ({text!r}); call dialog_handle to accept or dismiss it first"


async def _until_dialog(tab: Tab, command: Any) -> Any:
    """Run a command, but stop waiting if the page opens a dialog (the command would block)."""
    result: list[Any] = [None]
    with single_exception():  # the command's own error, not a group callers cannot catch
        async with trio.open_nursery() as nursery:
            async def run() -> None:
                result[0] = await command
                nursery.cancel_scope.cancel()

            async def watch() -> None:
                await tab.dialog_opened.wait()
                nursery.cancel_scope.cancel()

            nursery.start_soon(run)
            nursery.start_soon(watch)
    return result[0]


async def guard_dialog(tab: Tab, command: Any) -> Any:
    """Input that opens a dialog must not hang the tool: the dialog is reported instead.

    Returns the command's result, or None when a dialog cut the wait short (``tab.dialog`` is set).
    """
    return await _until_dialog(tab, command)


async def evaluate(session: ToolSession, expression: str, *, await_promise: bool = True,
                   by_value: bool = True, timeout: float | None = None) -> Any:
    """Evaluate in the current frame's main world, as a user gesture."""
    tab = await session.tab()
    check_no_dialog(tab)
    frame = await current_frame(session, tab)
    return await evaluate_in(tab, frame.session, expression, context_id=frame.context_id,
                             await_promise=await_promise, by_value=by_value, user_gesture=True,
                             timeout=timeout)


async def evaluate_in(tab: Tab, session: Session, expression: str, *, context_id: int | None = None,
                      await_promise: bool = True, by_value: bool = True, user_gesture: bool = False,
                      timeout: float | None = None) -> Any:
    """Evaluate in one of ``tab``'s frames (rendered by ``session``; ``context_id`` None is the
    main world) and return what a tool gets (:func:`_tool_value`).

    A page that opens a dialog cannot hang the call: an open dialog is a dialog_open error.
    """
    check_no_dialog(tab)
    with _thrown_message():
        remote = await _until_dialog(tab, evaluate_remote(
            session, expression, context_id, by_value=by_value, await_promise=await_promise,
            user_gesture=user_gesture, timeout=timeout,
        ))
    if remote is None:
        check_no_dialog(tab)
        raise ToolError("dialog_open", "a dialog opened; call dialog_handle first")
    return _tool_value(remote, by_value)


__all__ = ["CDPError", "Element", "actionable", "check_no_dialog", "current_frame", "element", "evaluate",
           "evaluate_in", "find", "guard_dialog"]
