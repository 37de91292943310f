"""a11y-state-exposed: a custom control that shows a new state when used must say so in ARIA.

WCAG 4.1.2 Name, Role, Value (A): states that can be set by the user must be programmatically
determinable. No ACT rule covers it (the ACT rules judge one state of a page), so no ACT id is
mapped.

A switch drawn with a ``div role="switch" aria-checked="false"`` whose click slides its knob
but never touches ``aria-checked``, a ``<button aria-pressed="false">`` that lights up, a tab
that becomes the chosen one while ``aria-selected`` stays on the old: screen-reader users hear
the state the markup declared at load, whatever the control shows. axe-core sees one state
only, and a valid one, so it cannot find this.

Applies to the first :data:`MAX_CONTROLS` custom controls in document order that declare a
state (``js/state_controls.js``): elements of role ``switch``, ``checkbox`` or
``menuitemcheckbox`` with ``aria-checked``, buttons with ``aria-pressed`` (toggles), and groups
of two or more ``radio``, ``menuitemradio`` or ``tab`` elements (a radiogroup, menu or tablist,
else a shared parent) of which exactly one says it is chosen. Each is shown, 8 px or more each
way, enabled, not inert, not inside a native form control, and its words do not say it acts on
the user's behalf (buy, delete, send, like, play...); native inputs never apply. Every click is
real (:meth:`~.probe.Probe.click`, at the control's centre when nothing covers it) and made
inside a :class:`~.focus_walk.ContextWatch`; a click that navigated, opened a window or submitted
a form ends the trial of that control without a verdict.

How it decides (``js/state_reading.js`` reads a control's state attribute and its look: class,
a few computed styles, ``::before``/``::after``, its first 20 descendants, its text; once the
page's own short timers have run and its transitions were run to their end; what an endless
animation moves is left out). A toggle is clicked twice and read after each click, both times
with the pointer over it and focus where the click put it, so hover and focus styles cancel out.
A group's chosen member is read, with neither pointer nor focus on it, before and after another
member is clicked.

- Passes: the state attribute moved (a toggle's on either click; a group's on either member).
- Fails: it did not move, but the toggle looked different after its two clicks, or the group's
  chosen member stopped looking chosen (or a tab's click showed the panel its ``aria-controls``
  names), the same again on a second reading (for a group, with focus taken off it).
- Needs review: a toggle whose only change was its text (it may name the action, not the
  state); a text that only counts (its digits) is no state.
- Nothing: the click changed neither (it may do something else, or nothing). The page passes
  when controls were clicked and none failed or needs review.

Whatever moved is put back: a third click on a toggle whose state did not come back, the old
choice clicked again in a group. Not decided: controls in frames or shadow roots, controls
inside hidden menus, states other than checked, pressed and selected (``aria-expanded`` is
a11y-revealed-state's), and whether the state shown is the right one for what the control does.

Cost: one page-side call on every page; per control two or three clicks, each followed by the
page settling (some 100-150 ms); no control is started after :data:`MAX_SECONDS` or a share of
what is left of the phase.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import trio

from cdpdriver import CDPError, JavaScriptError
from cdpdriver.scripts import load_script

from .focus_walk import ContextWatch, left
from .probe import Probe
from .scans import first_read
from .spec import InteractiveCheck, Outcome, Scan, Target

MAX_CONTROLS = 8
#: The first read, made with the other checks' as the phase begins (:mod:`.scans`).
SCAN = Scan(load_script(__package__, "state_controls"), (MAX_CONTROLS,))
RESERVE = 0.3
#: The check's own time, at most, and its share of what is left of the phase.
MAX_SECONDS = 1.5
PHASE_SHARE = 0.5
#: The readiness tracker's quiet time and cap after a click (the page's own short timers).
QUIET_MS = 20
QUIET_CAP_MS = 600
#: How long the page may take to settle before a reading (its animations are run to their end).
SETTLE_CAP_MS = 400


#: Whether the control was clicked, and the verdict on it (None: nothing to say).
Tried = tuple[bool, Outcome | None]


class _Acted(Exception):
    """A click changed the context (a stopped navigation, a window, a form submitted)."""


class _Gone(Exception):
    """The page left its document."""


def _name(label: str, text: str) -> str:
    return f"{label} ({text!r})" if text else label


def _value(state: Any) -> str:
    return f'"{state}"' if state is not None else "absent"


def _differences(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return [key for key in after if key in before and before[key] != after[key]]


def _what(keys: list[str], before: dict[str, str], after: dict[str, str]) -> str:
    """The first changes in words: ``class "switch" → "switch on", background-color``."""
    words = []
    for key in keys[:3]:
        shown = re.sub(r"[A-Z]", lambda m: f"-{m.group(0).lower()}", key)
        if (part := re.fullmatch(r"([\w-]+) (\d+) (.+)", shown)) is not None:  # a descendant's
            shown = f"{part[3]} of its {part[1]} #{part[2]}"
        words.append(f'{shown} "{before[key][:40]}" → "{after[key][:40]}"' if key.endswith("class") else shown)
    return ", ".join(words) + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")


def _looks_changed(keys: list[str], before: dict[str, str], after: dict[str, str]) -> str | None:
    """``look`` when something shown changed, ``text`` when only its text did (not a count),
    None when nothing that shows a state did."""
    if any(not key.endswith(" box") and key != "text" for key in keys):
        return "look"
    if "text" in keys:
        count = re.compile(r"\d+")
        return None if count.sub("#", before["text"]) == count.sub("#", after["text"]) else "text"
    return "look" if keys else None


def _moved(now: dict[str, Any], before: dict[str, Any]) -> bool:
    """Whether a group member's state attribute (or its aria-expanded, as on tabs) moved."""
    return now["state"] != before["state"] or now["expanded"] != before["expanded"]


