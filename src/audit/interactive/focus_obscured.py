"""a11y-focus-obscured: an element with keyboard focus must not be entirely hidden by content the author put over it.

WCAG 2.4.11 Focus Not Obscured (Minimum) (AA, new in 2.2). No ACT rule covers it, so no ACT
id is mapped. Its AAA sibling, 2.4.12 (no part hidden), is :mod:`.focus_obscured_enhanced`.

Sticky headers and footers, cookie banners and chat buttons are fixed over the page; when Tab
scrolls an element into view it can end up under them, and a keyboard user loses track of
focus. The check reads the shared focus visits (:mod:`.focus_walk`). When fixed or sticky
content is on screen, the elements of the first screen it covers and a few below the first
screen are reached with a real Tab from the element before each (and every element the walk
from the top reaches, on pages that listen for focus events). Once the browser has scrolled
the element into view and its transitions and smooth scrolling have settled, 9 points spread
over its visible part are hit-tested (``elementsFromPoint``): a point counts as covered when
something above the element there belongs to fixed or sticky content and is opaque (a
background, an image, a control); the element's own ancestors and descendants, transparent
wrappers and ``pointer-events: none`` layers do not count. An element covered at every point
gets an Escape while it keeps focus: if that uncovers it, the user can reveal it without
moving focus, which the criterion allows.

Fails: an element covered at all 9 points, still covered after Escape. Needs review: the
same when what covers it is a modal dialog (focus escaped the dialog, a problem of its own).
Passes: no fixed or sticky content on screen, or every element reached had a point left
uncovered. Cost: the shared plan (one page-side call); with fixed content, a Tab press and
read (some 5 to 10 ms) for at most 6 elements, an Escape per covered one. A failing element
is shown as it was, focused under the fixed content (the walk's :attr:`~.focus_walk.Step.shot`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from . import focus_walk
from .focus_order import name
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

MAX_ITEMS = 10


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    walk = await focus_walk.walk(probe)
    if walk.left_after is not None or not walk.plan.get("count"):
        return  # nothing takes focus (or the page left: the change-on-focus check says so)
    found = 0
    for step in walk.steps:
        covered = step.state.get("obscured") if step.state else None
        if not covered or step.revealed or covered["covered"] < covered["total"] or found >= MAX_ITEMS:
            continue
        found += 1
        seen = (f"{step.how} moved focus to {name(step.state)}, and {covered['by']['label']} covers all of it "
                "once the browser has scrolled it into view")
        if covered["modal"]:
            yield Outcome(Target.from_page(step.state), "cantTell", seen + (
                ", a modal dialog: focus left the dialog. Keep focus inside an open modal dialog."))
            continue
        yield Outcome(Target.from_page(step.state), "failed", seen + (
            " (fixed or sticky content, still there after Escape). Keep focused elements clear of it, e.g. "
            "with scroll-padding on the scrolling element, or make it smaller or dismissible."), shot=step.shot)
    if not found:
        yield Outcome(Target(("html",), "<html>"), "passed", _passed(walk))


def _passed(walk: focus_walk.Walk) -> str:
    if not walk.plan.get("layers"):
        return "No fixed or sticky content is on the screen: nothing can hide a focused element."
    return (f"Fixed or sticky content is on the screen, but none of the {len(walk.steps)} element(s) Tab was pressed "
            "to (those it may cover) was hidden by it while focused.")


CHECK = InteractiveCheck(
    rule_id="a11y-focus-obscured",
    act_rules=(),
    criteria=("2.4.11",),
    level="AA",
    since="2.2",
    impact="serious",
    description="Ensures an element with keyboard focus is not entirely hidden by fixed or sticky content",
    help="Focused elements must not be hidden by sticky headers, footers or banners",
    run=run,
)
