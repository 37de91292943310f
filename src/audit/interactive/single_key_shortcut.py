"""a11y-single-key-shortcut: a shortcut of one printable key must be possible to turn off or remap.

ACT rule ffbc54 (Keyboard shortcut can be turned off or remapped... with printable characters);
WCAG 2.1.4 Character Key Shortcuts (A). Speech users dictate words that arrive as key
presses, and a slip of the finger fires a single-key shortcut: the criterion asks that such a
shortcut can be turned off, remapped to include a modifier, or work only while its control
has focus.

Applies to pages with a key listener (keydown, keyup, keypress) where a key pressed with no
element focused arrives: the body, the root element, the document or the window. With focus
on nothing, the check presses printable keys one at a time through real key events (a to z,
0 to 9 and a few punctuation marks, :data:`KEYS`), in chunks read between them, while a
mutation observer in the interaction world notes what each key changed (``js/shortcut_watch.js``:
kind, element, attribute), and whether it moved focus or scrolled the page (both put back).
Changes every key causes (Shift and Control are pressed first for comparison, and what the
page changes with no key at all) are not reactions. A key that reacted is pressed once more,
alone, to confirm it (or, failing that, the keys pressed just before it: a change drawn in a
later frame lands after the next keys); a change made only after the page handled the keydown
(when a timer of the page's own could have made it) must also not show while nothing is
pressed and must come back on a second press. Escape follows each reaction, to close what it
opened.

For a confirmed reaction the check looks for a way to turn the shortcut off or remap it: a
visible checkbox, switch or button whose name mentions shortcuts, hot keys, the keyboard or
keys. It clicks each (a real click; and what a button reveals that matches too), presses the
key again, then clicks back. The key no longer reacting passes. Fails: no such control at
all. Needs review: controls that do not stop it (the way may take more steps), a link or a
select about shortcuts or the keyboard (not followed, not changed), and pages where more than
:data:`TYPE_AHEAD` keys react (a type-to-search field rather than shortcuts).
A reaction only while a control has focus never shows here and passes, as the criterion
allows. Cost, on applicable pages: about 50 key presses and a few reads (some 100 to 200 ms);
nothing on others beyond the listener query.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import trio

from cdpdriver import CDPError, JavaScriptError
from cdpdriver.scripts import load_script

from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

KEY_EVENTS = ("keydown", "keyup", "keypress")
KEYS = tuple("abcdefghijklmnopqrstuvwxyz0123456789") + tuple("/?.,-+=[];'")
#: Pressed first: every key's common reaction shows with them.
NEUTRAL = ("Shift", "Control")
#: Keys pressed between two reads.
CHUNK = 12
#: Keys that reacted confirmed, and keys a way to turn off is sought for, at most.
MAX_CONFIRM = 4
MAX_KEYS = 3
#: Controls tried per key (and controls a clicked one revealed), at most.
MAX_CONTROLS = 3
#: More keys than this reacting reads as typing somewhere, not as shortcuts.
TYPE_AHEAD = 20
#: Keys pressed before one that reacted but not again, tried in its stead, at most (a
#: chunk's keys reach the page within one frame).
LATE = CHUNK - 1
#: Kinds of control found but not clicked: a link leaves the page, a select needs a choice.
UNTRIED = frozenset({"link", "select"})
RESERVE = 0.25


def _shown(key: str) -> str:
    return f"'{key}'"


class _Keys:
    """Presses keys with focus on nothing and reads what they did."""

    def __init__(self, probe: Probe) -> None:
        self.probe = probe
        self.neutral: set[str] = set()
        #: What each key that reacted in the sweep did (its watch entry).
        self.seen: dict[str, dict[str, Any]] = {}

    async def read(self) -> dict[str, Any]:
        return await self.probe.call(load_script(__package__, "shortcut_watch"), "read")

    def reaction(self, entry: dict[str, Any] | None, *, sync: bool = False) -> str | None:
        """What a key's entry shows it did, in words, or None when nothing of its own; with
        ``sync``, counting only changes made while the page handled its keydown."""
        if not entry:
            return None
        changes = [c for c in entry["sync" if sync else "changes"] if c not in self.neutral]
        said = []
        if changes:
            said.append("changed the page (" + ", ".join(changes[:3]) + ("…" if len(changes) > 3 else "") + ")")
        if entry.get("focus"):
            said.append(f"moved focus to {entry['focus']}")
        if entry.get("scroll"):
            said.append(f"scrolled the page by {entry['scroll']} px")
        return " and ".join(said) or None

    async def calibrate(self) -> None:
        await self.probe.frames()
        await self.probe.press_each(NEUTRAL)
        await self.probe.frames()
        seen = await self.read()
        self.neutral = set(seen["background"])
        for entry in seen["keys"].values():
            self.neutral.update(entry["changes"])

    async def sweep(self) -> dict[str, str]:
        """Every key of :data:`KEYS` once (a key stopped because the page had put focus in a
        control goes again): the reactions by key."""
        reactions: dict[str, str] = {}
        queue, retried = list(KEYS), set()
        while queue and self.probe.remaining() > RESERVE:
            chunk, queue = queue[:CHUNK], queue[CHUNK:]
            await self.probe.press_each(chunk)
            if not queue:
                await self.probe.frames()
            seen = await self.read()
            self.neutral.update(seen["background"])
            found = {k: r for k, e in seen["keys"].items() if k in KEYS and (r := self.reaction(e))}
            self.seen.update({k: seen["keys"][k] for k in found})
            reactions.update(found)
            queue += [k for k in seen["skipped"] if k in KEYS and k not in retried]
            retried.update(seen["skipped"])
            if found:
                await self.probe.press("Escape")
                await self.read()
        return reactions

    async def reacts(self, key: str, *, strict: bool = False) -> str | None:
        """Press ``key`` alone and wait for the page's frames: what it did, or None. With
        ``strict`` (confirming a reaction of the sweep), what the page changes by itself (a
        clock, a carousel) must not count: changes seen in a quiet moment just before are left
        out, and a reaction that came only after the page had handled the keydown (when a
        timer of its own may have run) must not show in a longer quiet moment and must come
        back on a second press."""
        await self.read()
        if strict:
            await self.probe.frames()  # late changes of the key pressed last land first
            self.neutral |= await self._quiet(1)
        done, entry = await self._press(key)
        if not done or not strict or self.reaction(entry, sync=True):
            return done
        background = await self._quiet(3)
        if (set(entry["changes"]) - self.neutral) & background:
            self.neutral |= background
            return None
        again, _ = await self._press(key)
        return done if again else None

    async def _press(self, key: str) -> tuple[str | None, dict[str, Any] | None]:
        await self.probe.press(key)
        await self.probe.frames()
        entry = (await self.read())["keys"].get(key)
        done = self.reaction(entry)
        if done:
            await self.probe.press("Escape")  # close what it opened
            await self.read()
        return done, entry

    async def _quiet(self, rounds: int) -> set[str]:
        """What the page changes by itself over ``rounds`` waits for two frames."""
        await self.probe.call(load_script(__package__, "shortcut_watch"), "rest")
        for _ in range(rounds):
            await self.probe.frames()
        return set((await self.read())["background"])


class _Controls:
    """The page's controls that may turn shortcuts off, clicked for real."""

    def __init__(self, probe: Probe) -> None:
        self.probe = probe
        self.known: list[int] = []

    async def find(self) -> list[dict[str, Any]]:
        found = await self.probe.call(load_script(__package__, "shortcut_controls"), "find", self.known)
        self.known += [c["id"] for c in found]
        return found

    async def click(self, control: dict[str, Any]) -> bool:
        point = await self.probe.call(load_script(__package__, "shortcut_controls"), "point", control["id"])
        if not point:
            return False
        await self.probe.click(point["x"], point["y"])
        await self.probe.frames()
        return True


