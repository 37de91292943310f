"""a11y-zoom-clipped-text: text must not be cut off by CSS overflow when the page is zoomed.

ACT rule 59br37 (Zoomed text node is not clipped with CSS overflow); WCAG 1.4.4 Resize Text
(AA): text can be resized to 200% without loss of content.

A box of fixed size that hides its overflow cuts the text it holds once the text needs more
room, and zooming is what makes it need more. The check lays the page out at 640 x 512 CSS
pixels, which is a 1280 x 1024 window zoomed to 200% (desktop rules), and follows the line
boxes of the visible text under each element whose overflow is hidden or ``clip`` and that
overflows (at most :data:`LIMITS` ``clippers`` of them, :data:`LIMITS` ``perClipper`` text
nodes each) up the flat tree: an ancestor that scrolls keeps what it hides reachable; one that
hides overflow is blamed for what it hides. Absolutely and fixed positioned text escapes the
ancestors below its containing block; text with nothing left to show (a collapsed panel, an
off-screen slide, a 1 px "visually hidden" box, ``aria-hidden`` text) is not judged.

- ``failed``, on the clipping element: it hides more than half a character of a line
  sideways, or a whole line or a quarter of a line's height, except (as ACT 59br37 allows)
  sideways with ``white-space: nowrap`` and a ``text-overflow`` other than ``clip`` (the
  ellipsis shows the cut), or downwards from a box one line high (its ``line-height`` at
  least its height, the shown line whole): a deliberate one-line teaser. A
  ``-webkit-line-clamp`` box (it shows an ellipsis) is let pass too.
- ``cantTell``: the cut text sits in one of several boxes laid side by side (a carousel's
  slide, which the carousel's controls bring in), or a "Read more" control beside the box
  may show the rest.
- ``passed``: visible text has an ancestor that hides overflow, and none of it is cut.

Evidence: the first failed or undecided boxes are shot at 640 x 512 (:meth:`Probe.state_shot
<audit.interactive.probe.Probe.state_shot>`), when the run takes screenshots.

Before any relayout, the page's styles are read (``js/clip_possible.js``): when no author
rule at any level (media queries included), inline style, open shadow root's sheet or element
that clips by default (``marquee``, an ``object``'s fallback) hides overflow, and every style
sheet could be read, nothing can be cut at any size and the check is inapplicable without
laying the page out again. Its one limit: a script that sets ``overflow: hidden`` only when
the window narrows, from no rule of the page.

Cost: that read (under a millisecond on most pages), then, where something may clip, one
relayout to 640 x 512 and back (or on to a11y-reflow's 320 x 256, which then puts the page's
own size back), and one page-side call (a few milliseconds; the read stops after
:data:`LIMITS` ``ms``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from cdpdriver.scripts import load_script

from .new_size import after_new_size
from .probe import Probe
from .scans import first_read
from .spec import InteractiveCheck, Outcome, Scan, Target

WIDTH, HEIGHT = 640, 512
LIMITS = {"elements": 6000, "clippers": 60, "perClipper": 40, "ms": 80}
MAX_REPORTED = 5


def _cut(item: dict[str, Any]) -> str:
    box = f"{item['label']} (overflow: {item['overflow']}; {item['width']} x {item['height']} px)"
    if item["axis"] == "x":
        return f"{box} hides {item['hiddenWidth']} px of the line sideways"
    if item["hiddenLines"]:
        return f"{box} hides {item['hiddenLines']} of its {item['lines']} lines"
    return f"{box} cuts a line through its letters"


#: The first read, made with the other checks' as the phase begins (:mod:`.scans`).
SCAN = Scan(load_script(__package__, "clip_possible"))


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    if not await first_read(probe, SCAN):
        return  # nothing can hide overflow at any size: inapplicable, and no relayout
    async with probe.screen(WIDTH, HEIGHT):
        await after_new_size(probe)
        found = await probe.call(load_script(__package__, "text_layout"), "clipped", LIMITS)
        # Judged, and the cut text shot, while zoomed: at the page's own size it may fit.
        state = f"at {WIDTH} x {HEIGHT} CSS px (200% zoom)"
        outcomes = await probe.with_state_shots(_judged(found), state)
    for outcome in outcomes:
        yield outcome


def _judged(found: dict[str, Any] | None) -> Iterator[Outcome]:
    """The outcomes of what the page-side read found at 200% zoom."""
    if not found or not found["applies"]:
        return
    at = f"At {WIDTH} x {HEIGHT} CSS px (1280 x 1024 zoomed to 200%)"
    for item in found["failed"][:MAX_REPORTED]:
        yield Outcome(Target.from_page(item), "failed", (
            f"{at} {_cut(item)}: \"{item['sample']}\" is cut off. Let the box grow with its text (min-height "
            "instead of height, no fixed width in px) or let it scroll."
        ))
    for item in found["review"][: max(0, MAX_REPORTED - len(found["failed"]))]:
        where = ("it is one of several boxes side by side (a carousel?), which its controls may bring in"
                 if item["why"] == "a slide" else "a control beside it may show the rest")
        yield Outcome(Target.from_page(item), "cantTell", (
            f"{at} {_cut(item)}: \"{item['sample']}\" is cut off, but {where}. Check that no text is lost when zoomed."
        ))
    if not found["failed"] and not found["review"]:
        yield Outcome(Target(("html",), "<html>"), "passed",
                      f"{at} no text is cut off by an element that hides its overflow.")


CHECK = InteractiveCheck(
    rule_id="a11y-zoom-clipped-text",
    act_rules=("59br37",),
    criteria=("1.4.4",),
    level="AA",
    since="2.0",
    impact="serious",
    description="Ensures text zoomed to 200% is not cut off by elements that hide their overflow",
    help="Zoomed text must not be clipped by CSS overflow",
    run=run,
    cost="relayout",
    screen=(WIDTH, HEIGHT),
    scan=SCAN,
)
