"""a11y-text-spacing: text must stay whole and readable with the spacing WCAG 1.4.12 allows users.

No ACT rule (ACT's text-spacing rules, axe-core's ``avoid-inline-spacing`` among them, judge
the author's inline ``!important`` styles, which a user's style sheet cannot override; this
check judges what the spacing does to the layout). WCAG 1.4.12 Text Spacing (AA, since 2.1):
no loss of content or functionality with line height 1.5 times the font size, letters spaced
0.12 em, words 0.16 em and paragraphs followed by 2 em.

Boxes sized for the author's text (a fixed height, a one-line button with ``overflow:
hidden``) cut the same text once it needs more room, or let it spill over the text below. The
check sets the four spacings on every element with a temporary style sheet of ``!important``
rules (what a user's bookmarklet does), reads the layout, and removes the sheet in the same
page-side call, so the page is never seen with it. It follows the line boxes of up to
:data:`LIMITS` ``texts`` visible text nodes up the flat tree before and after, as
a11y-zoom-clipped-text does (an ancestor that scrolls keeps its overflow reachable, one that
hides it is blamed), and compares:

- ``failed``: text that was whole before is now cut by an element that hides its overflow
  (more than half a character sideways, a whole line, or a quarter of a line's height), on
  that element; or the line boxes of two texts that did not overlap before now overlap, on
  the first text's element.
- ``cantTell``: text that is now cut short with an ellipsis (``text-overflow``): check that
  its full wording is available.
- ``passed``: visible text, and none of the above.

Text whose spacing the author set inline with ``!important`` is left out (the style sheet
cannot change it: axe-core's ``avoid-inline-spacing`` reports that), and so is text inside
elements that are animating (their boxes move between the two reads), icon-font glyphs and
text that is not visible; nor is an overlap with a box out of the flow that the phase's own
actions opened (a date picker left open by a field's focus stays where its script put it
while the text around it grows: ``a11yProbe.openedInPhase``).

Evidence: when the run takes screenshots and something failed, the spacing is put on again
(``js/spacing_sheet.js``, the same rules) for the first failures' state shots
(:meth:`Probe.state_shot <audit.interactive.probe.Probe.state_shot>`), and taken off.

Cost: two relayouts of the page at its own size (the sheet added, then removed) and two
reads of the text's line boxes, in one page-side call (about 10-40 ms on a typical page; the
collection stops after :data:`LIMITS` ``ms``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import trio

from cdpdriver import CDPError, JavaScriptError
from cdpdriver.scripts import load_script

from .probe import CALL_TIMEOUT, Probe
from .spec import InteractiveCheck, Outcome, Target

LIMITS = {"texts": 1500, "reported": 5, "ms": 60}
SPACING = "line height 1.5, letter spacing 0.12 em, word spacing 0.16 em, 2 em after paragraphs"


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    found = await probe.call(load_script(__package__, "text_layout"), "spacing", LIMITS)
    outcomes = list(_judged(found))
    if probe.takes_state_shots and any(o.verdict != "passed" for o in outcomes):
        outcomes = await _shot_with_spacing(probe, outcomes)
    for outcome in outcomes:
        yield outcome


async def _shot_with_spacing(probe: Probe, outcomes: list[Outcome]) -> list[Outcome]:
    """The outcomes, the first failures shot with the spacing put on again for the time of the
    shots (the measurement took it off at once), and off again on every path."""
    sheet = load_script(__package__, "spacing_sheet")
    try:
        await probe.call(sheet, True)
        return await probe.with_state_shots(outcomes, "with WCAG 1.4.12 text spacing")
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(CALL_TIMEOUT):
            try:
                await probe.call(sheet, False)
            except (CDPError, JavaScriptError, trio.TooSlowError):
                pass


def _judged(found: dict[str, Any] | None) -> Iterator[Outcome]:
    """The outcomes of what the page-side measurement found."""
    if not found or not found["applies"]:
        return
    with_spacing = f"With WCAG 1.4.12's text spacing ({SPACING})"
    reported = 0
    for item in found["clipped"]:
        if item["axis"] == "x":
            cut = f"hides {item['hiddenWidth']} px of a line sideways"
        elif item["hiddenLines"]:
            cut = f"hides {item['hiddenLines']} of its {item['lines']} lines"
        else:
            cut = "cuts a line through its letters"
        yield Outcome(Target.from_page(item), "failed", (
            f"{with_spacing} {item['label']}, which hides its overflow, {cut}: \"{item['sample']}\" is cut off. "
            "Let the box grow with its text (no fixed height or width for text, min-height instead)."
        ))
        reported += 1
    for item in found["overlaps"][: max(0, LIMITS["reported"] - reported)]:
        yield Outcome(Target.from_page(item), "failed", (
            f"{with_spacing} the text of {item['label']} (\"{item['sample']}\") overlaps the text of "
            f"{item['otherLabel']} (\"{item['otherSample']}\"), which it did not before. Let the boxes grow "
            "with their text instead of fixing their height or position."
        ))
        reported += 1
    for item in found["ellipsis"][: max(0, LIMITS["reported"] - reported)]:
        yield Outcome(Target.from_page(item), "cantTell", (
            f"{with_spacing} {item['label']} cuts \"{item['sample']}\" short with an ellipsis. Check that its "
            "full wording is available (shown elsewhere, or the box can grow)."
        ))
        reported += 1
    if not reported:
        yield Outcome(Target(("html",), "<html>"), "passed", (
            f"{with_spacing} none of {found['checked']} visible texts was cut off or ran into other text."
        ))


CHECK = InteractiveCheck(
    rule_id="a11y-text-spacing",
    act_rules=(),
    criteria=("1.4.12",),
    level="AA",
    since="2.1",
    impact="serious",
    description="Ensures no text is cut off or overlaps other text when users increase text spacing",
    help="Text must stay readable with increased line, letter, word and paragraph spacing",
    run=run,
    cost="relayout",
)
