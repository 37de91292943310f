"""WCAG 2.3.1's flash counting (audit.interactive.flash_analysis) on levels, animations and
GIF frames, without a browser."""

from __future__ import annotations

import io

from PIL import Image

from audit.interactive.flash_analysis import FLASH_AREA, animation_flashes, changes, image_flashes


def gif(colours, ms, size=32, loop=0):
    frames = [Image.new("RGB", (size, size), colour) for colour in colours]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=ms, loop=loop)
    return out.getvalue()


def test_changes_count_opposing_runs_of_enough_contrast():
    assert changes([0, 1, 0, 1, 0]) == 4
    assert changes([0, 0.5, 1, 0.5, 0]) == 2  # one way up, one way down
    assert changes([0.85, 1, 0.85]) == 0  # the darker state is not dark enough
    assert changes([0.2, 0.25, 0.2]) == 0  # too small a change
    assert changes([0.3]) == 0


def test_animation_flashes_by_direction_and_length():
    # Dark and light in each 100 ms iteration, jumping back: 20 changes, 10 flashes a second.
    assert animation_flashes([0, 1], 100, alternate=False, iterations=None, active_ms=None) == 10
    # Back and forth over 500 ms: 2 changes, 1 flash a second.
    assert animation_flashes([0, 1], 500, alternate=True, iterations=None, active_ms=None) == 1
    # Two iterations of 200 ms, then it stops: 4 changes in all.
    assert animation_flashes([0, 1, 0], 200, alternate=False, iterations=2, active_ms=400) == 2
    assert animation_flashes([0, 0], 50, alternate=False, iterations=None, active_ms=None) == 0


def test_image_flashes_need_speed_contrast_and_area():
    black, white = (0, 0, 0), (255, 255, 255)
    fast = image_flashes(gif([black, white], 100), 400, 300)
    assert fast is not None and fast.per_second == 5 and fast.area == 400 * 300 and fast.fails
    slow = image_flashes(gif([black, white], 500), 400, 300)
    assert slow is not None and slow.per_second == 1 and not slow.fails
    small = image_flashes(gif([black, white], 100), 100, 100)
    assert small is not None and small.per_second == 5 and small.area < FLASH_AREA and not small.fails
    dim = image_flashes(gif([black, (40, 40, 40)], 100), 400, 300)
    assert dim is not None and dim.per_second == 0
    # Half the picture flashes: half the area counts.
    half = [Image.new("RGB", (32, 32), black) for _ in range(2)]
    half[1].paste(white, (0, 0, 16, 32))
    out = io.BytesIO()
    half[0].save(out, "GIF", save_all=True, append_images=half[1:], duration=100, loop=0)
    flashing = image_flashes(out.getvalue(), 800, 600)
    assert flashing is not None and flashing.area == 800 * 600 / 2


def test_still_and_unreadable_images_are_not_judged():
    still = io.BytesIO()
    Image.new("RGB", (8, 8), (0, 0, 0)).save(still, "PNG")
    assert image_flashes(still.getvalue(), 400, 300) is None
    assert image_flashes(b"GIF89a not really", 400, 300) is None
