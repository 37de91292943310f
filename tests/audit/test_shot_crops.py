"""Many shots from one capture, without a browser (:mod:`audit.shot_crops`): which clips share
a capture, and what is cut from it: the element's pixels, outlined, at the device scale, PNG
or JPEG by the policy's limit, and the thumbnail scaled down."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageDraw

from audit.shot_crops import (
    CAPTURE_COST_PIXELS,
    MAX_CAPTURE_SIDE,
    Cut,
    Encoding,
    Rect,
    cut_region,
    image_size,
    plan_regions,
)

ENCODING = Encoding(png_limit=48_000, quality=80, thumbnail_quality=70)
MAGENTA = (208, 0, 111)


def _members(plan: list[tuple[Rect, list[int]]]) -> list[int]:
    return sorted(i for _, members in plan for i in members)


def _covers(region: Rect, clip: Rect) -> bool:
    return (region.x <= clip.x and region.y <= clip.y
            and clip.right <= region.right and clip.bottom <= region.bottom)


def test_clips_near_each_other_share_one_capture():
    clips = [Rect(40 + 90 * i, 100 + 180 * i, 112, 72) for i in range(10)]
    plan = plan_regions(clips, 1.0)
    assert len(plan) == 1 and _members(plan) == list(range(10))
    region = plan[0][0]
    assert all(_covers(region, clip) for clip in clips)


def test_far_apart_clips_are_captured_apart_and_every_clip_is_in_exactly_one_region():
    # Two corners of a wide, tall page: one region holding both would be mostly empty.
    clips = [Rect(0, 0, 100, 100), Rect(3000, 9000, 100, 100)]
    plan = plan_regions(clips, 1.0)
    assert [members for _, members in plan] == [[0], [1]]

    rng = random.Random(23)
    for scale in (1.0, 2.0, 3.0):
        clips = [Rect(rng.randrange(0, 1200), rng.randrange(0, 30_000), rng.randrange(1, 300),
                      rng.randrange(1, 300)) for _ in range(40)]
        plan = plan_regions(clips, scale)
        assert _members(plan) == list(range(40))
        for region, members in plan:
            assert region.fits(scale)
            assert all(_covers(region, clips[m]) for m in members)
            if len(members) > 1:  # joined only where it paid: no more than one capture's cost of waste each
                waste = region.device_pixels(scale) - sum(clips[m].device_pixels(scale) for m in members)
                assert waste <= CAPTURE_COST_PIXELS * (len(members) - 1)


def test_no_capture_is_taller_than_the_limit():
    # A narrow column of boxes down a page twice the limit: cheap to join, too tall for one.
    clips = [Rect(10, 400 * i, 50, 50) for i in range(2 * MAX_CAPTURE_SIDE // 400)]
    plan = plan_regions(clips, 1.0)
    assert len(plan) >= 2 and all(region.height <= MAX_CAPTURE_SIDE for region, _ in plan)
    at_two = plan_regions(clips, 2.0)
    assert all(region.height * 2 <= MAX_CAPTURE_SIDE for region, _ in at_two) and len(at_two) > len(plan)


def _capture(region: Rect, scale: float, boxes: dict[tuple[int, int, int], Rect]) -> bytes:
    """A PNG as a capture of ``region`` at ``scale`` would be: white, with coloured boxes."""
    image = Image.new("RGB", (round(region.width * scale), round(region.height * scale)), "white")
    draw = ImageDraw.Draw(image)
    for colour, box in boxes.items():
        draw.rectangle(((box.x - region.x) * scale, (box.y - region.y) * scale,
                        (box.right - region.x) * scale - 1, (box.bottom - region.y) * scale - 1), fill=colour)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _open(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_each_cut_is_its_element_outlined_at_the_device_scale():
    region = Rect(0, 100, 800, 600)
    boxes = {(255, 0, 0): Rect(50, 150, 120, 40), (0, 160, 0): Rect(400, 500, 60, 60),
             (0, 0, 255): Rect(700, 620, 80, 30)}
    for scale in (1.0, 2.0):
        png = _capture(region, scale, boxes)
        cuts = [Cut(Rect(b.x - 16, b.y - 16, b.width + 32, b.height + 32),
                    {"x": b.x, "y": b.y, "width": b.width, "height": b.height}) for b in boxes.values()]
        images = cut_region(png, region, scale, cuts, ENCODING)
        for (colour, box), image in zip(boxes.items(), images, strict=True):
            assert image.media_type == "image/png"
            assert (image.width, image.height) == image_size(image.data) == (
                round((box.width + 32) * scale), round((box.height + 32) * scale))
            picture = _open(image.data)
            centre = (image.width // 2, image.height // 2)
            assert picture.getpixel(centre) == colour
            # The outline: 3 px of magenta 4 px outside the element, white either side of it.
            assert picture.getpixel((round(13 * scale), centre[1])) == MAGENTA
            assert picture.getpixel((round(10 * scale), centre[1])) == (255, 255, 255)
            assert picture.getpixel((round(15 * scale), centre[1])) == (255, 255, 255)
            assert picture.getpixel((round(2 * scale), centre[1])) == (255, 255, 255)  # the margin


def test_a_cut_over_the_png_limit_is_jpeg_and_the_thumbnail_is_scaled_down():
    region = Rect(0, 0, 1280, 720)
    noise = Image.frombytes("RGB", (600, 400), random.Random(5).randbytes(600 * 400 * 3))
    page = Image.new("RGB", (1280, 720), "white")
    page.paste(noise, (100, 100))
    out = io.BytesIO()
    page.save(out, "PNG")
    photo, thumbnail = cut_region(out.getvalue(), region, 1.0, [
        Cut(Rect(84, 84, 632, 432), {"x": 100, "y": 100, "width": 600, "height": 400}),
        Cut(Rect(0, 0, 1280, 720), thumbnail_width=320),
    ], ENCODING)
    assert photo.media_type == "image/jpeg" and (photo.width, photo.height) == (632, 432)
    assert image_size(photo.data) == (632, 432)
    assert thumbnail.media_type == "image/jpeg" and (thumbnail.width, thumbnail.height) == (320, 180)
    assert image_size(thumbnail.data) == (320, 180)
