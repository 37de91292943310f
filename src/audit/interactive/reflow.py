"""a11y-reflow: at 320 CSS pixels wide, content must not need scrolling in two dimensions.

No ACT rule. WCAG 1.4.10 Reflow (AA, since 2.1): content can be presented without loss of
information or functionality, and without scrolling in two dimensions, at a width of 320 CSS
pixels (1280 px at 400% zoom), except for parts that need a two-dimensional layout to be used
or understood: data tables, code, maps and diagrams, video, games, toolbars.

axe-core reads the page at the size it was loaded; a layout that breaks when the window is
narrow shows only when it is. The check lays the page out 320 CSS pixels wide (desktop rules,
as a desktop browser zoomed to 400%: a ``meta viewport`` is not consulted) and, when the
document then scrolls sideways, finds what sticks out past the window's edge (the left edge
in a right-to-left page): the line boxes of text, images, media and controls, not empty boxes,
and only the part that scrolling the document shows (a part inside a box that scrolls or
clips on its own is that box's business). Each piece is charged to the outermost box that
sticks out with it (a 900 px wide ``div``), or to its own element when only the content
overflows (a long word or URL), and classed (a box out of the flow that the phase's own actions
opened or moved is left out: ``a11yProbe.openedInPhase``):

- ``failed``: text, navigation or form controls stick out :data:`TOLERANCE` px (a tenth of the
  width) or more.
- ``cantTell``: only images (a photo should scale; a map or diagram may need two
  dimensions, and the markup rarely says which), frames or tables without header cells
  stick out; or the root clips sideways (``overflow-x: hidden``) and text is cut at the
  window's edge with no way to scroll to it.
- ``passed``: nothing sticks out, or only exempt content does (data tables, ``pre``/``code``,
  ``svg``/``canvas``, media, images named as maps or diagrams, grids and toolbars).

Evidence: the first failed or undecided culprits are shot at 320 CSS px wide
(:meth:`Probe.state_shot <audit.interactive.probe.Probe.state_shot>`), when the run takes
screenshots.

Cost: one relayout to 320 x 256 and back (when a11y-zoom-clipped-text runs too, the page goes
from its 640 x 512 straight to 320 x 256: the phase orders windows widest first), the frame that
runs the page's answer to the new size only when a script may answer it (:mod:`.new_size`),
and one page-side call that reads the boxes of the elements whose own box or content reaches
past the edge (a few milliseconds on a page that reflows; the read is capped at :data:`LIMITS` ``ms``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from cdpdriver.scripts import load_script

from .new_size import after_new_size
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

WIDTH, HEIGHT = 320, 256
#: Content reaching less than this far past the edge (a tenth of the width) is not counted:
#: an italic overhang, a hanging space, the end of a long word in a row of cards that shifts
#: the page a few pixels, none of which makes reading scroll to and fro along every line.
TOLERANCE = 32
LIMITS = {"tolerance": TOLERANCE, "texts": 6000, "elements": 3000, "culprits": 8, "ms": 120}
#: Findings per page, at most: the widest boxes first.
MAX_REPORTED = 3


def _what(culprit: dict[str, Any]) -> str:
    kinds = " and ".join(culprit["kinds"][:2])
    sample = f' ("{culprit["sample"]}")' if culprit.get("sample") else ""
    return f"{kinds}{sample}"


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    async with probe.screen(WIDTH, HEIGHT):
        await after_new_size(probe)  # the page's resize handlers run (menus that collapse by script)
        found = await probe.call(load_script(__package__, "reflow"), LIMITS)
        # Judged, and the culprits shot, while the page is this narrow: only then do they stick out.
        outcomes = await probe.with_state_shots(_judged(found), f"at {WIDTH} CSS px wide")
    for outcome in outcomes:
        yield outcome


def _judged(found: dict[str, Any] | None) -> Iterator[Outcome]:
    """The outcomes of what the page-side read found at :data:`WIDTH` px."""
    if not found:
        return
    document = Target(("html",), "<html>")
    scroll, culprits = found["scroll"], found["culprits"]
    at = f"At {WIDTH} CSS px wide"
    if found["rootClips"]:
        cut = [c for c in culprits if c["kind"] == "ordinary" and c["cut"]]
        for culprit in cut[:MAX_REPORTED]:
            yield Outcome(Target.from_page(culprit), "cantTell", (
                f"{at} the page cannot scroll sideways (overflow-x is hidden on the root) and {culprit['label']} "
                f"is cut at the window's edge: its {_what(culprit)} reaches {culprit['reach']} px past it. "
                "Check that no information is lost; let the content wrap instead."
            ))
        if not cut:
            yield Outcome(document, "passed", f"{at} no text is cut at the window's edge.")
        return
    if scroll <= 1:
        yield Outcome(document, "passed", f"{at} the page does not scroll sideways.")
        return
    ordinary = [c for c in culprits if c["kind"] == "ordinary"]
    unclear = [c for c in culprits if c["kind"] == "unclear"]
    for culprit in ordinary[:MAX_REPORTED]:
        sample = f' ("{culprit["sample"]}")' if culprit.get("sample") else ""
        yield Outcome(Target.from_page(culprit), "failed", (
            f"{at} the page scrolls {scroll} px sideways: {culprit['label']} ({culprit['boxWidth']} px wide) puts "
            f"{culprit['why']}{sample} {culprit['reach']} px past the window's edge. Reading it needs scrolling in "
            "two directions; give the box a flexible width (max-width: 100%, no fixed widths, let long words break)."
        ))
    for culprit in unclear[: max(0, MAX_REPORTED - len(ordinary))]:
        yield Outcome(Target.from_page(culprit), "cantTell", (
            f"{at} the page scrolls {scroll} px sideways because of {culprit['why']} in {culprit['label']}, "
            f"{culprit['reach']} px past the window's edge. Unless it needs two dimensions to be understood "
            "(a map, a diagram, a data table), let it scale to the window (max-width: 100%)."
        ))
    if not ordinary and not unclear:
        exempt = sorted({c["why"] for c in culprits})
        seen = f"only {', '.join(exempt)} sticks out, which may need two dimensions" if exempt else (
            f"no text, image or control reaches {TOLERANCE} px past the window's edge")
        yield Outcome(document, "passed", f"{at} the page scrolls {scroll} px sideways, but {seen}.")


CHECK = InteractiveCheck(
    rule_id="a11y-reflow",
    act_rules=(),
    criteria=("1.4.10",),
    level="AA",
    since="2.1",
    impact="serious",
    description="Ensures content reflows at 320 CSS pixels wide without scrolling in two dimensions",
    help="Content must not need horizontal scrolling at 320 CSS pixels wide",
    run=run,
    cost="relayout",
    screen=(WIDTH, HEIGHT),
)
