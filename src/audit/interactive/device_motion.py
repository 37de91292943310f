"""a11y-device-motion: what moving the device does, the page's controls must do too, and it can
be turned off.

ACT rules 7677a9 (Device motion based changes to the content can also be created from the user
interface) and c249d5 (Device motion based changes to the content can be disabled); WCAG 2.5.4
Motion Actuation (A, since 2.1): functionality operated by moving the device can also be
operated by user interface components, and responding to the motion can be disabled.

A page applies when it listens for ``deviceorientation``, ``deviceorientationabsolute`` or
``devicemotion`` (the window's listener list). The check tilts and turns the device: it sends
the window synthetic orientation and motion events (tilted right and forward, then left and
back, then level; shaken and rotated), and notes what the page changed
(``js/device_motion.js``): text, elements, attributes, form values. No change: ``passed``.
Otherwise it operates the page's controls that act in place (buttons, switches; never a
link that navigates, a submit button, or one whose words say it buys, deletes, sends or signs
out), at most :data:`MAX_CONTROLS`, those a click revealed included, with real clicks at
their centres:

- a button that changes the same elements as the motion did is the interface alternative
  (7677a9);
- a switch named for motion (motion, tilt, shake, sensor...) after which the motion changes
  nothing any more disables it (c249d5); it is clicked back.

- ``failed``: neither exists, and every control was tried: motion is the only way to the
  change and it cannot be turned off (both rules fail).
- ``cantTell``: one of the two was found but not the other (a setting elsewhere may do it),
  controls were left untried (limit or time), or the motion only restyled the page (a
  parallax effect needs no alternative; a game does).
- ``passed``: both were found, or the motion changed nothing.

Cost: nothing on a page that does not listen for device motion (the listener list is read);
otherwise the events, then per control one click and about 100-300 ms of settling.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

from cdpdriver.scripts import load_script

from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

MOTION_EVENTS = frozenset({"deviceorientation", "deviceorientationabsolute", "devicemotion"})
MAX_CONTROLS = 10
#: What a switch that turns motion off is called.
MOTION_WORDS = re.compile(r"motion|tilt|shake|orientation|sensor|gyro|acceleromet|bewegung|mouvement|movimiento|beweging",
                          re.IGNORECASE)
DOCUMENT = Target(("html",), "<html>")


async def _call(probe: Probe, mode: str, **options: Any) -> Any:
    return await probe.call(load_script(__package__, "device_motion"), mode, options)


def _keys(changes: dict[str, Any]) -> set[int]:
    return {c["key"] for c in changes["content"]}


async def _click(probe: Probe, control: dict[str, Any]) -> bool:
    point = await _call(probe, "point", key=control["key"])
    if not point:
        return False
    await probe.click(point["x"], point["y"])
    return True


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    if not (await probe.listener_types()) & MOTION_EVENTS:
        return
    await _call(probe, "arm")
    moved = await _call(probe, "motion")
    if not moved["content"]:
        restyled = " (it only restyled elements)" if moved["restyled"] else ""
        if moved["restyled"]:
            yield Outcome(DOCUMENT, "cantTell", (
                "The page listens for device motion; tilting and shaking the device restyled "
                f"{moved['restyled']} elements but changed no content. Check that this is decoration (a parallax "
                "effect) and not functionality, which would need a control and a way to turn motion off."
            ))
        else:
            yield Outcome(DOCUMENT, "passed", f"The page listens for device motion, but tilting and shaking the device changed nothing{restyled}.")
        return
    targets = _keys(moved)
    changed = ", ".join(c["label"] for c in moved["content"][:3])
    seen = f"Tilting and shaking the device changes {changed}"
    same: str | None = None
    disables: str | None = None
    tried: set[int] = set()
    untried = False
    while not (same and disables):
        controls = [c for c in await _call(probe, "controls", limit=MAX_CONTROLS * 2) if c["key"] not in tried]
        if not controls:
            break
        if len(tried) >= MAX_CONTROLS or probe.remaining() < 0.6 or probe.navigated:
            untried = True
            break
        control = controls[0]
        tried.add(control["key"])
        if control["kind"] == "switch" and MOTION_WORDS.search(control["name"]) and not disables:
            if not await _click(probe, control):
                continue
            await _call(probe, "arm")
            after = await _call(probe, "motion")
            if not _keys(after) & targets:
                disables = control["name"]
            await _click(probe, control)  # as it was
            continue
        if same:
            continue
        await _call(probe, "arm")
        if not await _click(probe, control):
            continue
        if _keys(await _call(probe, "changes")) & targets:
            same = control["name"]
    if probe.navigated:
        return
    if same and disables:
        yield Outcome(DOCUMENT, "passed", f"{seen}; {same!r} does the same and {disables!r} turns the motion off.")
    elif same:
        yield Outcome(DOCUMENT, "cantTell", (
            f"{seen}; {same!r} does the same, but no control here turned the response to motion off: check that "
            "users can disable it (a setting on this page or a clearly labelled one elsewhere)."
        ))
    elif disables:
        yield Outcome(DOCUMENT, "cantTell", (
            f"{seen}; {disables!r} turns it off, but none of {len(tried)} controls did the same as the motion: check "
            "that the interface offers it."
        ))
    elif untried:
        yield Outcome(DOCUMENT, "cantTell", (
            f"{seen}; none of the {len(tried)} controls tried did the same or turned it off, and more were left: "
            "check that the interface offers both."
        ))
    else:
        controls = f"none of the page's {len(tried)} controls does" if tried else "the page has no control that does"
        yield Outcome(DOCUMENT, "failed", (
            f"{seen}, and {controls} the same or turns the motion off: the change needs moving the device. "
            "Offer a control for it and a way to turn motion off."
        ))


CHECK = InteractiveCheck(
    rule_id="a11y-device-motion",
    act_rules=("7677a9", "c249d5"),
    criteria=("2.5.4",),
    level="A",
    since="2.1",
    impact="serious",
    description="Ensures what device motion does can also be done with controls, and motion can be turned off",
    help="Functions operated by device motion must have a control alternative and a way to turn motion off",
    run=run,
)
