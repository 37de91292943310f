"""a11y-keyboard-trap: focus that the keyboard can move into a component must be able to leave it.

ACT rules a1b64e (no keyboard trap via standard navigation), ebe86a (via non-standard
navigation) and their composite 80af7b; WCAG 2.1.2 No Keyboard Trap (A).

axe-core never presses a key, so it cannot see a trap: traps are made by scripts that move
focus back from ``blur`` or ``keydown`` handlers. The check walks the page with real Tab key
presses from wherever focus is, reading the focused element after the page's timers have run
(traps often move focus back after a few milliseconds). Focus leaving the document (to the
browser's own controls) means the walk got through; focus coming back to an element seen
since it last left, without leaving, means a cycle: a candidate trap. From inside the cycle
it then tries what a keyboard user would: Shift+Tab, then Escape and Tab, then whatever the
page itself advises (a visible instruction such as "Press Ctrl+M to exit", pressed as
written; a help link inside the cycle is followed first). Enter on a button of the cycle (a
dialog's Close) counts as a way out too. Any way out passes; none fails the element focus kept returning to, with what was
tried. An instruction that mentions keys but cannot be read as one key combination leaves the
element to review, and so does a cycle that holds focus only because a script put it back
after a press had taken it out of the document (:func:`_judged`).

A page with no listener for key or focus events anywhere (window, document, any element,
inline handlers included) cannot hold focus, so the walk is skipped there: the rule applies
and passes. Inside a frame focus is followed as far as the frame element only, and a walk
still inside a frame when its presses run out decides nothing. Cost, on pages that listen
for key or focus events: a key press and a read per focusable element (120 at most). The read
waits 30 ms for the page's timers only when one may run by then (the readiness tracker's
wake-ups); otherwise it reads at once, without even yielding to the event loop, which would
wait for the frame the press scheduled (``js/focus_after.js``). On Python's
library/functions.html (a keydown listener, no timers) the 120 presses took 5.1 s with the
30 ms wait, 2.0 s with a yield to the event loop, and 0.48 s reading at once.
A trap is shot while focus is still held in it (:meth:`Probe.state_shot
<audit.interactive.probe.Probe.state_shot>`), when the run takes screenshots.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

from cdpdriver.scripts import load_script

from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

#: Event types whose listeners can move focus in response to the keyboard.
FOCUS_EVENTS = frozenset({"keydown", "keyup", "keypress", "blur", "focusout", "focus", "focusin"})
#: How long a read waits for the page's own timers after a key press.
TIMER_WAIT_MS = 30
#: Presses per focusable element (a full pass and back round), plus a margin, at most.
MAX_PRESSES = 120
#: Buttons of a cycle tried with Enter, at most.
CONTROLS_TRIED = 5

# "Press Ctrl+M to exit", "press the M-key", "use Alt + Shift + Q": a key combination.
_ADVICE = re.compile(
    r"\b(?:press|hit|use|type)\s+(?:the\s+)?"
    r"((?:(?:ctrl|control|alt|option|shift|meta|cmd)\s*\+\s*)*(?:esc(?:ape)?|enter|tab|f\d{1,2}|[a-z0-9]))"
    r"(?:[\s-]*key)?\b",
    re.IGNORECASE,
)
# Words of an instruction about leaving by keyboard that the pattern above could not read.
_KEY_WORDS = re.compile(r"\b(?:press|shortcut|keystroke|key|exit|escape|leave)\b", re.IGNORECASE)
_MODIFIERS = {"ctrl": "Control", "control": "Control", "alt": "Alt", "option": "Alt", "shift": "Shift",
              "meta": "Meta", "cmd": "Meta"}


def advised_combo(text: str) -> str | None:
    """The key combination an instruction in ``text`` advises, as ``cdpdriver.keys`` names
    it (``Control+m``, ``Escape``), or None."""
    match = _ADVICE.search(text)
    if match is None:
        return None
    parts = [part.strip() for part in match.group(1).split("+")]
    key = parts[-1].lower()
    named = {"esc": "Escape", "escape": "Escape", "enter": "Enter", "tab": "Tab"}.get(key)
    if named is None and re.fullmatch(r"f\d{1,2}", key):
        named = key.upper()
    return "+".join([*(_MODIFIERS[p.lower()] for p in parts[:-1]), named or key])


class _Walk:
    """Focus as the presses leave it, read through the probe."""

    def __init__(self, probe: Probe) -> None:
        self.probe = probe
        self.presses = 0
        #: The first key whose press took focus out of the document before a script of the
        #: page put it back on an element (see :func:`_judged`), or None.
        self.pulled_back: str | None = None

    async def press(self, combo: str) -> dict[str, Any] | None:
        await self.probe.press(combo)
        self.presses += 1
        # The wait for the page's timers is only needed when one may run: a handler that moves
        # focus back later schedules it during the press, so the wake-ups already show it.
        wait = TIMER_WAIT_MS if await self.probe.may_wake(TIMER_WAIT_MS) else 0
        state = await self.probe.call(load_script(__package__, "focus_after"), wait)
        if state is not None and state.get("pulledBack") and self.pulled_back is None:
            self.pulled_back = combo
        return state

    async def leaves(
        self, combo: str, cycle: set[int], limit: int, follow: int, onward: str = "Tab"
    ) -> bool:
        """Whether pressing ``combo`` (up to ``limit`` times) gets focus out of ``cycle`` for
        good: out of the document, or to an element outside it from which ``onward`` (up to
        ``follow`` times) reaches the end of the document without coming back. A way out
        backwards goes on backwards: escaping in one direction is enough (ACT a1b64e)."""
        for _ in range(limit):
            state = await self.press(combo)
            if state is None:
                return True
            if state["id"] not in cycle and not state["frame"]:
                break
        else:
            return False
        for _ in range(follow):
            state = await self.press(onward)
            if state is None:
                return True
            if state["id"] in cycle:
                return False
        return False

    async def reach(self, member: dict[str, Any], limit: int) -> bool:
        """Tab until ``member`` has focus; False when it does not come within ``limit``."""
        for _ in range(limit):
            state = await self.press("Tab")
            if state is not None and state["id"] == member["id"]:
                return True
        return False


async def _find_cycle(walk: _Walk, limit: int) -> list[dict[str, Any]] | None:
    """Tab through the page until every element has been passed and focus left the document,
    or focus comes back to an element without having left: that cycle, else None (also when
    the ``limit`` presses ran out with focus on a new element each time)."""
    since_exit: list[dict[str, Any]] = []
    before_exit: set[int] = set()
    exited = False
    while walk.presses < limit:
        state = await walk.press("Tab")
        if state is None:
            exited, before_exit, since_exit = True, before_exit | {s["id"] for s in since_exit}, []
            continue
        if state["frame"]:
            continue
        if exited and state["id"] in before_exit:
            return None  # round the whole page and out: no element held focus
        seen = [s["id"] for s in since_exit]
        if state["id"] in seen:
            return since_exit[seen.index(state["id"]):]
        since_exit.append(state)
    return None


def _controls(cycle: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The members of a cycle that Enter activates without leaving the page (buttons, and
    links to the page itself): a dialog's Close is the usual way out of a deliberate cycle."""
    return [m for m in cycle if m["kind"] in ("button", "local-link")][:CONTROLS_TRIED]