async def _way_off(keys: _Keys, controls: _Controls, found: list[dict[str, Any]], key: str) -> dict[str, Any] | None:
    """The control (among ``found``, or revealed by one of them) whose click stops ``key``
    reacting, each clicked back after its try; None when none does."""
    for control in found[:MAX_CONTROLS]:
        if control["kind"] in UNTRIED or not await controls.click(control):
            continue
        way = None
        if not await keys.reacts(key):
            way = control
        else:
            for inner in (await controls.find())[:MAX_CONTROLS]:
                if inner["kind"] in UNTRIED or not await controls.click(inner):
                    continue
                if not await keys.reacts(key):
                    way = {**inner, "via": control}
                await controls.click(inner)
                if way:
                    break
        await controls.click(control)
        await keys.probe.press("Escape")
        await keys.read()
        if way:
            return way
    return None


async def _confirm(keys: _Keys, reactions: dict[str, str]) -> list[tuple[str, str]]:
    """The keys that react again when pressed alone (what they did): each key of the sweep
    that reacted or, when it does not again, one of the few pressed just before it (a change
    drawn in a later frame shows after the next keys went)."""
    confirmed: list[tuple[str, str]] = []
    tried: set[str] = set()
    for key in list(reactions)[:MAX_CONFIRM]:
        if not keys.reaction(keys.seen.get(key)):
            continue  # what it did, the page was since seen doing by itself
        at = KEYS.index(key)
        for candidate in (key, *KEYS[max(0, at - LATE):at][::-1]):
            if candidate in tried or candidate in dict(confirmed) or keys.probe.remaining() <= RESERVE:
                continue
            tried.add(candidate)
            if done := await keys.reacts(candidate, strict=True):
                confirmed.append((candidate, done))
                break
            if candidate == key and not keys.reaction(keys.seen.get(key)):
                break  # what it did is what the page does by itself (seen while quiet)
    return confirmed


