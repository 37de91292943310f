"""element_ pointer, keyboard and page-side actions: click, hover, tap, press, drag, events, screenshots.

Pointer and keyboard actions go through ``Input.dispatch*`` at the element's
centre once it is actionable; only element_dispatch_event builds a synthetic
DOM event. Form controls live in ``element_forms``.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator

from ..action_snapshot import SnapshotAfter
from ..errors import ToolError
from ..image_change import IfChanged
from ..images import ImageDelivery, ImageOutput
from ..models import (
    BoundingBox,
    DownloadInfo,
    LocatorInput,
    MessageOutput,
    SelectorInput,
    TimeoutMs,
    ToolInput,
    ToolOutput,
)
from ..registry import tool
from .element import Action, declare_actions, dialog_note, page_call, target

if TYPE_CHECKING:
    from ..locate import Element
    from ..session import ToolSession


# -- inputs and outputs ----------------------------------------------------------------------


class ClickInput(SnapshotAfter, LocatorInput):
    button: Literal["left", "right", "middle"] = "left"


class PressInput(SnapshotAfter, LocatorInput):
    key: str = Field(min_length=1)

    @field_validator("key")
    @classmethod
    def _known_key(cls, value: str) -> str:
        from cdpdriver.keys import parse_combo

        parse_combo(value)  # UnknownKey is a ValueError: invalid_arguments naming ``key``
        return value


class DragInput(ToolInput):
    source_selector: str = Field(min_length=1)
    target_selector: str = Field(min_length=1)
    steps: int = Field(default=10, ge=1, le=200)
    timeout_ms: int = TimeoutMs


class DispatchInput(SelectorInput):
    event_type: str = Field(min_length=1)
    event_init: dict[str, Any] = Field(default_factory=dict)


class DispatchOutput(ToolOutput):
    message: str
    event_class: str = Field(description="The constructor used, e.g. MouseEvent, KeyboardEvent, CustomEvent")
    default_prevented: bool = Field(description="True when a listener called preventDefault()")


class EvaluateInput(SelectorInput):
    function: str = Field(min_length=1, description="e.g. (el, arg) => el.dataset.id")
    arg: Any = None


class EvaluateOutput(ToolOutput):
    result: Any = Field(description="The function's JSON-serializable return value (promises are awaited)")


class ScreenshotInput(SelectorInput):
    format: ImageDelivery = Field(default="base64", description="base64: an image in the result; file: saved")
    path: str | None = None
    if_changed: IfChanged = None  # tools.image_change


class ClickOutput(MessageOutput):
    downloads: list[DownloadInfo] | None = Field(default=None, exclude_if=lambda v: v is None,
                                                 description="Files the click downloaded, when it did")


class ScrollOutput(ToolOutput):
    message: str
    box: BoundingBox = Field(description="The element's box after scrolling, in CSS px of the viewport")


# -- shared action pieces ----------------------------------------------------------------------


async def _tap(session: Any, x: float, y: float) -> None:
    await session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    await session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


# -- the simple actions: locate, wait, act, say what happened ----------------------------------


async def _click(session: ToolSession, el: Element, args: ClickInput) -> ClickOutput:
    from ..downloads import watch_action

    watch = await watch_action(session, el.tab, el)
    await el.click(button=args.button)
    downloads = await watch.settle()
    message = (f"clicked {el.description}" + ("" if args.button == "left" else f" with the {args.button} button")
               + dialog_note(el))
    if downloads:
        message += f"; it downloaded {len(downloads)} file(s) into the output directory"
    return ClickOutput(message=message, downloads=downloads or None)


async def _double_click(session: ToolSession, el: Element, args: SelectorInput) -> str:
    await el.click(click_count=2)
    return f"double-clicked {el.description}{dialog_note(el)}"


async def _press(session: ToolSession, el: Element, args: PressInput) -> str:
    from cdpdriver.keys import press
    from cdpdriver.scripts import load_script

    from .. import locate

    elsewhere = await page_call(el, load_script("tools", "focus_element"))
    await locate.guard_dialog(el.tab, press(el.tab.session, args.key))
    note = f" (it cannot take focus, so the key went to {elsewhere})" if elsewhere else ""
    return f"pressed {args.key} on {el.description}{note}{dialog_note(el)}"


async def _hover(session: ToolSession, el: Element, args: SelectorInput) -> str:
    from .. import inputs

    x, y = await el.center()
    await inputs.mouse_move(el.tab.session, el.tab.mouse, x, y)
    return f"the mouse is over {el.description} at ({x:.0f}, {y:.0f})"


async def _focus(session: ToolSession, el: Element, args: SelectorInput) -> str:
    from cdpdriver.scripts import load_script

    elsewhere = await page_call(el, load_script("tools", "focus_element"))
    if elsewhere:
        raise ToolError("invalid_arguments", f"{el.description} cannot take focus (focus is on {elsewhere}); "
                                             "it is not focusable: target a control inside it")
    return f"focused {el.description}"


async def _tap_element(session: ToolSession, el: Element, args: SelectorInput) -> str:
    from .. import locate

    x, y = await el.center()
    await locate.guard_dialog(el.tab, _tap(el.tab.session, x, y))
    return f"tapped {el.description} at ({x:.0f}, {y:.0f}){dialog_note(el)}"


async def _scroll(session: ToolSession, el: Element, args: SelectorInput) -> ScrollOutput:
    from cdpdriver.scripts import load_script

    await page_call(el, load_script("tools", "scroll_into_view"))
    return ScrollOutput(message=f"scrolled {el.description} into view", box=BoundingBox(**await el.box()))


async def _dispatch(session: ToolSession, el: Element, args: DispatchInput) -> DispatchOutput:
    from cdpdriver.scripts import load_script

    result = await page_call(el, load_script("tools", "dispatch_event"), args.event_type, args.event_init)
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


async def _screenshot(session: ToolSession, el: Element, args: ScreenshotInput) -> ImageOutput:
    from cdpdriver.scripts import load_script

    from .. import image_change

    await page_call(el, load_script("tools", "scroll_into_view"))
    box = await el.box()
    if box["width"] < 1 or box["height"] < 1:
        raise ToolError("invalid_arguments", f"{el.description} has an empty box ({box['width']}x{box['height']}); nothing to capture")
    viewport = (await el.tab.session.send("Page.getLayoutMetrics"))["cssVisualViewport"]
    clip = {"x": box["x"] + viewport["pageX"], "y": box["y"] + viewport["pageY"],
            "width": box["width"], "height": box["height"], "scale": 1}
    beyond = box["width"] > viewport["clientWidth"] or box["height"] > viewport["clientHeight"]
    shot = await el.tab.session.send("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": beyond})
    return await image_change.answer(session, el.tab, ("element", args.selector), base64.b64decode(shot["data"]),
                                     "image/png", args.if_changed, save=args.format == "file", path=args.path,
                                     prefix="element")


ACTIONS = [
    Action("element_click", ClickInput, ClickOutput, "click", _click, """
        Click an element once it is visible, stable, enabled and uncovered.""", effect="acts", open_world=True),
    Action("element_double_click", SelectorInput, MessageOutput, "click", _double_click, """
        Double-click an element.""", effect="acts", open_world=True),
    Action("element_press", PressInput, MessageOutput, "visible", _press, """
        Focus an element and press a key or combo.""", effect="acts", open_world=True),
    Action("element_hover", SelectorInput, MessageOutput, "hover", _hover, """
        Move the mouse over an element.""", effect="sets"),
    Action("element_focus", SelectorInput, MessageOutput, "visible", _focus, """
        Give an element keyboard focus.""", effect="sets"),
    Action("element_tap", SelectorInput, MessageOutput, "click", _tap_element, """
        Tap an element with a real touch.""", effect="acts", open_world=True),
    Action("element_scroll_into_view", SelectorInput, ScrollOutput, "visible", _scroll, """
        Scroll an element into view; returns its box.""", effect="sets"),
    Action("element_dispatch_event", DispatchInput, DispatchOutput, "attached", _dispatch, """
        Dispatch a synthetic DOM event on an element.""", effect="acts", open_world=True),
    Action("element_evaluate", EvaluateInput, EvaluateOutput, "attached", _evaluate, """
        Run a JS function on an element; returns its JSON result.""", effect="destroys", open_world=True),
    Action("element_screenshot", ScreenshotInput, ImageOutput, "visible", _screenshot, """
        Screenshot an element (PNG): an image you see, or a file.""", effect="acts", records=False),
]

declare_actions(ACTIONS)


# -- actions with their own flow --------------------------------------------------------------


@tool("element_drag_to", DragInput, MessageOutput, records=True, effect="acts", open_world=True)
async def element_drag_to(session: ToolSession, args: DragInput) -> MessageOutput:
    """Drag one element onto another (HTML5 drag and drop too)."""
    from .. import inputs, locate

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
