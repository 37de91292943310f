"""Many element shots cut from one capture: the geometry and the image work, no browser.

Why: a capture is a round trip through the compositor and an image encoder, about 50 ms
however small the clip, while cutting a box out of a decoded image costs next to nothing. So
the elements a page is shot for (and its thumbnail) are captured together, as few regions as
pays (:func:`plan_regions`), and each element's shot is cut from its region here, outlined
here (the same marks the page-side outline draws), and encoded here (PNG, or JPEG when the
PNG is over the policy's limit, as before).

Why not always the whole page in one capture: its cost grows with its area. Measured on
Chromium 156 (1280 px wide, ten boxes spread down the page), the capture and decode of the
whole page took 0.2 s at 2,500 px tall but 0.64 s at 16,000 px, more than ten captures of
the boxes one by one (0.49 s). So two clips share a region only when the region is at most
:data:`CAPTURE_COST_PIXELS` device pixels larger than the two apart (about what one more
capture costs), and no region is over :data:`MAX_CAPTURE_SIDE` device pixels on a side (the
usual GPU texture limit: headless Chromium's software rendering here captured 26,000 px whole,
a browser compositing on a GPU may not) or :data:`MAX_CAPTURE_PIXELS` in all (the decoded
image is 3 bytes a pixel). An element whose shot alone is over either is shot by itself.
"""

from __future__ import annotations

import io
import math
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pillow is imported where an image is cut: most audits never cut one, and
    # its import is a tenth of a second that every process starting the engine would pay
    from PIL import Image

#: The tallest (or widest) capture, in device pixels.
MAX_CAPTURE_SIDE = 16384
#: The largest capture, in device pixels (about 72 MB decoded).
MAX_CAPTURE_PIXELS = 24_000_000
#: What one capture costs, as the device pixels that cost as much to capture and decode more.
CAPTURE_COST_PIXELS = 1_500_000
#: The outline drawn around an element: (CSS px outside its border box, width, colour),
#: outermost first; the marks of ``js/evidence_shots.js``'s overlay (a 3 px border 4 px
#: outside the element, a white ring outside it and a white line inside it).
OUTLINE = ((6, 2, (255, 255, 255)), (4, 3, (208, 0, 111)), (1, 1, (255, 255, 255)))


@dataclass(frozen=True)
class Rect:
    """A rectangle in the top document's CSS pixels, whole pixels."""

    x: int
    y: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.x + self.width

    @property
    def bottom(self) -> int:
        return self.y + self.height

    def device_pixels(self, scale: float) -> float:
        return self.width * self.height * scale * scale

    def union(self, other: Rect) -> Rect:
        left, top = min(self.x, other.x), min(self.y, other.y)
        return Rect(left, top, max(self.right, other.right) - left, max(self.bottom, other.bottom) - top)

    def covers(self, other: Rect) -> bool:
        return (self.x <= other.x and self.y <= other.y
                and other.right <= self.right and other.bottom <= self.bottom)

    def fits(self, scale: float) -> bool:
        """Whether one capture can hold it (see the module docstring)."""
        return (max(self.width, self.height) * scale <= MAX_CAPTURE_SIDE
                and self.device_pixels(scale) <= MAX_CAPTURE_PIXELS)

    def as_clip(self) -> dict[str, int]:
        return {"x": self.x, "y": self.y, "width": self.width, "height": self.height}


def clip_box(box: Mapping[str, float], view: Mapping[str, float], margin: float) -> dict[str, int] | None:
    """The clip of a shot in the top document's CSS pixels: ``box`` grown by ``margin`` on each
    side, to whole pixels, and cut to the visible ``view`` (which also keeps it on the page);
    None when nothing of it is visible."""
    left = max(math.floor(box["x"] - margin), math.ceil(view["scrollX"]), 0)
    top = max(math.floor(box["y"] - margin), math.ceil(view["scrollY"]), 0)
    right = min(math.ceil(box["x"] + box["width"] + margin), math.floor(view["scrollX"] + view["width"]))
    bottom = min(math.ceil(box["y"] + box["height"] + margin), math.floor(view["scrollY"] + view["height"]))
    if right <= left or bottom <= top:
        return None
    return {"x": left, "y": top, "width": right - left, "height": bottom - top}


