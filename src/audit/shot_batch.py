"""A page's element shots and thumbnail from as few captures as pay, usually one
(:mod:`.shot_crops` says why and how they are planned and cut).

The page is scrolled to its top (where its thumbnail is), every element's border box is read
in one call (``boxes`` of ``js/evidence_shots.js``), the regions are captured (PNG encoded
for speed, as it is cut up, never kept), and each region is cut in a thread.

Each region is captured the cheapest way that shows the page as it lies at its top, where
the boxes were read (:class:`_Spot`): inside the viewport (the thumbnail always, and on most
pages of a crawl everything, once its problems have their shots) as the viewport shows it;
below it but no larger, scrolled into view when its elements are then where they were and
nothing covers them; otherwise beyond the viewport from the top. Chromium renders that as
the page lies, but lays the whole document out again at its full size and back to do so
(the page sees a ``resize``), which on a page of 40,000 elements takes over a second a
capture (measured on Python's ``contents.html``: 1.4 s beyond the viewport, 0.07 s inside
it), against some 10 ms more on an ordinary page. Both show the same pixels for a clip the
viewport holds.

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

    async def region(self, clip: dict[str, int], *, beyond_viewport: bool) -> bytes: ...

    async def reveal(self, clip: dict[str, int], selectors: list[str]) -> dict[str, Any]: ...

    async def top(self) -> None: ...


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
    spot, keys = _Spot(camera, view), list(cuts)
    for region, members in _regions(cuts, view, scale):
        wanted = [keys[m] for m in members]
        try:
            png = await spot.capture(region, wanted, selectors, cuts)
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


def _regions(cuts: dict[int, Cut], view: dict[str, Any], scale: float) -> list[tuple[Rect, list[int]]]:
    """The regions to capture and the cuts (by their place in ``cuts``) each holds: one of
    the viewport when every cut is inside it, else as planned."""
    clips = [cut.clip for cut in cuts.values()]
    if clips and all(_shown(view).covers(clip) for clip in clips):
        return [(functools.reduce(Rect.union, clips), list(range(len(clips))))]
    return plan_regions(clips, scale)


def _shown(view: dict[str, Any]) -> Rect:
    """The part of the top document the viewport shows."""
    return Rect(math.ceil(view["scrollX"]), math.ceil(view["scrollY"]),
                math.floor(view["width"]), math.floor(view["height"]))


class _Spot:
    """Captures each region the cheapest way that shows the page as it lies at its top,
    where the boxes were read: a region inside the viewport as it is shown; one that fits
    the viewport scrolled into it, when its elements are then where they were and nothing
    covers them (no sticky header or sidebar moved over them, none of them moved with the
    scroll); any other beyond the viewport, from the top."""

    def __init__(self, camera: RegionCamera, view: dict[str, Any]) -> None:
        self.camera = camera
        self.view = view
        self.at_top = True

    async def capture(
        self, region: Rect, wanted: list[int], selectors: Sequence[str], cuts: dict[int, Cut]
    ) -> bytes:
        """The PNG of ``region``, which holds the cuts ``wanted`` (keys of ``cuts``, the
        elements' indexes in ``selectors``, or the thumbnail's)."""
        clip = region.as_clip()
        if self.at_top and _shown(self.view).covers(region):
            return await self.camera.region(clip, beyond_viewport=False)
        fits = region.width <= self.view["width"] and region.height <= self.view["height"]
        if fits and THUMBNAIL not in wanted:  # the thumbnail is the top of the page
            self.at_top = False
            placed = await self.camera.reveal(clip, [selectors[key] for key in wanted])
            if _shown(placed["view"]).covers(region) and all(
                _unmoved(found, cuts[key].box) for key, found in zip(wanted, placed["boxes"], strict=True)
            ):
                return await self.camera.region(clip, beyond_viewport=False)
        if not self.at_top:
            await self.camera.top()
            self.at_top = True
        return await self.camera.region(clip, beyond_viewport=True)


def _unmoved(found: dict[str, Any] | None, box: dict[str, float] | None) -> bool:
    """Whether an element revealed by scrolling shows, where its box was read at the top."""
    if found is None or box is None or not found["shows"]:
        return False
    return all(abs(float(found[side]) - float(box[side])) <= 0.5 for side in ("x", "y", "width", "height"))


def _in_thread(work: Callable[[], list[Encoded]]) -> Awaitable[list[Encoded]]:
    """Pillow's decoding and encoding, off the event loop; abandoned (not awaited) when the
    page's time runs out, so the budget holds."""
    return trio.to_thread.run_sync(work, abandon_on_cancel=True)
