"""a11y-flashing: nothing flashes more than three times a second over a large area.

WCAG 2.3.1 Three Flashes or Below Threshold (A); sufficient technique G19. No ACT rule
covers it, and axe-core has no rule for it: flashing is seen only while the page plays.

Flashing can cause seizures. The check reads what may flash now (``js/flash_scan.js``): the
running CSS and Web animations of visible elements of at least 341 x 256 CSS px (25% of a
10-degree visual field, WCAG's general flash threshold) whose keyframes change their
brightness (background colour, opacity, visibility, a brightness or invert filter), with
their brightness at each keyframe; and the visible GIF, PNG and WebP images of that size,
whose frames it decodes from the file the page loaded (:mod:`.flash_analysis`, Pillow).
Smaller content cannot pass the threshold, however fast it blinks.

- ``failed``: an animation or an image flashes more than three times in one second (pairs of
  opposing changes of relative luminance of 0.1 or more, the darker below 0.8) over that area;
  for an image, over that much of it at the size the page shows it.
- ``cantTell``: an animation that would flash that often fades or hides content whose
  brightness its styles do not give (no background colour of its own, or a background image):
  check it by eye, or with a flash analysis tool.
- ``passed``: such content flashes three times a second or less, or over a smaller area.

Flashing drawn by a script (a timer that swaps a class or a background colour) is found from the
interaction world's log of the page's own restyling (``a11yProbe.restyled``): an element of that
size that changes brightness :data:`WATCH` ``minChanges`` times a second is reported with a
second of that history (the world reads an element's brightness at each change once it was
restyled twice within 300 ms). A page waits only to complete that second, or, when its log is
younger than a second and a script of the page runs an interval of :data:`SHORT_INTERVAL_MS`
or less (the readiness tracker's wake-ups), to give it that second. A flasher driven by chained
timeouts or animation frames on a page checked within a second of loading is missed.

Not judged: the red flash threshold, video and canvas. Cost: three page-side calls of a few
milliseconds; a large animated image is decoded (at most :data:`~.flash_analysis.MAX_FRAMES`
frames, about a millisecond each); a page with a script that may flash waits up to a second.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import trio

from cdpdriver.scripts import load_script

from .flash_analysis import (
    FLASH_AREA,
    MAX_FLASHES,
    animation_flashes,
    image_flashes,
    sampled_flashes,
)
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

LIMITS = {"area": FLASH_AREA, "items": 6}
#: Elements a script restyled this often within a second are watched this long, at most this many.
WATCH = {"area": FLASH_AREA, "minChanges": 8, "watchMs": 1100, "items": 3}
#: An interval of the page's this short or shorter may flash (eight changes a second, and some
#: slack for a slow timer): a page that runs one gets a second of restyling history.
SHORT_INTERVAL_MS = 200
#: The phase's time left below which no element is watched.
WATCH_RESERVE_S = 1.5
#: The phase's time left below which no image is decoded.
DECODE_RESERVE_S = 0.5


def _size(item: dict[str, Any]) -> str:
    return f"{item['width']} x {item['height']} px"


def _judged(item: dict[str, Any], flashes: int, what: str) -> Outcome:
    """The verdict on an element seen to flash ``flashes`` times in its busiest second."""
    if flashes <= MAX_FLASHES:
        return Outcome(Target.from_page(item), "passed", f"{what} flashes {flashes} times a second at most.")
    if item["known"]:
        return Outcome(Target.from_page(item), "failed", (
            f"{what} flashes {flashes} times a second between dark and light, over an area larger than 25% "
            "of a 10-degree visual field (341 x 256 px): more than three flashes a second can cause seizures. "
            "Slow it to three flashes a second or fewer, make the flashing area smaller, or lower the contrast "
            "of the change."
        ))
    return Outcome(Target.from_page(item), "cantTell", (
        f"{what} shows and hides its content {flashes} times a second; whether that is a flash depends on "
        "the content's brightness, which its styles do not give. Check it with a flash analysis tool, or "
        "slow it to three times a second or fewer."
    ))


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    found = await probe.call(load_script(__package__, "flash_scan"), LIMITS)
    if not found:
        return
    for item in found["animations"]:
        flashes = animation_flashes(
            item["levels"], item["iterationMs"], alternate=item["alternate"],
            iterations=item["iterations"], active_ms=item["activeMs"],
        )
        name = f" {item['name']!r}" if item["name"] else ""
        yield _judged(item, flashes, f"The animation{name} of {item['label']} ({_size(item)})")
    if probe.remaining() > WATCH_RESERVE_S:
        short = await probe.main_world(
            f"(globalThis[Symbol.for('a11y.wakes')] || (() => []))({SHORT_INTERVAL_MS}).includes('interval')"
        )
        watched = await probe.call(load_script(__package__, "flash_watch"), {**WATCH, "shortInterval": bool(short)})
        watched = watched or {"watched": []}
        for item in watched["watched"]:
            yield _judged(item, sampled_flashes(item["samples"]), f"{item['label']} ({_size(item)}), which a script restyles,")
    for item in found["images"]:
        if probe.remaining() < DECODE_RESERVE_S:
            break
        data = await probe.resource(item["url"])
        if not data:
            continue
        flashing = await trio.to_thread.run_sync(image_flashes, data, item["width"], item["height"])
        if flashing is None:
            continue  # not animated, or not readable: nothing to judge
        what = f"The animated image {item['label']} ({_size(item)})"
        if flashing.fails:
            yield Outcome(Target.from_page(item), "failed", (
                f"{what} flashes {flashing.per_second} times a second over {round(flashing.area):,} px² of it, more "
                "than 25% of a 10-degree visual field (341 x 256 px): more than three flashes a second can cause "
                "seizures. Slow its frames to three flashes a second or fewer, or show it smaller."
            ))
        else:
            yield Outcome(Target.from_page(item), "passed", (
                f"{what} flashes {flashing.per_second} times a second at most over an area large enough to matter."
                if flashing.area else f"{what} flashes no more than three times a second over a large area."
            ))


CHECK = InteractiveCheck(
    rule_id="a11y-flashing",
    act_rules=(),
    criteria=("2.3.1",),
    level="A",
    since="2.0",
    impact="critical",
    description="Ensures no content flashes more than three times a second over a large area",
    help="Content must not flash more than three times a second",
    run=run,
)
