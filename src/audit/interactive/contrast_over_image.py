"""a11y-contrast-over-image: text over a background image, measured on the pixels behind it.

WCAG 1.4.3 Contrast (Minimum) (AA): text reaches 4.5:1 against its background (3:1 when
large: 24 px, or 18.66 px bold). No ACT id is mapped: ACT rule afw4f7 leaves text over
images to the tester's judgment, and axe-core answers it for the rest.

axe-core reads colours from styles, so text over a background image or gradient (a hero
banner's headline on a photo) is its commonest "cannot tell": it asks a person. The pixels can
answer. The check finds the elements whose own text lies over a background image or gradient
(the first of their ancestors with a background that is an image or gradient, before any
opaque colour: ``js/contrast_image_candidates.js``), at most :data:`LIMITS` ``elements``. Their
text is hidden (coloured transparent, shadows off: the layout does not move), the box of its
lines is shot, the text shown again, and the text's colour is composed over every pixel
behind it (a sample of at most :data:`SAMPLES`). Of the ratios, the tenth and ninetieth
percentiles decide:

- ``failed`` when even the ninetieth percentile is below the ratio: the text is too faint
  over nine tenths of what is behind it;
- ``passed`` when even the tenth percentile reaches it;
- ``cantTell`` when the background varies across the ratio (part of the text is readable,
  part not), and when text with a shadow or stroke does not pass: the halo, which the pixels
  of the background alone do not show, may be what sets it apart.

axe-core's own ``color-contrast`` item for the same text stays a needs-review item: this rule
is the measurement beside it. Limits: text over an image element positioned behind it (not a
CSS background) is not found; the shot is of the page's current frame, so an image still
loading or a moving background is read as it is then.

Cost: one page-side call on every page (a walk of the text up to the first opaque
background); where text lies over an image, two more calls and one clipped screenshot per
element (tens of ms each), within :data:`MAX_SECONDS`.
"""

from __future__ import annotations

import base64
import io
from collections.abc import AsyncIterator
from typing import Any

import trio

from cdpdriver import CDPError
from cdpdriver.scripts import load_script

from .luminance import contrast, luminance
from .probe import Probe
from .scans import first_read
from .spec import InteractiveCheck, Outcome, Scan, Target

LIMITS = {"elements": 8, "texts": 3000}
#: The first read, made with the other checks' as the phase begins (:mod:`.scans`).
SCAN = Scan(load_script(__package__, "contrast_image_candidates"), (LIMITS, None))
#: The check's own time at most, and pixels sampled per element at most.
MAX_SECONDS = 1.5
SAMPLES = 20_000
SHOT_TIMEOUT = 5.0


def _rgba(value: str) -> tuple[int, int, int, float] | None:
    """A computed colour (``rgb(...)``/``rgba(...)``) as (r, g, b, alpha), or None."""
    if not value.startswith("rgb"):
        return None
    parts = [p.strip() for p in value[value.index("(") + 1 : value.rindex(")")].replace("/", ",").split(",")]
    try:
        r, g, b = (round(float(p)) for p in parts[:3])
        alpha = float(parts[3]) if len(parts) > 3 else 1.0
    except (ValueError, IndexError):
        return None
    return r, g, b, alpha


def ratios(png: bytes, text: tuple[int, int, int, float]) -> list[float]:
    """The contrast of ``text`` (composed over each pixel at its alpha) with each sampled pixel
    of ``png``, sorted."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        raw = image.convert("RGB").tobytes()
    count = len(raw) // 3
    step = max(1, count // SAMPLES)
    r, g, b, alpha = text
    found = []
    for offset in range(0, count * 3, step * 3):
        pr, pg, pb = raw[offset], raw[offset + 1], raw[offset + 2]
        shown = (round(r * alpha + pr * (1 - alpha)), round(g * alpha + pg * (1 - alpha)), round(b * alpha + pb * (1 - alpha)))
        found.append(contrast(luminance(*shown), luminance(pr, pg, pb)))
    return sorted(found)


def verdict(found: dict[str, Any], measured: list[float]) -> Outcome:
    """The outcome for one element from its sorted ratios."""
    needed = 3.0 if found.get("large") else 4.5
    low, high = measured[len(measured) // 10], measured[(9 * len(measured)) // 10]
    what = f"{found.get('label') or 'the text'} (\"{found.get('sample') or ''}\")"
    span = f"between {low:.2f}:1 and {high:.2f}:1" if high - low >= 0.05 else f"{low:.2f}:1"
    target = Target.from_page(found)
    if high < needed and not found.get("shadowed"):
        return Outcome(target, "failed", (
            f"Measured on the pixels behind it, the text of {what} contrasts {span} with its background image "
            f"over nine tenths of it, below the {needed:g}:1 it needs: darken or lighten the image behind it, "
            "put a solid backdrop under the text, or change the text's colour."))
    if low >= needed:
        return Outcome(target, "passed", f"Measured on the pixels behind it, the text of {what} contrasts {span}.")
    if found.get("shadowed"):
        return Outcome(target, "cantTell", (
            f"Measured on the pixels behind it, the text of {what} contrasts {span} with its background image, but "
            "it has a shadow or stroke, which may be what sets it apart: check by eye that it can be read."))
    return Outcome(target, "cantTell", (
        f"Measured on the pixels behind it, the text of {what} contrasts {span} with its background image: "
        f"part of it reaches {needed:g}:1 and part does not. Check that every word can be read."))


async def _shot(probe: Probe, box: dict[str, float]) -> bytes | None:
    """The pixels of ``box`` (document CSS px), scrolled into the window first."""
    await probe.call(load_script(__package__, "scroll_to_box"), box)
    clip = {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"], "scale": 1}
    try:
        reply = await probe.page.session.send(
            "Page.captureScreenshot", {"format": "png", "clip": clip}, timeout=SHOT_TIMEOUT
        )
    except CDPError:
        return None
    return base64.b64decode(reply["data"])


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    script = load_script(__package__, "contrast_image_candidates")
    found = await first_read(probe, SCAN) or []
    plain = [(element, colour) for element in found if (colour := _rgba(str(element.get("colour") or ""))) is not None]
    if not plain:
        return
    stop = trio.current_time() + min(MAX_SECONDS, probe.remaining() * 0.5)
    shots: list[tuple[dict[str, Any], tuple[int, int, int, float], bytes]] = []
    await probe.call(script, {"targets": [element["target"] for element, _ in plain]}, True)
    try:
        for element, colour in plain:
            if trio.current_time() > stop:
                break
            png = await _shot(probe, element["box"])
            if png:
                shots.append((element, colour, png))
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(1):
            await probe.call(script, {}, False)
    for element, colour, png in shots:
        measured = ratios(png, colour)
        if measured:
            yield verdict(element, measured)


CHECK = InteractiveCheck(
    rule_id="a11y-contrast-over-image",
    act_rules=(),
    criteria=("1.4.3",),
    level="AA",
    since="2.0",
    impact="serious",
    description="Ensures text over a background image has enough contrast, measured on the pixels behind it",
    help="Text over images must have sufficient colour contrast",
    run=run,
    scan=SCAN,
)
