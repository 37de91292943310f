"""a11y-moving-content: what moves, blinks or updates on its own must have a way to pause it.

ACT rule efbfc7 (Text content that changes automatically can be paused, stopped or hidden);
WCAG 2.2.2 Pause, Stop, Hide (A): moving, blinking or scrolling content that starts by itself,
lasts more than five seconds and is shown beside other content, and content that updates by
itself, can be paused, stopped or hidden, unless the movement is essential.

axe-core flags ``marquee`` and ``blink`` elements by name; it cannot see movement. The check
reads the page as it plays (``js/moving_scan.js``): ``marquee`` elements; running CSS and Web
animations that move, scale, turn, fade or hide something for ever or past five seconds;
autoplaying videos without the browser's controls that loop or last more than five seconds;
GIF, APNG and WebP images, whose frames and loops it reads from the file the page loaded
(:mod:`~audit.interactive.animated_images`, no decoding); and text the page edits by itself at
least twice (``js/moving_watch.js``). Text is watched only when something could edit it by
itself: a timer, interval, frame callback, socket, worker, request or posted message of the
page's, a running animation, playing media, a frame, or an edit already seen (the readiness
tracker keeps the page's wake-ups); a page with none of these cannot change by itself and is
not waited for. For the text, the page's edits since the interaction
world was made count (``a11yProbe.textEdits``; the engine makes it while the page settles, so
the static pass and the checks before this one are watching time); the check waits until
:data:`SPAN_MS` have passed since then, longer (:data:`EXTEND_MS` after the last edit)
while text is changing, :data:`CAP_MS` of its own at most. (``blink`` is left out: no
browser has made it blink for a decade.)

The text is watched first, before anything is clicked. Then the page's controls: one whose
words say it pauses, stops or hides (``Pause``, ``Stop``, ``Hide``; a few languages) is
clicked for real, at its centre (once: a toggle clicked again would resume), and the item
watched again (an animation's or a video's state is read at once; text must stay unedited for
its interval and a margin, as far as the phase's time allows):

- ``failed``: the item moves on and the page has no control that could stop it (none whose
  words say pause, stop, hide, play, animation, speed, settings, and no unnamed button close
  to it).
- ``cantTell``: a control may manage it but did not stop it when clicked, or only names a
  related purpose (settings, frequency) or has no name; the movement may be a loading
  indicator (a spinner is essential while something loads); an image loops a few times only.
- ``passed``: a control stopped or hid it.

Nothing moving: nothing is reported. Cost: two page-side calls (a few milliseconds), plus
reading the page's GIF, PNG and WebP images from the browser's memory; on a page that could
change by itself, up to :data:`CAP_MS` of watching and, per control tried, :data:`AFTER_MS`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from cdpdriver.scripts import load_script

from . import animated_images
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

LIMITS = {"items": 4, "images": 4, "controls": 20, "longMs": 5000, "minArea": 100, "minImageArea": 24 * 24}
#: Watching for self-updating text: since the interaction world was made at least, after the last edit seen,
#: and of the check's own time at most; edits count when this far apart.
SPAN_MS = 1050
EXTEND_MS = 1150
CAP_MS = 2200
APART_MS = 150
#: What watching leaves of the phase for the checks after it (the relayouts).
RESERVE_S = 0.8
#: Watching an item again after its control was clicked (text: its interval and a margin).
AFTER_MS = 300
#: Pause-like controls clicked per item, at most.
TRIED = 2
MAX_REPORTED = 5
LONG_MS = 5000


def _target(item: dict[str, Any]) -> Target:
    return Target.from_page(item)


async def _try_controls(
    probe: Probe, item: dict[str, Any], controls: list[dict[str, Any]], wait_ms: int, clicked: set[str]
) -> tuple[str, str]:
    """Click the pause-like controls (at most :data:`TRIED`) while the phase has time for it
    and what follows; (what happened, the control's name): ``stopped`` (or hid it), ``unsure``
    (it looked stopped but could not be watched long enough), ``moving``, or ``untried``. A
    control in ``clicked`` (used for an earlier item) is not clicked again (a toggle would
    resume): the item is only watched."""
    watch = load_script(__package__, "moving_watch")
    pause = [c for c in controls if c["kind"] == "pause"][:TRIED]
    outcome = ("untried", pause[0]["name"] if pause else "")
    for control in pause:
        spare_ms = (probe.remaining() - RESERVE_S) * 1000 - 150
        if spare_ms < min(wait_ms, 400):
            break
        if control["key"] not in clicked:
            point = await probe.call(watch, "point", {"key": control["key"]})
            if not point:
                continue
            await probe.click(point["x"], point["y"])
            clicked.add(control["key"])
        after = await probe.call(watch, "after", {"key": item["key"], "control": control["key"], "waitMs": min(wait_ms, spare_ms)})
        if probe.navigated:
            return ("untried", control["name"])
        if after["state"] in ("hidden", "halted") or (after["state"] == "stopped" and after["watched"] >= 0.9 * wait_ms):
            return ("stopped", control["name"])
        if after["state"] == "stopped" and after["flipped"]:
            return ("stopped", control["name"])  # not watched long, but the control now offers to resume
        if after["state"] == "unknown":  # a marquee: its state cannot be read
            return ("untried", control["name"])
        outcome = ("unsure", control["name"]) if after["state"] == "stopped" else ("moving", control["name"])
    return outcome


def _no_control(what: str, item: dict[str, Any], controls: list[dict[str, Any]], tried: tuple[str, str]) -> tuple[str, str]:
    """The verdict and message for an item no clicked control was seen to stop."""
    state, name = tried
    other = [c["name"] for c in controls if c["kind"] == "other"]
    if state == "moving":
        return "cantTell", f"{what}; clicking {name!r} did not stop it: check that a control pauses, stops or hides it."
    if state == "unsure":
        return "cantTell", f"{what}; clicking {name!r} seemed to stop it, but it could not be watched long enough: check."
    if name:
        return "cantTell", f"{what}; check that {name!r} pauses, stops or hides it."
    if other:
        return "cantTell", f"{what}; check whether {other[0]!r} lets users pause, stop or hide it."
    if item.get("nearUnnamed"):
        return "cantTell", f"{what}; buttons without a name sit next to it: check that one pauses it (and name it)."
    return "failed", f"{what}, and the page has no control to pause, stop or hide it."


async def _images(probe: Probe, images: list[dict[str, Any]]) -> list[tuple[dict[str, Any], animated_images.Animation]]:
    found = []
    for image in images:
        if probe.remaining() < 0.3:
            break
        data = await probe.resource(image["url"])
        animation = animated_images.read(data) if data else None
        if animation is not None and animation.total_ms > LONG_MS:
            found.append((image, animation))
    return found


async def _may_change_by_itself(probe: Probe, stirring: list[str], horizon_ms: int) -> bool:
    """Whether anything could edit the page's text by itself within ``horizon_ms``: what the
    document shows (``stirring``, from ``js/moving_scan.js``) or what the page's scripts
    scheduled or opened (the tracker's wake-ups, ``audit/js/readiness_tracker.js``). Only a
    page where neither finds anything skips the text watch, the check's one long wait; a page
    without the tracker is watched."""
    return bool(stirring) or await probe.may_wake(horizon_ms)


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    found = await probe.call(load_script(__package__, "moving_scan"), LIMITS)
    if not found:
        return
    controls = found["controls"]
    clicked: set[str] = set()
    images = await _images(probe, found["images"])
    # Watched first, before any control is clicked: whatever changes now changes by itself.
    texts: list[dict[str, Any]] = []
    budget = int(min(CAP_MS, max(0.0, probe.remaining() - RESERVE_S) * 1000))
    if budget > 0 and await _may_change_by_itself(probe, found["stirring"], budget):
        watched = await probe.call(load_script(__package__, "moving_watch"), "text", {
            "quietFrom": found["now"], "spanMs": SPAN_MS, "extendMs": EXTEND_MS, "capMs": budget, "apartMs": APART_MS,
        })
        texts = watched["found"]

    async def judge(item: dict[str, Any], what: str, wait_ms: int, review: str | None = None) -> Outcome:
        if review:
            return Outcome(_target(item), "cantTell", f"{what}; {review}.")
        tried = await _try_controls(probe, item, controls, wait_ms, clicked)
        if tried[0] == "stopped":
            return Outcome(_target(item), "passed", f"{what}; clicking {tried[1]!r} stopped or hid it.")
        verdict, message = _no_control(what, item, controls, tried)
        return Outcome(_target(item), verdict, message)  # type: ignore[arg-type]

    reported = 0
    for item in found["marquees"]:
        loops = "" if item["loops"] < 0 else f" ({item['loops']} times)"
        review = "it scrolls a limited number of times: check that it stops within 5 s" if item["loops"] > 0 else None
        yield await judge(item, f"{item['label']} (\"{item['text']}\") scrolls{loops}", AFTER_MS, review)
        reported += 1
    for item in found["animations"]:
        runs = "for ever" if item["infinite"] else f"for {item['seconds']} s"
        name = f" {item['name']!r}" if item["name"] else ""
        what = f"The animation{name} of {item['label']}{item['pseudo']} ({', '.join(item['props'])}) runs {runs}"
        review = "it may be a loading indicator, which may run while something loads" if item["loading"] else None
        yield await judge(item, what, AFTER_MS, review)
        reported += 1
    for item in found["videos"]:
        length = "loops" if item["loop"] else f"plays for {item['seconds']} s"
        yield await judge(item, f"The video {item['label']} plays by itself without controls and {length}", AFTER_MS)
        reported += 1
    for item, animation in images:
        plays = "for ever" if animation.plays == 0 else f"{animation.plays} times"
        what = (f"The image {item['label']} is an animated {animation.kind} of {animation.frames} frames "
                f"({animation.duration_ms / 1000:g} s) played {plays}")
        review = None
        if item["loading"]:
            review = "it may be a loading indicator, which may run while something loads"
        elif animation.plays != 0:
            review = f"it stops after {animation.total_ms / 1000:g} s: check that this is short enough or it can be paused"
        elif any(c["kind"] == "pause" for c in controls):  # an image cannot be watched: not clicked
            review = "check that the page's pause control stops it"
        if review is None:
            verdict, message = _no_control(what, item, controls, ("untried", ""))
            yield Outcome(_target(item), verdict, message)  # type: ignore[arg-type]
        else:
            yield Outcome(_target(item), "cantTell", f"{what}; {review}.")
        reported += 1
    for item in texts[: max(0, MAX_REPORTED - reported)]:
        what = (f"The text of {item['label']} (\"{item['text']}\") changed {item['edits']} times in "
                f"{item['seconds']:g} s by itself")
        yield await judge(item, what, int(min(3000, item["interval"] * 1.2 + AFTER_MS)))


CHECK = InteractiveCheck(
    rule_id="a11y-moving-content",
    act_rules=("efbfc7",),
    criteria=("2.2.2",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures content that moves, blinks or updates by itself can be paused, stopped or hidden",
    help="Moving, blinking and auto-updating content must have a way to pause it",
    run=run,
)
