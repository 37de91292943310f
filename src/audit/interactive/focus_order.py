"""a11y-focus-order: Tab must not take focus to what cannot be seen, nor jump against the reading order.

WCAG 2.4.3 Focus Order (A). No ACT rule covers it, so no ACT id is mapped.

axe-core sees the markup of a page as loaded, not where focus goes nor how the page looks
while an element has it. This check reads the shared focus visits (:mod:`.focus_walk`): every
element of the focus order that is invisible before it gets focus (a skip link, a visually
hidden control, a link in a collapsed menu) is reached with a real Tab and measured once the
browser scrolled it into view and its transitions settled (an image map's ``area``, which has
no box of its own, as the part of its image its coordinates name); the order itself (tabindex
above 0, the elements' positions) is read from the page.

Fails: a link or a button that stays invisible while it has focus: transparent, without size,
clipped to nothing (CSS clip, an inset() clip path, an ancestor's overflow) or outside the
window where the browser cannot scroll it. A skip link that moves into view when focused is
visible, so it passes. Needs review: any other element that is invisible while focused (a
frame, a scripted widget; a visually hidden checkbox or field whose label can be seen
passes), an element whose ``tabindex`` above 0 puts it before elements that come earlier in
the document and sit above it on screen, and a walk where focus goes far up the page and
straight back down within one column and one landmark (the source order may not match the
visual order). Positive tabindex alone is not a failure and is not reported.

Cost: the shared plan (one page-side call) and a Tab press and read (some 5 to 10 ms) per
element hidden before focus, at most 4; the walk from the top that pages listening for focus
events get is shared with three other checks.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from . import focus_walk
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

#: Outcomes per page, at most.
MAX_ITEMS = 10

HIDDEN_WHY = {
    "opacity": "it is transparent (opacity 0) or hidden",
    "size": "it has no size",
    "clipped": "it is clipped to nothing (CSS clip, a clip path or an ancestor that hides its overflow)",
    "off-screen": "it lies outside the window, where the browser cannot scroll it",
}


def name(state: dict[str, Any]) -> str:
    return f"{state['label']} ({state['text'][:40]!r})" if state.get("text") else state["label"]


def hidden_outcome(step: focus_walk.Step) -> Outcome | None:
    state = step.state
    why = state.get("hidden")
    if not why or (state["kind"] == "field" and state.get("labelShown")):
        return None
    seen = f"{step.how} moved focus to {name(state)}, which stayed invisible while it had focus: {HIDDEN_WHY[why]}."
    if state["kind"] in ("link", "button"):
        return Outcome(Target.from_page(state), "failed", seen + (
            " Make it visible when it has focus (as a skip link does), or take it out of the focus order "
            "while it is hidden (display: none, the hidden attribute or inert)."))
    return Outcome(Target.from_page(state), "cantTell", seen + (
        " Check that a keyboard user can tell where focus is; if it is not meant to be used, take it out of "
        "the focus order."))


def jumps(plan: dict[str, Any]) -> list[Outcome]:
    """The places where the order goes far up the page and straight back down, within one
    column and one landmark (``js/focus_walk_begin.js`` finds them)."""
    return [
        Outcome(Target.from_page(j["b"]), "cantTell", (
            f"Focus order jumps against the reading order: after {name(j['a'])}, Tab moves focus {j['rise']} px up "
            f"the page to {name(j['b'])}, then back down to {name(j['c'])}. Check that its place in the source "
            "matches where it appears."))
        for j in plan.get("jumps") or []
    ]


def positive_tabindex(plan: dict[str, Any]) -> list[Outcome]:
    return [
        Outcome(Target.from_page(p), "cantTell", (
            f"tabindex=\"{p['tabindex']}\" makes Tab reach {p['label']} before {p['jumped']} element(s) that come "
            f"earlier in the document and sit above it (the first: {p['first']}). Check that this order keeps the "
            "page's meaning and operation; tabindex=\"0\" and the source order usually do."))
        for p in plan.get("positive") or []
    ]


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    walk = await focus_walk.walk(probe)
    if walk.left_after is not None or not walk.plan.get("count"):
        return  # nothing takes focus (or the page left: the change-on-focus check says so)
    found = [o for o in (hidden_outcome(s) for s in walk.steps if s.state) if o is not None]
    found += positive_tabindex(walk.plan) + jumps(walk.plan)
    for outcome in found[:MAX_ITEMS]:
        yield outcome
    if not found:
        seen = (f"the {len(walk.steps)} that Tab was pressed to, those hidden until focused among them, could be "
                "seen while focused" if walk.steps else "none is hidden before it gets focus")
        yield Outcome(Target(("html",), "<html>"), "passed", (
            f"The {walk.plan['count']} element(s) in the focus order follow the page, and {seen}."))


CHECK = InteractiveCheck(
    rule_id="a11y-focus-order",
    act_rules=(),
    criteria=("2.4.3",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures Tab moves focus only to elements that can be seen, in an order that follows the page",
    help="Focus must not go to invisible elements or jump against the reading order",
    run=run,
)
