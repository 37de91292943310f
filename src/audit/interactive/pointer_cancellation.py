"""a11y-pointer-cancellation: a control must not act on the down-event of the pointer.

WCAG 2.5.2 Pointer Cancellation (A), failure F101 (activating a control on the down-event).
No ACT rule covers it, so no ACT id is mapped.

A link or button that acts as soon as the mouse button goes down leaves no way out: a user
with a tremor who lands on the wrong control, or anyone who notices the mistake while
pressing, cannot slide off it before letting go, as they can with a native click. Only a
script listening for ``mousedown`` or ``pointerdown`` can act that early, so the check asks the
browser for those listeners (:meth:`~.probe.Probe.listening`); without one the rule does not
apply and nothing is pressed. An element with such a listener of its own is pressed; a
container that delegates gives its first two controls; a handler that only stops the event or
prevents its default does not count, nor do fields, selects, sliders and editable content,
where the browser's own down-event behaviour is expected (``js/pointer_down_targets.js``). At
most :data:`MAX_TARGETS` a page.

Each target is scrolled into view and, if nothing covers its centre, pressed there with the
real left button; the pointer stays down while a frame is drawn and a 0 ms timer runs, then
the button is let go at the window's top left corner, away from the control, as a user who
slips off it would. Meanwhile a :class:`~.focus_walk.ContextWatch` stops and records every
navigation to another document, notes windows the page asks to open and counts stopped form
submissions.

Fails: the press alone navigated (stopped or not), opened a window or submitted a form, and
did so again when repeated: what the down-event did cannot be reversed by the up-event, so
none of the criterion's options holds. Needs review: the same on the first press only (the
page's own timer may have done it). Passes: every target was pressed and none changed the
context before the release. Not decided: a listener on the document, the window, ``html`` or
``body`` (it hears every press; what it acts on is not known without pressing everything),
touch-only listeners, and down-events that change the page in place (a menu that opens on
press is allowed when letting go elsewhere closes it again, and telling that apart is left to
people). Cost: one listener query (shared with other checks); on pages with such listeners a
few milliseconds and one frame a target.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import trio

from cdpdriver import CDPError, JavaScriptError
from cdpdriver.scripts import load_script

from .focus_walk import Change, ContextWatch, left
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

MAX_TARGETS = 8
RESERVE = 0.25
#: What a press fires before the release: acting on it needs a listener for one of these.
DOWN_EVENTS = frozenset({"mousedown", "pointerdown"})
#: Where the button is let go: the window's corner, away from the control pressed.
AWAY = (0.0, 0.0)


class _Gone(Exception):
    """The page left its document after the release (not the press): nothing more to judge."""


def _name(target: dict[str, Any]) -> str:
    return f"{target['label']} ({target['text']!r})" if target["text"] else target["label"]


async def _press(probe: Probe, watch: ContextWatch, target: dict[str, Any]) -> list[Change] | None:
    """The changes of context a held press on the target made before its release; None when
    it could not be pressed (gone, hidden or covered)."""
    point = await probe.call(load_script(__package__, "pointer_down_point"), target["id"])
    if not point:
        return None
    await probe.move_mouse(point["x"], point["y"])
    await watch.changes()  # what hovering did, or a check before, is not the press's
    await probe.mouse_button("mousePressed", point["x"], point["y"])
    if not probe.navigated:
        await probe.frames(1)  # a handler that acts from a 0 ms timer has acted by then
    down = await watch.changes()
    if any(c.left for c in down):
        return down
    await probe.mouse_button("mouseReleased", *AWAY)
    if any(c.left for c in await watch.changes()):
        raise _Gone
    return down


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    if not DOWN_EVENTS & await probe.listener_types():
        return  # nothing can act on a press before its release: the rule does not apply
    targets = await probe.listening(DOWN_EVENTS, load_script(__package__, "pointer_down_targets"), MAX_TARGETS)
    if not targets:
        return  # no control a down-event listener acts for: the rule does not apply
    tried = 0
    found = 0
    async with ContextWatch(probe) as watch:
        for target in targets:
            if probe.remaining() <= RESERVE:
                break
            try:
                first = await _press(probe, watch, target)
                again = await _press(probe, watch, target) if first and not any(c.left for c in first) else None
            except _Gone:
                break
            except (CDPError, JavaScriptError, trio.TooSlowError):
                if not await left(probe):
                    raise
                first, again = [Change("navigation", left=True)], None
            if first is None:
                continue
            tried += 1
            if not first:
                continue
            found += 1
            said = "; ".join(dict.fromkeys(c.describe() for c in first))
            how = f"Pressing the mouse button on {_name(target)}, before letting it go"
            outcome = Target.from_page(target)
            if any(c.left for c in first) or again:
                yield Outcome(outcome, "failed", (
                    f"{how}: {said}{'' if any(c.left for c in first) else ' (again when repeated)'}. Acting on the "
                    "down-event leaves no way to cancel by moving off the control: act on the click (the up-event)."))
                if any(c.left for c in first):
                    return  # the page is gone; the phase loads it again
            else:
                yield Outcome(outcome, "cantTell", (
                    f"{how}: {said}, but not when pressed again: check whether pressing it, before the release, "
                    "changes the context."))
    if tried and not found:
        yield Outcome(Target(("html",), "<html>"), "passed", (
            f"Pressing {tried} control(s) that listen for the pointer going down, and letting go away from them, "
            "did not navigate, open a window or submit a form before the release."))


CHECK = InteractiveCheck(
    rule_id="a11y-pointer-cancellation",
    act_rules=(),
    criteria=("2.5.2",),
    level="A",
    since="2.1",
    impact="serious",
    description="Ensures controls do not navigate, open a window or submit a form as soon as the pointer goes down",
    help="Controls must act on the click, not on the pointer going down",
    run=run,
)
