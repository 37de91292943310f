"""A page's element shots and thumbnail from as few captures as pay, usually one
(:mod:`.shot_crops` says why and how they are planned and cut).

The page is scrolled to its top (where its thumbnail is), every element's border box is read
in one call (``boxes`` of ``js/evidence_shots.js``), the regions planned are captured beyond
the viewport (Chromium renders the page as it lies at this scroll, without resizing it, so
the boxes read are where the capture shows them; the capture is PNG encoded for speed, as it
is cut up, never kept), and each region is cut in a thread.

Some elements cannot be cut from a capture of the page as it lies, and are left to the
element-by-element shot (:meth:`audit.screenshots._Camera.element`, which scrolls each into
view first): one that a scrolling ancestor or its frame's viewport hides in part, one whose
shot would be larger than the viewport (that shot shows the viewport's worth around it), and
one no capture could hold. A region whose capture fails sends its elements there too.

Results arrive in a :class:`Together` filled region by region, so a page whose time runs
out keeps what was cut by then.
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import trio

from cdpdriver import CDPError

from .shot_crops import Cut, Encoded, Encoding, Rect, clip_box, cut_region, plan_regions

log = logging.getLogger(__name__)

#: The key of the thumbnail among a region's cuts.
THUMBNAIL = -1


class RegionCamera(Protocol):
    """What this module needs of the page's camera."""

    async def boxes(self, selectors: list[str]) -> dict[str, Any]: ...

    async def region(self, clip: dict[str, int]) -> bytes: ...


@dataclass
class Together:
    """What the shared captures gave, by the index of each selector asked: images cut, the
    reason an element has none, and the elements left to be shot one by one."""

    scale: float = 1.0
    thumbnail: Encoded | None = None
    #: The thumbnail was not part of a capture (the viewport has no size, or is too large).
    thumbnail_alone: bool = False
    shots: dict[int, Encoded] = field(default_factory=dict)
    skipped: dict[int, str] = field(default_factory=dict)
    alone: list[int] = field(default_factory=list)
    #: The CSS px scale of a thumbnail: device pixels per CSS pixel times its scale-down.
    thumbnail_scale: float = 1.0


async def shoot_together(
    camera: RegionCamera, selectors: Sequence[str], *, thumbnail_width: int, margin: int,
    encoding: Encoding, into: Together,
) -> None:
    """Fill ``into`` with the shots of ``selectors`` (and the page's thumbnail, unless
    ``thumbnail_width`` is 0). Raises what the camera raises for the page as a whole."""
    read = await camera.boxes(list(selectors))
    view, page = read["view"], read["page"]
    scale = into.scale = float(view["dpr"])
    whole = {"scrollX": 0, "scrollY": 0, "width": float(page["width"]), "height": float(page["height"])}
    cuts: dict[int, Cut] = {}
    for index, found in enumerate(read["boxes"]):
        if "skip" in found:
            into.skipped[index] = str(found["skip"])
            continue
        clip = clip_box(found["box"], whole, margin)
        if clip is None:
            into.skipped[index] = "outside the part of the page that can be scrolled into view"
            continue
        rect = Rect(**clip)
        if not found["whole"] or rect.width > view["width"] or rect.height > view["height"] or not rect.fits(scale):
            into.alone.append(index)
            continue
        cuts[index] = Cut(rect, found["box"])
    if thumbnail_width:
        width, height = math.floor(view["width"]), math.floor(view["height"])
        rect = Rect(0, 0, width, height)
        if width > 0 and height > 0 and rect.fits(scale):
            cuts[THUMBNAIL] = Cut(rect, thumbnail_width=thumbnail_width)
            into.thumbnail_scale = round(min(1.0, thumbnail_width / (width * scale)) * scale, 4)
        else:
            into.thumbnail_alone = True
    keys = list(cuts)
    for region, members in plan_regions([cuts[k].clip for k in keys], scale):
        wanted = [keys[m] for m in members]
        try:
            png = await camera.region(region.as_clip())
        except CDPError as exc:  # that region only: its elements are tried one by one
            log.info("a capture of %d shots failed, shot one by one: %s", len(wanted), exc)
            into.alone.extend(k for k in wanted if k != THUMBNAIL)
            into.thumbnail_alone = into.thumbnail_alone or THUMBNAIL in wanted
            continue
        work: Callable[[], list[Encoded]] = functools.partial(
            cut_region, png, region, scale, [cuts[k] for k in wanted], encoding)
        images = await _in_thread(work)
        for key, image in zip(wanted, images, strict=True):
            if key == THUMBNAIL:
                into.thumbnail = image
            else:
                into.shots[key] = image
    into.alone.sort()


def _in_thread(work: Callable[[], list[Encoded]]) -> Awaitable[list[Encoded]]:
    """Pillow's decoding and encoding, off the event loop; abandoned (not awaited) when the
    page's time runs out, so the budget holds."""
    return trio.to_thread.run_sync(work, abandon_on_cancel=True)