async def _read(probe: Probe, ids: list[int], cap_ms: int = SETTLE_CAP_MS) -> list[dict[str, Any] | None]:
    """The state and look of ``ids`` once the page settled (``cap_ms`` at most; 0: at once)."""
    return await probe.call(load_script(__package__, "state_reading"), "read", ids, cap_ms)


async def _click(probe: Probe, watch: ContextWatch, element: int) -> bool:
    """A real click at the centre of ``element``; False when it could not be clicked."""
    point = await probe.call(load_script(__package__, "state_reading"), "point", [element], 0)
    if not point:
        return False
    await probe.click(point["x"], point["y"])
    if not probe.navigated:
        await probe.page_quiet(QUIET_MS, QUIET_CAP_MS)
    changes = await watch.changes()
    if any(change.left for change in changes):
        raise _Gone
    if changes:
        raise _Acted
    return True


async def _toggle(probe: Probe, watch: ContextWatch, control: dict[str, Any]) -> Tried:
    cid, attr = control["id"], control["attr"]
    first = (await _read(probe, [cid], 0))[0]
    if first is None:
        return False, None
    await watch.changes()
    readings = []
    for _ in range(2):
        if not await _click(probe, watch, cid) or (reading := (await _read(probe, [cid]))[0]) is None:
            return bool(readings), None
        readings.append(reading)
    b1, b2 = readings
    target = Target.from_page(control)
    name = _name(control["label"], control["text"])
    if first["state"] != b1["state"] or b1["state"] != b2["state"]:
        if b2["state"] != first["state"]:
            await _click(probe, watch, cid)  # put the state back (a tri-state may need another)
        moves = " → ".join(_value(reading["state"]) for reading in (first, b1, b2))
        return True, Outcome(target, "passed", f"Clicking {name} twice changed {attr} ({moves}).")
    if first["expanded"] != b1["expanded"] or b1["expanded"] != b2["expanded"]:
        return True, None  # a disclosure that says so with aria-expanded (a11y-revealed-state's)
    keys = _differences(b1["look"], b2["look"])
    if keys:  # the same again a moment later, with no click: not something that moves by itself
        again = (await _read(probe, [cid]))[0]
        if again is not None and again["state"] != b2["state"]:
            return True, None  # the state follows late (after a request): it is exposed, not judged
        keys = [k for k in keys if again is not None and again["look"].get(k) == b2["look"][k]]
    how = _looks_changed(keys, b1["look"], b2["look"])
    stays = f'{attr} stays {_value(b2["state"])}'
    if how == "look":
        return True, Outcome(target, "failed", (
            f"Clicking {name} changes how it looks ({_what(keys, b2['look'], b1['look'])}) but {stays}: assistive "
            f"technologies announce the same state whichever it shows. Update {attr} when the state changes."))
    if how == "text":
        return True, Outcome(target, "cantTell", (
            f"Clicking {name} changes its text (\"{b2['look']['text'][:40]}\" → \"{b1['look']['text'][:40]}\") but "
            f"{stays}: if the text shows a state, {attr} must change with it."))
    return True, None