def _name(control: dict[str, Any]) -> str:
    return f"{control['label']} ({control['text'][:50]!r})"


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    owner = await probe.listening(KEY_EVENTS, load_script(__package__, "shortcut_listeners"))
    if owner is None:
        return  # no key press with nothing focused reaches a listener: the rule does not apply
    target = Target.from_page(owner)
    keys = _Keys(probe)
    await probe.call(load_script(__package__, "shortcut_watch"), "start")
    try:
        await keys.calibrate()
        reactions = await keys.sweep()
        if len(reactions) > TYPE_AHEAD:
            yield Outcome(target, "cantTell", (
                f"With no control focused, {len(reactions)} of the {len(KEYS)} printable keys pressed changed the page "
                f"(e.g. {_shown(next(iter(reactions)))} {next(iter(reactions.values()))}): it may send typing somewhere. "
                "Check that no single-character shortcut fires without a way to turn it off or remap it."))
            return
        confirmed = await _confirm(keys, reactions)
        if not confirmed:
            yield Outcome(target, "passed", (
                f"With no control focused, none of the {len(KEYS)} printable keys pressed (a to z, 0 to 9, "
                "punctuation) changed the page, moved focus or scrolled."))
            return
        controls = _Controls(probe)
        found = await controls.find()
        pressed = ", ".join(f"{_shown(k)} {done}" for k, done in confirmed[:MAX_KEYS])
        if not found:
            yield Outcome(target, "failed", (
                f"With no control focused, pressing a single key {pressed}; the page shows no control to turn such "
                "shortcuts off or remap them. Let users turn them off or add a modifier key (Ctrl, Alt), or make "
                "them work only while their control has focus."))
            return
        for key, done in confirmed[:MAX_KEYS]:
            way = await _way_off(keys, controls, found, key)
            if way is None:
                yield Outcome(target, "cantTell", (
                    f"With no control focused, pressing {_shown(key)} {done}; "
                    f"{', '.join(_name(c) for c in found[:MAX_CONTROLS])} may offer a way to turn it off or remap "
                    "it, but clicking the checkboxes and buttons among them did not stop it (links and selects are "
                    "not tried). Check that such a way exists."))
                continue
            via = f" (shown by {_name(way['via'])})" if way.get("via") else ""
            yield Outcome(target, "passed", (
                f"With no control focused, pressing {_shown(key)} {done}; after clicking {_name(way)}{via} it no "
                "longer did: the shortcut can be turned off or remapped."))
    finally:
        if not probe.navigated:
            with trio.CancelScope(shield=True), trio.move_on_after(1.0):
                try:
                    await probe.call(load_script(__package__, "shortcut_watch"), "stop")
                except (CDPError, JavaScriptError):
                    pass


CHECK = InteractiveCheck(
    rule_id="a11y-single-key-shortcut",
    act_rules=("ffbc54",),
    criteria=("2.1.4",),
    level="A",
    since="2.1",
    impact="serious",
    description="Ensures a keyboard shortcut of one printable key can be turned off or remapped, or works only on focus",
    help="Single-character key shortcuts must be possible to turn off or remap",
    run=run,
)