async def _way_out(walk: _Walk, probe: Probe, cycle: list[dict[str, Any]], count: int) -> tuple[str | None, str]:
    """(the verdict it leads to or None for passed, what was tried) from inside the cycle."""
    held = {s["id"] for s in cycle}
    rounds, follow = count + len(cycle) + 2, count + 2
    if await walk.leaves("Shift+Tab", held, rounds, follow, onward="Shift+Tab"):
        return None, "Shift+Tab moved focus out"
    if await walk.leaves("Escape", held, 1, follow):
        return None, "Escape moved focus out"
    for member in _controls(cycle):
        if await walk.reach(member, len(cycle) + 1) and await walk.leaves("Enter", held, 1, follow):
            return None, f"Enter on {member['label']} ({member['text'][:40]!r}) moved focus out"
    text = str(await probe.call(load_script(__package__, "help_text")) or "")
    combo = advised_combo(text)
    if combo is not None:
        if await walk.leaves(combo, held, 1, follow):
            return None, f"the page's advice ({combo}) moved focus out"
        return "failed", f"Tab, Shift+Tab, Escape and Enter kept it there, and so did {combo}, which the page advises"
    if _KEY_WORDS.search(text):
        return "cantTell", ("Tab, Shift+Tab, Escape and Enter kept it there; the page has instructions about keys "
                            "that may describe a way out: check that they work")
    return "failed", "Tab, Shift+Tab, Escape and Enter kept it there, and the page gives no other way out"


