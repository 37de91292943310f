"""input_: low-level keyboard, mouse and touch at viewport coordinates, as real input events.

Everything goes through the browser's Input domain, so pages see trusted events
with the right key codes, buttons and touch points. State that spans calls lives
on the tab: the mouse position and pressed buttons (``tab.mouse``) and the keys
held with ``input_keyboard_down`` (their modifiers ride along on later key,
mouse and touch events). An input that opens a dialog returns at once and says so.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ..action_snapshot import SnapshotAfter
from ..models import MessageOutput, ToolInput
from ..registry import Effect, tool

if TYPE_CHECKING:
    from cdpdriver import Session
    from cdpdriver.keys import KeyDef

    from ..session import ToolSession
    from ..tab import Tab


Button = Literal["left", "right", "middle", "back", "forward"]
TOUCH_MOVES = 10
_HELD = "input.held_keys"


async def _act(session: ToolSession, action: Callable[[Tab], Awaitable[str]]) -> MessageOutput:
    """Run one input action on the current tab; a dialog it opens ends the wait and is reported."""
    from .. import locate

    tab = await session.tab()
    locate.check_no_dialog(tab)
    said: list[str] = []

    async def run() -> None:
        said.append(await action(tab))

    await locate.guard_dialog(tab, run())
    message = said[0] if said else "input sent"
    if tab.dialog is not None:
        message += (f"; it opened a {tab.dialog.type} dialog ({tab.dialog.message!r}): "
                    "call dialog_handle to accept or dismiss it")
    return MessageOutput(message=message)


# -- keyboard ----------------------------------------------------------------------------------


def _held(tab: Tab) -> dict[str, KeyDef]:
    """Keys held with input_keyboard_down on this tab, by key name, in press order."""
    return tab.extras.setdefault(_HELD, {})


def _sync_modifiers(tab: Tab) -> int:
    from cdpdriver.keys import MODIFIER_BITS

    mask = sum(MODIFIER_BITS.get(k, 0) for k in _held(tab))
    tab.mouse.modifiers = mask
    return mask


def _parts(combo: str) -> list[KeyDef]:
    from cdpdriver.keys import UnknownKey, parse_combo

    try:
        modifiers, key = parse_combo(combo)
    except UnknownKey as exc:
        raise ValueError(str(exc)) from None
    return [*modifiers, key]


def _typed(key: KeyDef, mask: int) -> KeyDef:
    from cdpdriver.keys import MODIFIER_BITS, shifted

    return shifted(key) if mask & MODIFIER_BITS["Shift"] else key


async def _key_down(tab: Tab, key: KeyDef) -> None:
    from .. import inputs

    _held(tab)[key.key] = key
    mask = _sync_modifiers(tab)
    await inputs.key_event(tab.session, "keyDown", _typed(key, mask), mask)


async def _key_up(tab: Tab, key: KeyDef) -> None:
    from cdpdriver.keys import MODIFIER_BITS

    from .. import inputs

    _held(tab).pop(key.key, None)
    mask = _sync_modifiers(tab)
    await inputs.key_event(tab.session, "keyUp", _typed(key, mask | MODIFIER_BITS.get(key.key, 0)), mask)


async def _press(tab: Tab, combo: str) -> str:
    """Press and release each part of the combo; keys already held stay held."""
    parts = _parts(combo)
    pressed = [k for k in parts if k.key not in _held(tab)]
    for key in pressed:
        await _key_down(tab, key)
    for key in reversed(pressed):
        await _key_up(tab, key)
    return f"pressed {combo}"


async def _hold(tab: Tab, combo: str) -> str:
    parts = _parts(combo)
    new = [k for k in parts if k.key not in _held(tab)]
    for key in new:
        await _key_down(tab, key)
    held = "+".join(_held(tab))
    return f"holding {held}" if new else f"{combo} was already held (holding {held})"


async def _release(tab: Tab, combo: str) -> str:
    parts = _parts(combo)
    unheld = [k.key for k in parts if k.key not in _held(tab)]
    for key in reversed(parts):
        await _key_up(tab, key)
    note = f" ({'+'.join(unheld)} had not been held with input_keyboard_down)" if unheld else ""
    still = "+".join(_held(tab))
    return f"released {combo}{note}" + (f"; still holding {still}" if still else "")


class KeyInput(SnapshotAfter):
    key: str = Field(min_length=1)


_KEY_TOOLS: dict[str, tuple[Callable[[Tab, str], Awaitable[str]], Effect, str]] = {
    "input_keyboard_press": (_press, "acts", """Press and release a key or combo on the focused element."""),
    "input_keyboard_down": (_hold, "sets", """
        Hold keys down until input_keyboard_up; they modify later input."""),
    "input_keyboard_up": (_release, "acts", """Release keys held with input_keyboard_down."""),
}


def _key_tool(name: str, action: Callable[[Tab, str], Awaitable[str]], effect: Effect, doc: str) -> None:
    async def handler(session: ToolSession, args: KeyInput) -> MessageOutput:
        return await _act(session, lambda tab: action(tab, args.key))

    tool(name, KeyInput, MessageOutput, description=doc, records=True, effect=effect, open_world=True)(handler)


for _name, (_action, _effect, _doc) in _KEY_TOOLS.items():
    _key_tool(_name, _action, _effect, _doc)


class TypeInput(ToolInput):
    text: str = Field(min_length=1)


@tool("input_keyboard_type", TypeInput, MessageOutput, records=True, effect="acts", open_world=True)
async def input_keyboard_type(session: ToolSession, args: TypeInput) -> MessageOutput:
    """Type text into the focused element, key by key."""
    from .. import inputs

    async def type_it(tab: Tab) -> str:
        await inputs.type_text(tab.session, args.text)
        return f"typed {len(args.text)} character(s)"

    return await _act(session, type_it)


# -- mouse ------------------------------------------------------------------------------------------


class MouseClickInput(ToolInput):
    x: float
    y: float
    button: Button = "left"
    click_count: int = Field(default=1, ge=1, le=3)


class MouseMoveInput(ToolInput):
    x: float
    y: float


class MouseButtonInput(ToolInput):
    button: Button = "left"


class MouseWheelInput(ToolInput):
    delta_x: float = 0
    delta_y: float = 0


class MouseDragInput(ToolInput):
    start_x: float
    start_y: float
    end_x: float
    end_y: float
    steps: int = Field(default=10, ge=1, le=200)


def _at(x: float, y: float) -> str:
    return f"({x:g}, {y:g})"


@tool("input_mouse_click", MouseClickInput, MessageOutput, records=True, effect="acts", open_world=True)
async def input_mouse_click(session: ToolSession, args: MouseClickInput) -> MessageOutput:
    """Click at a point with the real mouse."""
    from .. import inputs

    async def click(tab: Tab) -> str:
        await inputs.click(tab.session, tab.mouse, args.x, args.y, button=args.button, click_count=args.click_count)
        times = {1: "", 2: " twice", 3: " three times"}[args.click_count]
        return f"{args.button}-clicked{times} at {_at(args.x, args.y)}"

    return await _act(session, click)


@tool("input_mouse_move", MouseMoveInput, MessageOutput, records=True, effect="sets")
async def input_mouse_move(session: ToolSession, args: MouseMoveInput) -> MessageOutput:
    """Move the mouse to a point."""
    from .. import inputs

    async def move(tab: Tab) -> str:
        await inputs.mouse_move(tab.session, tab.mouse, args.x, args.y)
        return f"mouse at {_at(args.x, args.y)}"

    return await _act(session, move)


def _button_tool(name: str, kind: str, doc: str) -> None:
    async def handler(session: ToolSession, args: MouseButtonInput) -> MessageOutput:
        from .. import inputs

        async def act(tab: Tab) -> str:
            was_down = args.button in tab.mouse.pressed
            if kind == "down":
                await inputs.mouse_down(tab.session, tab.mouse, args.button)
            else:
                await inputs.mouse_up(tab.session, tab.mouse, args.button)
            where = _at(tab.mouse.x, tab.mouse.y)
            note = " (it was not held)" if kind == "up" and not was_down else ""
            return f"{args.button} button {kind} at {where}{note}"

        return await _act(session, act)

    tool(name, MouseButtonInput, MessageOutput, description=doc, records=True, effect="acts",
         open_world=True)(handler)


_button_tool("input_mouse_down", "down", """Press a mouse button at the mouse position and hold it.""")
_button_tool("input_mouse_up", "up", """Release a held mouse button.""")


@tool("input_mouse_wheel", MouseWheelInput, MessageOutput, records=True, effect="acts")
async def input_mouse_wheel(session: ToolSession, args: MouseWheelInput) -> MessageOutput:
    """Turn the mouse wheel at the mouse position."""
    from .. import inputs

    async def wheel(tab: Tab) -> str:
        await inputs.wheel(tab.session, tab.mouse, args.delta_x, args.delta_y)
        await _next_frames(tab)
        return f"wheel ({args.delta_x:g}, {args.delta_y:g}) at {_at(tab.mouse.x, tab.mouse.y)}"

    return await _act(session, wheel)


async def _next_frames(tab: Tab) -> None:
    """Wheel events reach the page's scripts asynchronously (the compositor scrolls first):
    wait two animation frames, at most 500 ms, so the page has seen the wheel on return."""
    import trio

    from cdpdriver import CDPError

    with trio.move_on_after(0.5):
        try:
            await tab.page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))",
                                    timeout=1)
        except CDPError:
            pass  # a navigation or busy page: the wheel was still sent


async def _drag_event(session: Session, kind: str, x: float, y: float, data: dict[str, Any], modifiers: int) -> None:
    await session.send("Input.dispatchDragEvent", {"type": kind, "x": x, "y": y, "data": data, "modifiers": modifiers})


def _intercepted(events: Any) -> dict[str, Any] | None:
    import trio

    try:
        return events.receive_nowait().params.get("data")
    except trio.WouldBlock:
        return None


async def _drag(tab: Tab, args: MouseDragInput) -> bool:
    """Press, move in steps, release. When the page starts an HTML drag (draggable), Chromium
    hands it to us (drag interception) and we finish it with real drag events, which headless
    Chromium cannot do from mouse events alone. True when an HTML drag was dropped."""
    import trio

    from .. import inputs

    session, mouse = tab.session, tab.mouse
    await inputs.mouse_move(session, mouse, args.start_x, args.start_y)
    await inputs.mouse_down(session, mouse, "left")
    data: dict[str, Any] | None = None
    with session.listen("Input.dragIntercepted", raw=True) as events:
        await session.send("Input.setInterceptDrags", {"enabled": True})
        try:
            for i in range(1, args.steps + 1):
                x = args.start_x + (args.end_x - args.start_x) * i / args.steps
                y = args.start_y + (args.end_y - args.start_y) * i / args.steps
                if data is None:
                    await inputs.mouse_move(session, mouse, x, y)
                    data = _intercepted(events)
                    if data is not None:
                        await _drag_event(session, "dragEnter", x, y, data, mouse.modifiers)
                else:
                    mouse.x, mouse.y = x, y
                    await _drag_event(session, "dragOver", x, y, data, mouse.modifiers)
            if data is None:
                with trio.move_on_after(0.05):  # the drag may be reported just after the last move
                    data = (await events.receive()).params.get("data")
                if data is not None:
                    await _drag_event(session, "dragEnter", args.end_x, args.end_y, data, mouse.modifiers)
                    await _drag_event(session, "dragOver", args.end_x, args.end_y, data, mouse.modifiers)
            if data is not None:
                await _drag_event(session, "drop", args.end_x, args.end_y, data, mouse.modifiers)
        finally:
            with trio.CancelScope(shield=True):
                await session.send("Input.setInterceptDrags", {"enabled": False}, timeout=5)
    await inputs.mouse_up(session, mouse, "left")
    return data is not None


@tool("input_mouse_drag", MouseDragInput, MessageOutput, records=True, effect="acts", open_world=True)
async def input_mouse_drag(session: ToolSession, args: MouseDragInput) -> MessageOutput:
    """Drag with the left button from one point to another."""
    async def drag(tab: Tab) -> str:
        dropped = await _drag(tab, args)
        kind = "; an HTML drag and drop was dropped there" if dropped else ""
        return f"dragged from {_at(args.start_x, args.start_y)} to {_at(args.end_x, args.end_y)} in {args.steps} steps{kind}"

    return await _act(session, drag)


# -- touch -------------------------------------------------------------------------------------------


class TouchTapInput(ToolInput):
    x: float
    y: float


class TouchSwipeInput(ToolInput):
    start_x: float
    start_y: float
    end_x: float
    end_y: float


async def _touch(tab: Tab, kind: str, points: list[tuple[float, float]]) -> None:
    await tab.session.send("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y} for x, y in points], "modifiers": tab.mouse.modifiers,
    })


@tool("input_touch_tap", TouchTapInput, MessageOutput, records=True, effect="acts", open_world=True)
async def input_touch_tap(session: ToolSession, args: TouchTapInput) -> MessageOutput:
    """Tap a point with a real touch."""
    async def tap(tab: Tab) -> str:
        await _touch(tab, "touchStart", [(args.x, args.y)])
        await _touch(tab, "touchEnd", [])
        return f"tapped at {_at(args.x, args.y)}"

    return await _act(session, tap)


@tool("input_touch_swipe", TouchSwipeInput, MessageOutput, records=True, effect="acts", open_world=True)
async def input_touch_swipe(session: ToolSession, args: TouchSwipeInput) -> MessageOutput:
    """Swipe from one point to another."""
    async def swipe(tab: Tab) -> str:
        await _touch(tab, "touchStart", [(args.start_x, args.start_y)])
        for i in range(1, TOUCH_MOVES + 1):
            x = args.start_x + (args.end_x - args.start_x) * i / TOUCH_MOVES
            y = args.start_y + (args.end_y - args.start_y) * i / TOUCH_MOVES
            await _touch(tab, "touchMove", [(x, y)])
        await _touch(tab, "touchEnd", [])
        return f"swiped from {_at(args.start_x, args.start_y)} to {_at(args.end_x, args.end_y)}"

    return await _act(session, swipe)
