"""element_: the shared "locate, then act" shape of the 33 element tools.

Every element tool does the same three things: turn its arguments into a
locator, wait until the element is ready for what the tool does (attached,
visible, hoverable, clickable or editable), then act on it or read it. This
module holds that shape once; ``element_actions`` (pointer, keys, events),
``element_forms`` (text fields and form controls) and ``element_state``
(getters, is_* checkers) declare the tools, mostly from tables.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from ..errors import ToolError
from ..models import LocatorInput, MessageOutput, SelectorInput
from ..registry import Effect, tool

if TYPE_CHECKING:
    from ..locate import Element
    from ..session import ToolSession


Wait = Literal["attached", "visible", "hover", "click", "edit"]

# What each kind of tool waits for before it acts (see js/locate_element.js for the checks).
WAITS: dict[str, dict[str, Any]] = {
    "attached": {"state": "attached"},                                    # getters
    "visible": {"state": "visible"},                                      # focus, screenshot, press
    "hover": {"state": "actionable", "hit_target": True},                 # visible, stable, in view, not covered
    "click": {"state": "actionable", "hit_target": True, "enabled": True},  # …and enabled
    # fill, type, clear: focus and keyboard, not the pointer, so neither an overlay (a floating
    # label) nor motion is an obstacle
    "edit": {"state": "actionable", "enabled": True, "editable": True, "hit_target": False, "stable": False},
}


def css(selector: str) -> dict[str, Any]:
    return {"kind": "css", "value": selector, "name": None}


def locator_of(args: BaseModel | str) -> dict[str, Any]:
    """The ``locate`` dict for a tool's arguments (a semantic locator or a CSS selector)."""
    if isinstance(args, str):
        return css(args)
    if isinstance(args, LocatorInput):
        return args.locator()
    if isinstance(args, SelectorInput):
        return css(args.selector)
    raise TypeError(f"{type(args).__name__} carries no locator")


async def target(session: ToolSession, args: BaseModel | str, wait: Wait, timeout_ms: int | None = None) -> Element:
    """Locate the element and wait until it is ready for ``wait``; the one entry to every tool."""
    from .. import locate

    timeout = timeout_ms if timeout_ms is not None else args.timeout_ms  # type: ignore[union-attr]
    checks = dict(WAITS[wait])
    state = checks.pop("state")
    if state == "actionable":
        return await locate.actionable(session, locator_of(args), timeout, **checks)
    return await locate.element(session, locator_of(args), timeout, state=state)


# Page-side helpers prepended to every function run on an element: ``fail`` raises a typed
# tool error (decoded by ``page_call``), ``deepActive`` finds focus inside shadow roots.
_PRELUDE = r"""
const fail = (code, message) => { throw new Error(JSON.stringify({__tool_error: true, code, message})); };
const deepActive = () => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; return a; };
"""


def page_function(body: str) -> str:
    """Wrap a function source so it can call ``fail`` and ``deepActive``; ``this`` stays the element."""
    return f"async function(...args) {{ {_PRELUDE} return await ({body}).apply(this, args); }}"


async def page_call(element: Element, function: str, *args: Any, by_value: bool = True) -> Any:
    """Run ``function`` on the element; a ``fail(code, message)`` becomes that ToolError.

    A dialog the function opens does not hang the call: the result is then None and
    ``element.tab.dialog`` says what opened.
    """
    from cdpdriver import JavaScriptError

    from .. import locate

    try:
        return await locate.guard_dialog(element.tab, element.call(page_function(function), *args, by_value=by_value))
    except JavaScriptError as exc:
        raise _typed(element, str(exc)) from None


def _typed(element: Element, text: str) -> Exception:
    from cdpdriver import JavaScriptError

    payload = text.removeprefix("Uncaught ").removeprefix("Error: ")
    try:
        info = json.loads(payload)
    except ValueError:
        return JavaScriptError(text)
    if not isinstance(info, dict) or not info.get("__tool_error"):
        return JavaScriptError(text)
    return ToolError(info["code"], f"{element.description} {info['message']}")


def element_handle(element: Element, remote: dict[str, Any], description: str) -> Element:
    """An Element for a node a page function returned (``by_value=False``), e.g. a checkbox's label."""
    from ..locate import Element

    if not remote.get("objectId"):
        raise ToolError("element_not_found", f"{element.description}: {description} is gone")
    return Element(element.tab, element.frame, remote["objectId"], description)


def dialog_note(element: Element) -> str:
    """A sentence for the message when the action opened a dialog (it stays open for dialog_handle)."""
    dialog = element.tab.dialog
    if dialog is None:
        return ""
    return f"; it opened a {dialog.type} dialog ({dialog.message!r}): call dialog_handle to answer it"


@dataclass(frozen=True)
class Action:
    """One row of an action table: locate with ``wait``, then ``act`` (a message or a full output)."""

    name: str
    input: type[BaseModel]
    output: type[BaseModel]
    wait: Wait
    act: Callable[[ToolSession, Element, Any], Awaitable[Any]]
    description: str
    effect: Effect  # tools.registry.EFFECTS
    records: bool = True
    open_world: bool = False


def declare_actions(table: list[Action]) -> None:
    """Declare every row as a tool sharing the one locate-then-act handler."""
    for spec in table:
        _declare_action(spec)


def _declare_action(spec: Action) -> None:
    async def handler(session: ToolSession, args: Any) -> BaseModel:
        el = await target(session, args, spec.wait)
        result = await spec.act(session, el, args)
        return MessageOutput(message=result) if isinstance(result, str) else result

    tool(spec.name, spec.input, spec.output, description=spec.description, records=spec.records,
         effect=spec.effect, open_world=spec.open_world)(handler)


__all__ = ["Action", "declare_actions", "WAITS", "Wait", "css", "dialog_note", "element_handle", "locator_of",
           "page_call", "page_function", "target"]
