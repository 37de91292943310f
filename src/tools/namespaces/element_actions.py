"""element_ pointer, keyboard and page-side actions: click, hover, tap, press, drag, events, screenshots.

Pointer and keyboard actions go through ``Input.dispatch*`` at the element's
centre once it is actionable; only element_dispatch_event builds a synthetic
DOM event. Form controls live in ``element_forms``.
"""

from __future__ import annotations

import base64
import time
from typing import Any, Literal

from pydantic import Field, field_validator

from cdpdriver.scripts import load_script

from .. import inputs, locate
from ..errors import ToolError
from ..keys import parse_combo
from ..models import (
    BoundingBox,
    LocatorInput,
    MessageOutput,
    SelectorInput,
    TimeoutMs,
    ToolInput,
    ToolOutput,
)
from ..registry import tool
from ..session import ToolSession
from .element import Action, Element, declare_actions, dialog_note, page_call, target

# -- page functions (js/*.js, run through page_call) ----------------------------------------

_FOCUS = load_script("tools", "focus_element")
_SCROLL_INTO_VIEW = load_script("tools", "scroll_into_view")
_EVENT_CLASSES = load_script("tools", "dispatch_event")


# -- inputs and outputs ----------------------------------------------------------------------


class ClickInput(LocatorInput):
    button: Literal["left", "right", "middle"] = Field(default="left", description="Mouse button to click with")


class PressInput(LocatorInput):
    key: str = Field(min_length=1, description="Key or combo, e.g. Enter, Tab, ArrowDown, Control+A, Shift+Tab")

    @field_validator("key")
    @classmethod
    def _known_key(cls, value: str) -> str:
        parse_combo(value)  # UnknownKey is a ValueError: invalid_arguments naming ``key``
        return value


class DragInput(ToolInput):
    source_selector: str = Field(min_length=1, description="CSS selector of the element to drag")
    target_selector: str = Field(min_length=1, description="CSS selector of the element to drop on (its centre)")
    steps: int = Field(default=10, ge=1, le=200, description="Intermediate mouse moves on the way")
    timeout_ms: int = TimeoutMs


class DispatchInput(SelectorInput):
    event_type: str = Field(min_length=1, description="DOM event type, e.g. click, input, keydown, my-custom-event")
    event_init: dict[str, Any] = Field(default_factory=dict, description=(
        "Event constructor options (bubbles/cancelable/composed default true; detail makes a CustomEvent; "
        "dataTransfer may be an object of type → data)"))


class DispatchOutput(ToolOutput):
    message: str
    event_class: str = Field(description="The constructor used, e.g. MouseEvent, KeyboardEvent, CustomEvent")
    default_prevented: bool = Field(description="True when a listener called preventDefault()")


class EvaluateInput(SelectorInput):
    function: str = Field(min_length=1, description="JavaScript function source, e.g. '(el, arg) => el.dataset.id'; it is called with the element (also as this) and arg")
    arg: Any = Field(default=None, description="A JSON value passed as the second argument")


class EvaluateOutput(ToolOutput):
    result: Any = Field(description="The function's JSON-serializable return value (promises are awaited)")


class ScreenshotInput(SelectorInput):
    format: Literal["base64", "file"] = Field(default="base64", description="Return the PNG inline (base64) or write it to a file")
    path: str | None = Field(default=None, description="File path inside the output directory (format=file)")


class ScreenshotOutput(ToolOutput):
    data: str | None = Field(description="Base64 PNG (format=base64)")
    path: str | None = Field(default=None, description="Where the PNG was written (format=file)")
    width: int = Field(description="Image width in pixels")
    height: int = Field(description="Image height in pixels")


class ScrollOutput(ToolOutput):
    message: str
    box: BoundingBox = Field(description="The element's box after scrolling, in CSS px of the viewport")


# -- shared action pieces ----------------------------------------------------------------------


async def _tap(session: Any, x: float, y: float) -> None:
    await session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    await session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


# -- the simple actions: locate, wait, act, say what happened ----------------------------------


async def _click(session: ToolSession, el: Element, args: ClickInput) -> str:
    await el.click(button=args.button)
    return f"clicked {el.description}" + ("" if args.button == "left" else f" with the {args.button} button") + dialog_note(el)