def _judged(walk: _Walk, verdict: str | None, tried: str) -> tuple[str | None, str]:
    """The way-out verdict, made a question when focus was only held by being put back after
    it had left the document.

    Tab past the last element (or Shift+Tab past the first) takes focus to the browser's own
    controls; a script that then calls ``focus()`` from a timer puts the page's focus on an
    element again, and this headless walk follows it. In a browser whose toolbar has taken
    the keyboard focus meanwhile, the script cannot take it back, unless it runs before the
    browser moved focus. So such a cycle fails only where focus is held inside the document;
    held only by a script that acts after focus left, it is a question."""
    if verdict != "failed" or walk.pulled_back is None:
        return verdict, tried
    return "cantTell", (
        f"{tried}; but {walk.pulled_back} took focus out of the page before a script of the page put it back "
        "on an element. A browser whose own controls have taken focus by then keeps it there, so whether "
        "focus can leave depends on the browser: check it by hand"
    )


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    count = int(await probe.call(load_script(__package__, "sequential_focus_count")) or 0)
    if count == 0:
        return  # nothing takes focus: the rule does not apply
    document = Target(("html",), "<html>")
    if not (await probe.listener_types()) & FOCUS_EVENTS:
        yield Outcome(document, "passed", "No script listens for key or focus events: focus cannot be held.")
        return
    walk = _Walk(probe)
    limit = min(MAX_PRESSES, 2 * count + 6)
    cycle = await _find_cycle(walk, limit)
    if cycle is None:
        went = ("moved focus to a new element each time, never back to one it had left"
                if walk.presses >= limit else "went round the page and out of it")
        yield Outcome(document, "passed", f"Tab ×{walk.presses} {went}.")
        return
    tabs = walk.presses
    verdict, tried = _judged(walk, *await _way_out(walk, probe, cycle, count))
    if verdict is None:
        yield Outcome(document, "passed", tried)
        return
    path = " → ".join(f"{s['label']} ({s['text'][:30]!r})" if s["text"] else s["label"] for s in [*cycle, cycle[0]])
    trap = Target.from_page(cycle[0])
    # Focus is still in the cycle: the shot shows where it is held.
    shot = await probe.state_shot(trap, "focus held in the cycle")
    yield Outcome(
        trap,
        verdict,  # type: ignore[arg-type]
        f"{'Keyboard trap' if verdict == 'failed' else 'Possible keyboard trap'}: after Tab ×{tabs} focus kept "
        f"cycling {path}; {tried}.",
        shot=shot,
    )


CHECK = InteractiveCheck(
    rule_id="a11y-keyboard-trap",
    act_rules=("a1b64e", "ebe86a", "80af7b"),
    criteria=("2.1.2",),
    level="A",
    since="2.0",
    impact="critical",
    description="Ensures focus moved into a component with the keyboard can be moved out of it with the keyboard",
    help="Keyboard focus must not be trapped",
    run=run,
)
