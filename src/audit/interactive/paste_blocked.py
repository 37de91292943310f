"""a11y-paste-blocked: a password or one-time-code field must accept pasted text.

WCAG 3.3.8 Accessible Authentication (Minimum) (AA, new in 2.2) and 3.3.9 Accessible
Authentication (Enhanced) (AAA), whose extra strictness (no exceptions for object recognition
or personal content) does not touch passwords and codes; W3C failure
technique F109 (preventing password or code re-entry in the same format). No ACT rule covers
it, so no ACT id is mapped.

A log-in or sign-up form whose password field refuses pasted text makes users transcribe
their password or a code character by character, a cognitive function test: copy and paste
and password managers are the criterion's own examples of the mechanism that must be
allowed. Applies to the first :data:`MAX_FIELDS` visible, enabled, editable password fields
and fields whose ``autocomplete`` says ``one-time-code``, ``current-password`` or
``new-password``, in document order (``js/paste_fields.js``); a page without one is not
tested. Each gets focus and a cancelable ``paste`` event (bubbling, with text in its
``clipboardData``: :data:`PASSWORD_TEXT`, or the digits of :data:`CODE_TEXT` for a code field)
dispatched on it, so that an inline ``onpaste`` and listeners on its ancestors, the document
and the window all hear it. A synthetic paste inserts nothing by itself: a paste the page did
not cancel is allowed, and so is one it cancelled to put (cleaned-up) text in the field itself,
or in another field of its form (a code split over one box a digit), at once or once its
timers and next frames have run. The values the paste changed are put back without events and
the field loses focus.

Fails: the page cancelled the paste and no field's value changed. Needs review: the same on a
page that seems to offer another way to sign in (a control saying "sign in with", "passkey",
"magic link", "email me a link" and the like): the criterion allows a refused paste when an
alternative method needs no cognitive function test. Passes (on the document):
every field tried accepted the paste. A field that cannot be focused, or whose page-side call
fails, is left out. ``autocomplete="off"`` is not judged (browsers' password managers ignore
it). What a synthetic event cannot tell: a page that cancels only untrusted pastes would be
failed, and one that refuses the text in ``beforeinput`` instead is not seen. Cost: a few milliseconds per field, at most 10 fields.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import trio

from cdpdriver import CDPError, JavaScriptError
from cdpdriver.scripts import load_script

from .probe import Probe
from .scans import first_read
from .spec import InteractiveCheck, Outcome, Scan, Target

MAX_FIELDS = 10
#: The first read, made with the other checks' as the phase begins (:mod:`.scans`).
SCAN = Scan(load_script(__package__, "paste_fields"), ("find", MAX_FIELDS))
RESERVE = 0.25
#: What is pasted into a password field: letters, digits and a symbol, as a password has.
PASSWORD_TEXT = "Pasted-Secret-42"
#: What is pasted into a one-time-code field: digits, as a code sent by text message is (a page
#: may rightly refuse text that cannot be a code).
CODE_TEXT = "402781"


def _name(field: dict[str, Any]) -> str:
    return f"{field['label']} ({field['text'][:40]!r})" if field["text"] else field["label"]


async def _paste(probe: Probe, field: dict[str, Any]) -> dict[str, Any] | None:
    """Whether the page cancelled a paste into ``field`` and whether a value changed:
    ``{focused, cancelled, changed}``, or None when the field is gone. Its values are put back."""
    script = load_script(__package__, "paste_fields")
    try:
        text = CODE_TEXT if field["code"] else PASSWORD_TEXT
        state = await probe.call(script, "paste", [field["id"], text])
        if state and state["focused"] and state["cancelled"] and not state["changed"]:
            # The page may put the text in a moment later (a timer, its next frame).
            await probe.frames()
            state = {**state, "changed": bool(await probe.call(script, "changed", field["id"]))}
        return state
    finally:
        if not probe.navigated:
            with trio.CancelScope(shield=True), trio.move_on_after(1.0):
                try:
                    await probe.call(script, "restore", field["id"])
                except (CDPError, JavaScriptError):
                    pass


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    fields = await first_read(probe, SCAN)
    if not fields:
        return  # no password or code field: the rule does not apply
    tried = 0
    refused = 0
    for field in fields:
        if probe.remaining() <= RESERVE or probe.navigated:
            break
        try:
            state = await _paste(probe, field)
        except JavaScriptError:
            if probe.navigated:
                return
            continue  # our page-side part failed on this field: leave it out
        if not state or not state["focused"]:
            continue
        tried += 1
        if state["cancelled"] and not state["changed"]:
            refused += 1
            what = "one-time code" if field["code"] else "password"
            said = (f"Pasting into {_name(field)} was refused: the page cancelled the paste event and did not put "
                    "the text in the field itself.")
            if field["alternative"]:
                yield Outcome(Target.from_page(field), "cantTell", (
                    f"{said} The page seems to offer another way to sign in ({field['alternative']!r}): check that "
                    f"it needs no {what} to be transcribed; if it does, let users paste into the field."))
                continue
            yield Outcome(Target.from_page(field), "failed", (
                f"{said} Users who cannot transcribe a {what} need to paste it: let users "
                "paste into the field and let password managers fill it."))
    if tried and not refused:
        yield Outcome(Target(("html",), "<html>"), "passed", (
            f"Pasting into {tried} password or code field(s) was allowed: the page did not cancel the paste, "
            "or put the pasted text in itself."))


CHECK = InteractiveCheck(
    rule_id="a11y-paste-blocked",
    act_rules=(),
    criteria=("3.3.8", "3.3.9"),
    level="AA",
    since="2.2",
    impact="serious",
    description="Ensures password and one-time-code fields let users paste into them",
    help="Password and code fields must accept pasted text",
    run=run,
    scan=SCAN,
)
