"""a11y-focus-contrast: the ring that is all focus shows reaches 3:1 against what it is drawn over.

WCAG 1.4.11 Non-text Contrast (AA, since 2.1): visual information required to identify a user
interface component's state, focus included, has a contrast ratio of at least 3:1 against the
colours next to it. No ACT rule covers it; axe-core never focuses anything.

a11y-focus-visible fails an element on which focus changes nothing. This check takes the ones
on which it changes something, but only a ring: an author's outline (``outline: 1px dotted
#ccc``), or a box shadow with spread and no blur (Bootstrap's ``0 0 0 .25rem`` ring at a
quarter opacity is one). The same readings of the shared focus visits (:mod:`.focus_walk`,
``js/focus_looks.js``) note, for an element whose own outline or shadow is all that differs
with focus, the ring's colour at its opacity over what it is drawn over (the colour behind the
element, or the element's own background for a ring inside it, a negative ``outline-offset``
or an inset shadow). Below 3:1, what is near the element (what it contains, its siblings and
five ancestors) is read with focus and after it: the element fails when nothing else there
changed, since a ring the user can hardly see is then all that shows where focus is.

Not judged: the browser's own focus ring (``outline-style: auto``), soft shadows, an indicator
made of other changes (a background, a colour, an underline), and an element under a focus
listener (the page's script may draw more a moment later). Cost: nothing on a page where focus
shows some other way; a short reading for each faint ring.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from . import focus_walk
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    walk = await focus_walk.walk(probe)
    looks = walk.looks
    if not looks or not looks.get("judged"):
        return
    faint = looks.get("faint") or []
    if not looks.get("rings"):
        return
    for element in faint:
        yield Outcome(Target.from_page(element), "failed", (
            f"Focusing {element.get('label') or 'the element'} draws only its {element['what']}, at "
            f"{element['ratio']:.2f}:1 ({element['fg']} on {element['bg']}), below the 3:1 a focus indicator needs: "
            "people with low vision cannot see where focus is. Darken the ring or draw it thicker in a colour "
            "that contrasts with the page."))
    if not faint:
        yield Outcome(Target(("html",), "<html>"), "passed", (
            f"Each of the {looks['rings']} focus ring(s) that were all focus showed reaches 3:1."))


CHECK = InteractiveCheck(
    rule_id=focus_walk.RINGS_RULE,
    act_rules=(),
    criteria=("1.4.11",),
    level="AA",
    since="2.1",
    impact="serious",
    description="Ensures a focus ring that is all focus shows has 3:1 contrast with what it is drawn over",
    help="Focus indicators must have sufficient contrast",
    run=run,
)
