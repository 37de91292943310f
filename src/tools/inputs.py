"""Real input events (``Input.dispatch*``), never synthetic DOM events.

The mouse position and pressed buttons live on the tab so that separate
down / move / up calls compose into a real drag.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cdpdriver import Session
from cdpdriver.keys import char_def, key_event

BUTTON_BITS = {"left": 1, "right": 2, "middle": 4, "back": 8, "forward": 16}


@dataclass
class MouseState:
    x: float = 0.0
    y: float = 0.0
    pressed: set[str] = field(default_factory=set)
    # Keyboard modifiers held down (input_keyboard_down); mouse events carry them, so
    # holding Shift then clicking is a real Shift+click.
    modifiers: int = 0

    @property
    def buttons(self) -> int:
        return sum(BUTTON_BITS[b] for b in self.pressed)


def check_button(button: str | None) -> str:
    name = (button or "left").lower()
    if name not in BUTTON_BITS:
        raise ValueError(f"button must be one of {', '.join(BUTTON_BITS)} (got {button!r})")
    return name


def _mouse_params(kind: str, mouse: MouseState, *, button: str = "none", click_count: int = 0,
                  **extra: Any) -> dict[str, Any]:
    """``Input.dispatchMouseEvent`` for the mouse as it is now (position, buttons and
    keyboard modifiers held)."""
    return {
        "type": kind, "x": mouse.x, "y": mouse.y, "button": button, "buttons": mouse.buttons,
        "clickCount": click_count, "modifiers": mouse.modifiers, **extra,
    }


# The mouse's state changes, each returning the event that reports it: one place for what a
# move, a press and a release do, whether sent alone or batched (:func:`click`).


def _moved(mouse: MouseState, x: float, y: float) -> dict[str, Any]:
    mouse.x, mouse.y = x, y
    return _mouse_params("mouseMoved", mouse, button=next(iter(mouse.pressed), "none"))


def _pressed(mouse: MouseState, button: str, click_count: int) -> dict[str, Any]:
    mouse.pressed.add(button)
    return _mouse_params("mousePressed", mouse, button=button, click_count=click_count)


def _released(mouse: MouseState, button: str, click_count: int) -> dict[str, Any]:
    mouse.pressed.discard(button)
    return _mouse_params("mouseReleased", mouse, button=button, click_count=click_count)


async def mouse_move(session: Session, mouse: MouseState, x: float, y: float, steps: int = 1) -> None:
    start_x, start_y = mouse.x, mouse.y
    for i in range(1, max(1, steps) + 1):
        fraction = i / max(1, steps)
        step = _moved(mouse, start_x + (x - start_x) * fraction, start_y + (y - start_y) * fraction)
        await session.send("Input.dispatchMouseEvent", step)


async def mouse_down(session: Session, mouse: MouseState, button: str = "left", click_count: int = 1) -> None:
    await session.send("Input.dispatchMouseEvent", _pressed(mouse, button, click_count))


async def mouse_up(session: Session, mouse: MouseState, button: str = "left", click_count: int = 1) -> None:
    await session.send("Input.dispatchMouseEvent", _released(mouse, button, click_count))


async def click(session: Session, mouse: MouseState, x: float, y: float, *, button: str = "left",
                click_count: int = 1) -> None:
    """Move, then press and release ``click_count`` times (a double click is 1 then 2).

    The events go as one batch: the page still gets each one in order and handles it before
    the next (a press makes the renderer dispatch the move it holds for the next animation
    frame first), but the click costs one round trip instead of a frame and one per event.
    """
    async with session.batch() as batch:
        batch.send("Input.dispatchMouseEvent", _moved(mouse, x, y))
        for count in range(1, click_count + 1):
            batch.send("Input.dispatchMouseEvent", _pressed(mouse, button, count))
            batch.send("Input.dispatchMouseEvent", _released(mouse, button, count))
    for reply in batch.replies:
        reply.result()  # the first failure, as sending them one by one would have raised it


async def wheel(session: Session, mouse: MouseState, delta_x: float, delta_y: float) -> None:
    await session.send("Input.dispatchMouseEvent", _mouse_params("mouseWheel", mouse, deltaX=delta_x, deltaY=delta_y))


async def type_text(session: Session, text: str) -> None:
    """Type like a keyboard: real key events per character; characters off the layout are inserted."""
    for char in text:
        key = char_def(char)
        if key.code:
            await key_event(session, "keyDown", key)
            await key_event(session, "keyUp", key)
        else:
            await session.send("Input.insertText", {"text": char})
