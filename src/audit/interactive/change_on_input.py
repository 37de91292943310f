"""a11y-change-on-input: changing a field's setting must not change the context unannounced.

WCAG 3.2.2 On Input (A). No ACT rule covers it, so no ACT id is mapped.

A select that loads another page as soon as an option is chosen (the classic language or
country picker), a field that submits its form when it loses focus: keyboard users who
browse the options with the arrow keys, or fix a typo, are sent elsewhere. The check takes
the first :data:`MAX_FIELDS` visible, enabled single selects (two options or more) and text
fields in document order that a script can hear (a listener for typing, choosing or leaving
a field on the field, an ancestor, the document or the window: without one, changing a setting
cannot change the context, and the check passes the page without touching it). A select gets focus and a real ArrowDown (ArrowUp on its last
option), which chooses the neighbouring option as a user browsing would, then the opposite
key, which puts the choice back; a text field gets focus, one real character and a blur,
then its value back. Meanwhile a :class:`~.focus_walk.ContextWatch` stops and records every
navigation to another document, notes windows the page asks to open and counts stopped form
submissions.

Fails: the change navigated (stopped or not), opened a window or submitted a form, and did
so again (for a select, putting the choice back; for a field, a second try), with nothing
around the field (labels, description, legend, its container's text) warning that a choice
acts at once. Needs review: the same when the page seems to warn about it (the criterion
allows an announced change), or when it happened only once. A navigation that cannot be
stopped is reported before the check ends (the phase then reloads the page). Cost: a few
milliseconds per field, at most 10 fields.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import trio

from cdpdriver import CDPError, JavaScriptError
from cdpdriver.scripts import load_script

from .focus_walk import Change, ContextWatch, left
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

MAX_FIELDS = 10
RESERVE = 0.25
#: What a change of a field's setting fires (typing, choosing, leaving it): a change of
#: context on input needs a script listening for one of these.
INPUT_EVENTS = frozenset({
    "input", "beforeinput", "change", "keydown", "keyup", "keypress", "blur", "focusout",
    "search", "compositionend", "textInput",
})


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def _name(field: dict[str, Any]) -> str:
    return f"{field['label']} ({field['text'][:40]!r})" if field["text"] else field["label"]


async def _select(probe: Probe, watch: ContextWatch, field: dict[str, Any]) -> tuple[list[Change], list[Change], str]:
    """A select's changes when the next option is chosen, and when the first is chosen back."""
    state = await probe.call(load_script(__package__, "input_changes"), "focus", field["id"])
    if not state or not state["focused"]:
        return [], [], ""
    await watch.changes()  # what focusing did is the change-on-focus check's
    there, back = ("ArrowUp", "ArrowDown") if state["last"] else ("ArrowDown", "ArrowUp")
    await probe.press(there)
    first = await watch.changes()
    if any(c.left for c in first):
        return first, [], there
    await probe.press(back)
    again = await watch.changes()
    await probe.call(load_script(__package__, "input_changes"), "blur", field["id"])  # a select changes at once
    return first, again, there


async def _field(probe: Probe, watch: ContextWatch, field: dict[str, Any]) -> tuple[list[Change], list[Change], str]:
    """A text field's changes when a character is typed and focus leaves it, then on a
    second try; its value is put back."""
    script = load_script(__package__, "input_changes")
    original = await probe.call(script, "value", field["id"])
    found: list[list[Change]] = []
    for _ in range(2):
        state = await probe.call(script, "focus", field["id"])
        if not state or not state["focused"]:
            break
        await watch.changes()
        await probe.press(field["key"])
        await probe.call(script, "blur", field["id"])
        changes = await watch.changes()
        found.append(changes)
        if any(c.left for c in changes):
            break
        await probe.call(script, "restore", [field["id"], original])
        if not changes:
            break
    return (found[0] if found else []), (found[1] if len(found) > 1 else []), f"typing {field['key']!r} and leaving it"


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    if not await probe.listening(INPUT_EVENTS, load_script(__package__, "input_listeners")):
        if await probe.call(load_script(__package__, "input_changes"), "find", 1):
            yield Outcome(Target(("html",), "<html>"), "passed", (
                "No script listens for typing, choosing or leaving a field, so changing a select or a text field "
                "cannot change the context."))
        return  # else no select or text field to change: the rule does not apply
    fields = await probe.call(load_script(__package__, "input_changes"), "find", MAX_FIELDS)
    if not fields:
        return  # no field a listener can hear (or none at all): nothing to try
    tried = 0
    found = 0
    async with ContextWatch(probe) as watch:
        for field in fields:
            if probe.remaining() <= RESERVE:
                break
            change = _select if field["kind"] == "select" else _field
            try:
                first, again, how = await change(probe, watch, field)
            except (CDPError, JavaScriptError, trio.TooSlowError):
                if not await left(probe):
                    raise
                first, again, how = [Change("navigation", left=True)], [], "changing it"
            if not how:
                continue
            tried += 1
            if not first:
                continue
            found += 1
            if field["kind"] == "select":
                how = f"choosing another option of {_name(field)} with {how}"
            else:
                how = f"{how} in {_name(field)}"
            said = "; ".join(dict.fromkeys(c.describe() for c in first))
            target = Target.from_page(field)
            if any(c.left for c in first):
                yield Outcome(target, "failed", (
                    f"{_first_up(how)}: {said}. Changing a setting must not change the context unless the user "
                    "was told beforehand: let a button apply the choice."))
                return  # the page is gone; the phase loads it again
            if again and not field["advised"]:
                yield Outcome(target, "failed", (
                    f"{_first_up(how)}: {said} (again on a second change). Changing a setting must not change "
                    "the context unless the user was told beforehand: let a button apply the choice."))
            elif again:
                yield Outcome(target, "cantTell", (
                    f"{_first_up(how)}: {said}. The text around it seems to warn that this happens: check that "
                    "users are told before they use it."))
            else:
                yield Outcome(target, "cantTell", (
                    f"{_first_up(how)}: {said}, but not on a second change: check whether changing it changes the "
                    "context."))
    if tried and not found:
        yield Outcome(Target(("html",), "<html>"), "passed", (
            f"Changing {tried} select(s) and text field(s) (arrow keys, typing and leaving) did not navigate, open a "
            "window or submit a form."))


CHECK = InteractiveCheck(
    rule_id="a11y-change-on-input",
    act_rules=(),
    criteria=("3.2.2",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures changing a select or a text field does not navigate, open a window or submit a form unannounced",
    help="Changing a setting must not change the context without warning",
    run=run,
)
