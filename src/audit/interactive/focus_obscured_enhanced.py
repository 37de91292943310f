"""a11y-focus-obscured-enhanced: no part of an element with keyboard focus may be hidden by content the author put over it.

WCAG 2.4.12 Focus Not Obscured (Enhanced) (AAA, new in 2.2). No ACT rule covers it, so no ACT
id is mapped. The AA criterion (entirely hidden) is :mod:`.focus_obscured`, whose docstring
describes the measurement: the same 9 points of each element the shared focus visits
(:mod:`.focus_walk`) reached with a real Tab, hit-tested once the browser scrolled it into
view.

Fails: an element with any of its points under opaque fixed or sticky content, still so
after Escape (content the user can dismiss without moving focus does not count), and not a
modal dialog (that case is the AA rule's review item). Passes: no point of any reached
element is covered, or no fixed or sticky content is on screen. A wholly covered element
carries the walk's shot of it focused (:attr:`~.focus_walk.Step.shot`); a partly covered one
the run's element shot. Cost: nothing beyond the shared visits.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from . import focus_walk
from .focus_obscured import _passed
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
        if not covered or step.revealed or covered["modal"] or found >= MAX_ITEMS:
            continue
        found += 1
        part = "all" if covered["covered"] == covered["total"] else f"part ({covered['covered']} of 9 points sampled)"
        yield Outcome(Target.from_page(step.state), "failed", (
            f"{step.how} moved focus to {name(step.state)}, and {covered['by']['label']} (fixed or sticky content) "
            f"covers {part} of it once the browser has scrolled it into view. Keep focused elements wholly clear "
            "of it, e.g. with scroll-padding on the scrolling element."), shot=step.shot)
    if not found:
        yield Outcome(Target(("html",), "<html>"), "passed", _passed(walk))


CHECK = InteractiveCheck(
    rule_id="a11y-focus-obscured-enhanced",
    act_rules=(),
    criteria=("2.4.12",),
    level="AAA",
    since="2.2",
    impact="moderate",
    description="Ensures no part of an element with keyboard focus is hidden by fixed or sticky content",
    help="Focused elements must be wholly visible, not partly under fixed content",
    run=run,
)