async def _group(probe: Probe, watch: ContextWatch, control: dict[str, Any]) -> Tried:
    script = load_script(__package__, "state_reading")
    y, x, attr = control["id"], control["chosen"], control["attr"]
    await probe.call(script, "blur", [y], 0)  # neither pointer nor focus on the chosen member
    point = await probe.call(script, "point", [y], 0)
    if not point:
        return False, None
    await probe.move_mouse(point["x"], point["y"])
    before = await _read(probe, [y, x])
    if before[0] is None or before[1] is None:
        return False, None
    if before[1]["state"] != "true":  # chosen by the pointer resting on it: give the choice back
        if back := await probe.call(script, "point", [x], 0):
            await probe.move_mouse(back["x"], back["y"])
        return False, None
    await watch.changes()
    if not await _click(probe, watch, y):
        return False, None
    after = await _read(probe, [y, x])
    confirmed = after
    moved = any(a is not None and _moved(a, b) for a, b in zip(after, before, strict=True))
    keys: list[str] = []
    panel = False
    if not moved and after[1] is not None and after[0] is not None:
        keys = _differences(before[1]["look"], after[1]["look"])
        panel = before[0]["panel"] is False and after[0]["panel"] is True
        if keys or panel:  # again with focus taken off the group, after a moment
            await probe.call(script, "blur", [y], 0)
            confirmed = await _read(probe, [y, x])
            if confirmed[0] is None or confirmed[1] is None:
                return True, None
            moved = any(_moved(a, b) for a, b in zip(confirmed, before, strict=True))
            keys = [k for k in keys if confirmed[1]["look"].get(k) == after[1]["look"][k]]
            panel = panel and confirmed[0]["panel"] is True
    if moved or keys or panel:
        await _click(probe, watch, x)  # the old choice back
    target = Target.from_page(control)
    name = _name(control["label"], control["text"])
    chosen = _name(control["chosenLabel"], control["chosenText"])
    if moved:
        return True, Outcome(target, "passed", f"Clicking {name} moved {attr} from {chosen}.")
    looks = _looks_changed(keys, before[1]["look"], after[1]["look"]) == "look"
    if not (panel or looks):
        return True, None
    did = " and ".join(
        ([f"showed its panel (#{control['controls']})"] if panel else [])
        + ([f"made {chosen} stop looking chosen ({_what(keys, before[1]['look'], after[1]['look'])})"] if looks else []))
    return True, Outcome(target, "failed", (
        f"Clicking {name} {did} but {attr} stays {_value(confirmed[0]['state'])} on it and \"true\" on "
        f"{control['chosenLabel']}: assistive technologies announce the old choice. Update {attr} on both "
        "when the choice changes."))


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    controls = await first_read(probe, SCAN)
    if not controls:
        return  # no custom control that declares a state: the rule does not apply
    stop_at = trio.current_time() + min(MAX_SECONDS, probe.remaining() * PHASE_SHARE)
    tried = failed = 0
    async with ContextWatch(probe) as watch:
        for control in controls:
            if trio.current_time() >= stop_at or probe.remaining() <= RESERVE:
                break
            try:
                clicked, outcome = await (_toggle if control["kind"] == "toggle" else _group)(probe, watch, control)
            except _Acted:
                continue  # it does something else than show a state: not judged
            except _Gone:
                return
            except (CDPError, JavaScriptError, trio.TooSlowError):
                if not await left(probe):
                    raise
                return  # the page is gone; the phase loads it again
            tried += clicked
            if outcome is not None:
                failed += outcome.verdict != "passed"
                yield outcome
    if tried and not failed:
        yield Outcome(Target(("html",), "<html>"), "passed", (
            f"Clicking {tried} custom control(s) that declare a state (checked, pressed, selected) either updated "
            "that state or changed nothing visible."))


CHECK = InteractiveCheck(
    rule_id="a11y-state-exposed",
    act_rules=(),
    criteria=("4.1.2",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures custom switches, checkboxes, toggle buttons, radios and tabs update aria-checked, "
    "aria-pressed or aria-selected when a click changes the state they show",
    help="A custom control's ARIA state must follow the state it shows",
    run=run,
    scan=SCAN,
)
