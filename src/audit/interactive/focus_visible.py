"""a11y-focus-visible: focusing an element changes how the page looks.

ACT rule oj04fd (Element in sequential focus order has visible focus); WCAG 2.4.7 Focus Visible
(AA).

axe-core has no rule for it: whether focus shows depends on styles that apply only while an
element has focus, so the page has to be used. The check is part of the focus visits the focus
checks share (:mod:`.focus_walk`), which list the sequential focus order once: after the Tab
presses, the first :data:`~.focus_walk.LOOKS_LIMIT` elements of that order in the top document
are focused as the keyboard would (``focusVisible``, without scrolling), one after the other
(``js/focus_looks.js``). Transitions a focus change starts are run to their end first. An
element whose own outline, shadow, background, colour, underline or bottom border differs from
how it looked before anything had focus shows focus. For any other, what may show it is read
while it has focus and again once it lost it: the computed outline, shadow, borders,
background, colours, text decoration, opacity, transform and box of the element, of what it
contains, of its nearest siblings and its five nearest ancestors (with ``::before`` and
``::after`` close to it), and of whatever the page's focus handlers changed. Once a handler has
changed the document, every element after that is read the second way. Those readings are all
made in one task; widgets often react to focus or blur a moment later (jQuery UI's menu takes
its item's highlight away in a timeout), so when the page changed by itself afterwards, the
failed elements under a focus listener are tried again with its timers let run between the
readings (:func:`.focus_walk._recheck`).

Fails: a link, a button or any other control on which focus changes nothing. Needs review: a
text field on which it changes nothing (its caret may be all the sign it has), and a failed
element there was no time left to try again. Not judged: an
element that does not keep focus, a frame or embedded content itself (an ``iframe``,
``object`` or ``embed``: its focus shows inside it) and the elements in frames (moving focus
into a frame would move it in the page around it), and every element of a document without focus, where no focus style
applies (the engine's tabs emulate a focused page, :mod:`audit.tab_setup`, so that every audit,
one tab or many, judges the same elements). Focus, selection, scroll position and transitions
are put back afterwards.

Cost: one page-side call; one focus and a short reading per element, about 0.2 ms each on a
typical page (the second way costs about twice that); 300 ms of work stops it early.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from . import focus_walk
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target


def _name(element: dict[str, Any]) -> str:
    return str(element.get("label") or "the element")


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    walk = await focus_walk.walk(probe)
    looks = walk.looks
    if not looks or not looks.get("judged"):
        return
    for element in looks["failed"]:
        yield Outcome(Target.from_page(element), "failed", (
            f"Focusing {_name(element)} as the keyboard does changes nothing on the page (its outline, shadow, "
            "border, background, colours, what it contains and its surroundings look the same): keyboard users "
            "cannot see where focus is. Give it a visible :focus-visible style, such as an outline."))
    for element in looks.get("unconfirmed") or []:
        yield Outcome(Target.from_page(element), "cantTell", (
            f"Focusing {_name(element)} as the keyboard does changed nothing at once, and the page listens for "
            "focus: its script may show focus a moment later, which there was no time left to try. Check that "
            "focus shows on it."))
    for element in looks["review"]:
        yield Outcome(Target.from_page(element), "cantTell", (
            f"Focusing the text field {_name(element)} changes no style; check that more than its caret shows "
            "where focus is."))
    if not looks["failed"] and not looks["review"]:
        yield Outcome(Target(("html",), "<html>"), "passed", (
            f"Focusing each of the first {looks['judged']} element(s) of the focus order changes how it or "
            "something around it looks."))


CHECK = InteractiveCheck(
    rule_id=focus_walk.LOOKS_RULE,
    act_rules=("oj04fd",),
    criteria=("2.4.7",),
    level="AA",
    since="2.0",
    impact="serious",
    description="Ensures an element in sequential focus order looks different when it has focus",
    help="Keyboard focus must be visible",
    run=run,
)