def plan_regions(clips: Sequence[Rect], scale: float) -> list[tuple[Rect, list[int]]]:
    """The regions to capture and the clips (by index) each holds, top first: each clip, from
    the top, joins the region it adds the fewest pixels to when that is at most
    :data:`CAPTURE_COST_PIXELS` and the region still :meth:`fits <Rect.fits>`, else starts
    its own. Every clip must fit on its own."""
    regions: list[tuple[Rect, list[int]]] = []
    for index in sorted(range(len(clips)), key=lambda i: (clips[i].y, clips[i].x)):
        clip = clips[index]
        best: tuple[float, int, Rect] | None = None
        for at, (region, _) in enumerate(regions):
            merged = region.union(clip)
            cost = merged.device_pixels(scale) - region.device_pixels(scale) - clip.device_pixels(scale)
            if cost <= CAPTURE_COST_PIXELS and merged.fits(scale) and (best is None or cost < best[0]):
                best = (cost, at, merged)
        if best is None:
            regions.append((clip, [index]))
        else:
            _, at, merged = best
            regions[at] = (merged, [*regions[at][1], index])
    return regions


def image_size(data: bytes) -> tuple[int, int]:
    """(width, height) in pixels of a PNG or baseline/progressive JPEG; (0, 0) otherwise."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:2] != b"\xff\xd8":
        return 0, 0
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return 0, 0
        marker = data[at + 1]
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return int(width), int(height)
        at += 2 + length
    return 0, 0


@dataclass(frozen=True)
class Cut:
    """One image to cut from a region: ``clip`` (CSS px of the document), outlined around
    ``box`` (an element's border box, CSS px) when given; a thumbnail when ``thumbnail_width``
    is set (scaled down to at most that width, JPEG, no outline)."""

    clip: Rect
    box: Mapping[str, float] | None = None
    thumbnail_width: int = 0


@dataclass(frozen=True)
class Encoded:
    media_type: str
    data: bytes
    width: int
    height: int


@dataclass(frozen=True)
class Encoding:
    """How cuts are encoded: the policy's PNG limit and JPEG qualities."""

    png_limit: int
    quality: int
    thumbnail_quality: int


def cut_region(png: bytes, region: Rect, scale: float, cuts: Sequence[Cut], encoding: Encoding) -> list[Encoded]:
    """Each cut of ``cuts`` from the capture ``png`` of ``region`` (taken at ``scale`` device
    pixels per CSS pixel), in order. CPU work: call it in a thread."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as opened:
        image = opened.convert("RGB")
    return [_cut(image, region, scale, cut, encoding) for cut in cuts]


def _device(value: float, scale: float) -> int:
    return round(value * scale)


def _cut(image: Image.Image, region: Rect, scale: float, cut: Cut, encoding: Encoding) -> Encoded:
    left = _device(cut.clip.x - region.x, scale)
    top = _device(cut.clip.y - region.y, scale)
    size = (max(1, _device(cut.clip.width, scale)), max(1, _device(cut.clip.height, scale)))
    piece = image.crop((left, top, left + size[0], top + size[1]))
    if cut.thumbnail_width:
        ratio = min(1.0, cut.thumbnail_width / size[0])
        small = (max(1, round(size[0] * ratio)), max(1, round(size[1] * ratio)))
        if small != size:
            from PIL import Image

            piece = piece.resize(small, Image.Resampling.LANCZOS)
        return _encode(piece, "JPEG", quality=encoding.thumbnail_quality)
    if cut.box is not None:
        _outline(piece, cut.box, cut.clip, scale)
    shot = _encode(piece, "PNG")
    if len(shot.data) > encoding.png_limit:
        return _encode(piece, "JPEG", quality=encoding.quality)
    return shot


def _outline(piece: Image.Image, box: Mapping[str, float], clip: Rect, scale: float) -> None:
    from PIL import ImageDraw

    draw = ImageDraw.Draw(piece)
    for grow, width, colour in OUTLINE:
        left = _device(box["x"] - grow - clip.x, scale)
        top = _device(box["y"] - grow - clip.y, scale)
        right = _device(box["x"] + box["width"] + grow - clip.x, scale)
        bottom = _device(box["y"] + box["height"] + grow - clip.y, scale)
        if right > left and bottom > top:
            draw.rectangle((left, top, right - 1, bottom - 1), outline=colour, width=max(1, _device(width, scale)))


def _encode(piece: Image.Image, fmt: str, *, quality: int | None = None) -> Encoded:
    out = io.BytesIO()
    if fmt == "JPEG":
        piece.save(out, "JPEG", quality=quality)
        return Encoded("image/jpeg", out.getvalue(), *piece.size)
    piece.save(out, "PNG", compress_level=6)
    return Encoded("image/png", out.getvalue(), *piece.size)