async def _double_click(session: ToolSession, el: Element, args: SelectorInput) -> str:
    await el.click(click_count=2)
    return f"double-clicked {el.description}{dialog_note(el)}"


async def _press(session: ToolSession, el: Element, args: PressInput) -> str:
    elsewhere = await page_call(el, _FOCUS)
    await locate.guard_dialog(el.tab, inputs.press(el.tab.session, args.key))
    note = f" (it cannot take focus, so the key went to {elsewhere})" if elsewhere else ""
    return f"pressed {args.key} on {el.description}{note}{dialog_note(el)}"


async def _hover(session: ToolSession, el: Element, args: SelectorInput) -> str:
    x, y = await el.center()
    await inputs.mouse_move(el.tab.session, el.tab.mouse, x, y)
    return f"the mouse is over {el.description} at ({x:.0f}, {y:.0f})"


async def _focus(session: ToolSession, el: Element, args: SelectorInput) -> str:
    elsewhere = await page_call(el, _FOCUS)
    if elsewhere:
        raise ToolError("invalid_arguments", f"{el.description} cannot take focus (focus is on {elsewhere}); "
                                             "it is not focusable: target a control inside it")
    return f"focused {el.description}"


async def _tap_element(session: ToolSession, el: Element, args: SelectorInput) -> str:
    x, y = await el.center()
    await locate.guard_dialog(el.tab, _tap(el.tab.session, x, y))
    return f"tapped {el.description} at ({x:.0f}, {y:.0f}){dialog_note(el)}"


async def _scroll(session: ToolSession, el: Element, args: SelectorInput) -> ScrollOutput:
    await page_call(el, _SCROLL_INTO_VIEW)
    return ScrollOutput(message=f"scrolled {el.description} into view", box=BoundingBox(**await el.box()))


async def _dispatch(session: ToolSession, el: Element, args: DispatchInput) -> DispatchOutput:
    result = await page_call(el, _EVENT_CLASSES, args.event_type, args.event_init)
    if result is None:
        return DispatchOutput(message=f"dispatched {args.event_type} on {el.description}{dialog_note(el)}",
                              event_class="", default_prevented=False)
    return DispatchOutput(message=f"dispatched a {result['event_class']} {args.event_type!r} on {el.description}", **result)


async def _evaluate(session: ToolSession, el: Element, args: EvaluateInput) -> EvaluateOutput:
    source = args.function.strip().rstrip(";")
    wrapper = ("function(arg) { const fn = (" + source + "\n); if (typeof fn !== 'function') "
               "fail('invalid_arguments', 'was given a function argument that is not a function; write e.g. (el) => el.id');"
               " return fn.call(this, this, arg); }")
    return EvaluateOutput(result=await page_call(el, wrapper, args.arg))


async def _screenshot(session: ToolSession, el: Element, args: ScreenshotInput) -> ScreenshotOutput:
    await page_call(el, _SCROLL_INTO_VIEW)
    box = await el.box()
    if box["width"] < 1 or box["height"] < 1:
        raise ToolError("invalid_arguments", f"{el.description} has an empty box ({box['width']}x{box['height']}); nothing to capture")
    viewport = (await el.tab.session.send("Page.getLayoutMetrics"))["cssVisualViewport"]
    clip = {"x": box["x"] + viewport["pageX"], "y": box["y"] + viewport["pageY"],
            "width": box["width"], "height": box["height"], "scale": 1}
    beyond = box["width"] > viewport["clientWidth"] or box["height"] > viewport["clientHeight"]
    shot = await el.tab.session.send("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": beyond})
    png = base64.b64decode(shot["data"])
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    if args.format == "file":
        path = session.output_path(args.path, f"element-{time.strftime('%Y%m%d-%H%M%S')}-{time.monotonic_ns() % 10**6}.png")
        path.write_bytes(png)
        return ScreenshotOutput(data=None, path=str(path), width=width, height=height)
    return ScreenshotOutput(data=shot["data"], width=width, height=height)


