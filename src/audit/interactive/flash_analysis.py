"""How often something flashes, by WCAG 2.3.1's definitions, from brightness over time.

A *flash* is a pair of opposing changes in relative luminance of 0.1 or more where the darker
state is below 0.8 (WCAG's general flash definition); content fails the *general flash
threshold* when it flashes more than three times in any one second over an area of 25% of a
10-degree visual field or more, which WCAG puts at 341 x 256 px (:data:`FLASH_AREA`).

Two sources, both pure functions here so that they can be tested without a browser:

- :func:`animation_flashes`: a CSS or Web animation's brightness at its keyframes (read by
  ``js/flash_scan.js``), repeated as the animation repeats (a jump from the last keyframe to
  the first between iterations, or back and forth when it alternates);
- :func:`sampled_flashes`: an element's brightness read each time a script restyled it
  (``js/flash_watch.js``);
- :func:`image_flashes`: the frames of an animated GIF, PNG or WebP, decoded with Pillow,
  each cut into a grid of :data:`GRID` x :data:`GRID` cells whose brightness is followed over
  time; the largest area whose cells each flash more than three times within the same second
  is compared with the threshold at the size the page shows the image.

The red flash threshold (saturated red) is not judged.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .luminance import luminance

#: 25% of a 10-degree visual field: 341 x 256 CSS px (WCAG 2.3.1's general flash threshold).
FLASH_AREA = 341 * 256
#: A change counts when luminance moves this much (of the maximum, 1.0) ...
MIN_CHANGE = 0.1
#: ... and the darker state is below this.
DARK_BELOW = 0.8
#: More flashes than this in one second fail.
MAX_FLASHES = 3
#: Cells per side of the grid an image's frames are read in.
GRID = 16
#: Frames read of an image, and how much of its time, at most.
MAX_FRAMES = 240
MAX_SPAN_MS = 3000
#: The delay browsers give a GIF frame that asks for less than 20 ms.
SHORT_FRAME_MS = 100


def changes(levels: Iterable[float]) -> int:
    """The opposing changes in a sequence of luminance levels: runs of one direction merged,
    each run counted when it moves :data:`MIN_CHANGE` or more with its darker end below
    :data:`DARK_BELOW`."""
    return len(_change_times(list(enumerate(levels))))


def _change_times(samples: Sequence[tuple[float, float]]) -> list[float]:
    """When each counted change of (time, level) samples is complete: the time of the sample
    that ends its run of one direction."""
    runs: list[tuple[float, float, float]] = []  # (level at start, level at end, end time)
    start = previous = None
    ended = 0.0
    direction = 0
    for at, level in samples:
        if previous is None:
            start = previous = level
            ended = at
            continue
        step = level - previous
        if step:
            turn = 1 if step > 0 else -1
            if direction and turn != direction:
                runs.append((start, previous, ended))
                start = previous
            direction = turn
        previous, ended = level, at
    if start is not None and previous is not None and direction:
        runs.append((start, previous, ended))
    return [at for a, b, at in runs if _counts(a, b)]


def _counts(a: float, b: float) -> bool:
    return abs(b - a) >= MIN_CHANGE and min(a, b) < DARK_BELOW


@dataclass(frozen=True)
class Flashing:
    """The most flashes seen in one second, and over how much area (CSS px²) at that rate."""

    per_second: int
    area: float

    @property
    def fails(self) -> bool:
        return self.per_second > MAX_FLASHES and self.area >= FLASH_AREA


def animation_flashes(levels: Sequence[float], iteration_ms: float, *, alternate: bool,
                      iterations: float | None, active_ms: float | None) -> int:
    """The flashes in the busiest second of an animation whose iterations take
    ``iteration_ms`` and go through ``levels`` (at its keyframes, in order); ``iterations``
    and ``active_ms`` None: for ever."""
    if iteration_ms <= 0 or len(levels) < 2:
        return 0
    if alternate:  # there and back: two iterations make one cycle, without a jump
        cycle, cycle_ms = [*levels, *reversed(levels[:-1])], 2 * iteration_ms
    else:  # each iteration ends with a jump back to its first keyframe
        cycle, cycle_ms = [*levels, levels[0]], iteration_ms
    window = 1000.0 if active_ms is None else min(1000.0, active_ms)
    if iterations is not None and iterations <= 1:
        cycle, cycle_ms = list(levels), iteration_ms
        window = min(window, iteration_ms)
    per_cycle = changes(cycle)
    return int(per_cycle * (window / cycle_ms)) // 2


def sampled_flashes(samples: Sequence[Sequence[float]]) -> int:
    """The flashes in the busiest second of (time ms, level) samples read as a script changed
    an element (each level holds until the next sample)."""
    times = _change_times([(float(at), float(level)) for at, level in samples])
    return max((_flashes_from(times, start) for start in times), default=0)


def image_flashes(data: bytes, width: float, height: float) -> Flashing | None:
    """The flashing of an animated image's frames shown at ``width`` x ``height`` CSS px, or
    None when it is not an animated image Pillow can read."""
    try:
        from PIL import Image, ImageSequence
    except ImportError:  # Pillow is a dependency; without it nothing is judged
        return None
    try:
        image = Image.open(io.BytesIO(data))
        if not getattr(image, "is_animated", False):
            return None
        frames: list[tuple[float, list[float]]] = []
        at = 0.0
        for frame in ImageSequence.Iterator(image):
            delay = float(frame.info.get("duration") or 0)
            cells = frame.convert("RGB").resize((GRID, GRID), Image.Resampling.BOX)
            raw = cells.tobytes()
            frames.append((at, [luminance(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]))
            at += SHORT_FRAME_MS if delay < 20 else delay
            if len(frames) >= MAX_FRAMES or at >= MAX_SPAN_MS:
                break
        loops = image.info.get("loop", 1) != 1 or "loop" not in image.info
    except (OSError, ValueError, SyntaxError, EOFError):
        return None
    if len(frames) < 2:
        return None
    if loops:  # a looping image plays on: read a second round, so a short loop fills a second
        span = at
        rounds = max(1, math.ceil(1000 / span)) if span > 0 else 1
        frames = [(t + span * r, cells) for r in range(rounds + 1) for t, cells in frames][:MAX_FRAMES * 2]
    cell_area = width * height / (GRID * GRID)
    per_cell = [_change_times([(t, cells[i]) for t, cells in frames]) for i in range(GRID * GRID)]
    best = Flashing(0, 0.0)
    for start in sorted({t for t, _ in frames}):
        counts = [_flashes_from(times, start) for times in per_cell]
        found = Flashing(max(counts), sum(1 for c in counts if c > MAX_FLASHES) * cell_area)
        if (found.fails, found.area, found.per_second) > (best.fails, best.area, best.per_second):
            best = found
    return best


def _flashes_from(times: Sequence[float], start: float) -> int:
    """The flashes (pairs of changes) among change ``times`` in the second from ``start``."""
    return sum(1 for t in times if start <= t < start + 1000) // 2