ACTIONS = [
    Action("element_click", ClickInput, MessageOutput, "click", _click, """
        Click an element with a real mouse click at its centre, after waiting until it is visible, stable,
        enabled and not covered (the error names what covers it or says it is disabled). Locate it by CSS
        selector or one semantic locator (role+name, text, label, placeholder, testid, alt, title, xpath). A
        click that opens an alert returns at once; the dialog stays open for dialog_handle."""),
    Action("element_double_click", SelectorInput, MessageOutput, "click", _double_click, """
        Double-click an element with real mouse events (two clicks, then dblclick), after the same
        actionability waits as element_click."""),
    Action("element_press", PressInput, MessageOutput, "visible", _press, """
        Focus an element and press a key or combo with real key events, e.g. Enter to submit, Escape,
        ArrowDown, Tab, Control+A. Use it for shortcuts and keys that do not type text."""),
    Action("element_hover", SelectorInput, MessageOutput, "hover", _hover, """
        Move the real mouse over the element's centre (after it is visible, stable and not covered), so
        :hover styles, tooltips and mouseover menus appear."""),
    Action("element_focus", SelectorInput, MessageOutput, "visible", _focus, """
        Give an element keyboard focus (focus events fire). Fails when the element cannot take focus."""),
    Action("element_tap", SelectorInput, MessageOutput, "click", _tap_element, """
        Tap an element with a real touch (touchstart, touchend, then the click a tap produces), for pages
        that handle touch input."""),
    Action("element_scroll_into_view", SelectorInput, ScrollOutput, "visible", _scroll, """
        Scroll the element into the middle of the viewport if it is not already in view (scrollable
        containers too). Returns its new bounding box."""),
    Action("element_dispatch_event", DispatchInput, DispatchOutput, "attached", _dispatch, """
        Dispatch a synthetic DOM event on the element: the constructor is chosen from event_type (MouseEvent,
        KeyboardEvent, InputEvent, FocusEvent, DragEvent…, or CustomEvent when event_init has detail). Its
        isTrusted is false: prefer element_click/element_type for real input; use this for custom events."""),
    Action("element_evaluate", EvaluateInput, EvaluateOutput, "attached", _evaluate, """
        Call a JavaScript function with the element as its first argument (and as this) and an optional
        arg, and return the result as JSON (promises are awaited). Use it to read or change what no other
        element tool covers."""),
    Action("element_screenshot", ScreenshotInput, ScreenshotOutput, "visible", _screenshot, """
        Capture a PNG of the element's box (scrolled into view first). Returns base64 data, or writes a
        file under the output directory with format=file; width and height are the image's pixels.""",
           records=False),
]

declare_actions(ACTIONS)


# -- actions with their own flow --------------------------------------------------------------


@tool("element_drag_to", DragInput, MessageOutput, records=True)
async def element_drag_to(session: ToolSession, args: DragInput) -> MessageOutput:
    """Drag one element onto another with the real mouse: press on the source's centre, move in steps
    to the target's centre, release. Works for mouse-driven drag code and for native HTML5
    draggable drag-and-drop (dragstart/dragover/drop fire)."""
    source = await target(session, args.source_selector, "hover", args.timeout_ms)
    tab = source.tab
    x, y = await source.center()
    await inputs.mouse_move(tab.session, tab.mouse, x, y)
    await inputs.mouse_down(tab.session, tab.mouse)
    try:
        # The dragged thing may sit on top of the target while moving: no hit-target check here.
        goal = await locate.actionable(session, args.target_selector, args.timeout_ms, hit_target=False)
        tx, ty = await goal.center()
        await locate.guard_dialog(tab, inputs.mouse_move(tab.session, tab.mouse, tx, ty, steps=args.steps))
        await locate.guard_dialog(tab, inputs.mouse_move(tab.session, tab.mouse, tx, ty))  # a last dragover on the target
    finally:
        if tab.dialog is None:
            await locate.guard_dialog(tab, inputs.mouse_up(tab.session, tab.mouse))
        tab.mouse.pressed.discard("left")
    return MessageOutput(message=f"dragged {source.description} from ({x:.0f}, {y:.0f}) to {goal.description} "
                                 f"at ({tx:.0f}, {ty:.0f}){dialog_note(source)}")
