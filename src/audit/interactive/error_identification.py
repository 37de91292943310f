"""a11y-error-identification: a form's error must be said in text, not shown by colour alone.

WCAG 3.3.1 Error Identification (A) and 1.4.1 Use of Color (A); failure technique F81 (colour
alone identifies required or error fields). No ACT rule covers it, so no ACT id is mapped.

Many forms validate in script and, sent with a required field empty, only turn its border red:
users who cannot see or tell colours apart, and screen readers, learn nothing. axe-core, and
``a11y-red-border-invalid``, see the page as loaded, before anything was submitted.

Applies to at most :data:`MAX_FORMS` forms of the top document (a ``form``, or ``role=form``)
with a visible, enabled required text field, text area or select with nothing chosen (the
``required`` attribute, ``aria-required="true"``, or a label or placeholder ending in ``*`` or
saying "required") and a visible, enabled submit control (``js/error_forms.js``); forms whose
required fields are empty as loaded first. Search forms and forms in frames are left out.

Each form's required text fields are emptied without events (the user never typed; their
values are kept), the fields' looks and the page's visible text are read
(``js/error_reading.js``), invalid events are listened for, and the submit control is scrolled
into view and clicked at its centre with a real click. Once the page's timers, requests and DOM
have settled (at most :data:`CAP_MS`) the same is read again, with where focus is and the
dialogs the page opened, and the values are put back; the error state the page shows stays. Nothing can leave for a server meanwhile: the phase's guard stops native
submissions, a :class:`~.focus_walk.ContextWatch` stops navigations, and every request that is
not GET, HEAD or OPTIONS is refused before it leaves the browser (:mod:`.request_hold`). When
the audit already pauses this page's requests (``--block-private-networks``, or ``auth``
headers) the check does not act, since two users of the Fetch domain would take each other's
requests: the page's ``interaction.skipped`` lists it with the reason ``unsupported``. A form
whose submit navigated is not judged.

Fails: a required field's border, outline, shadow, background or label turned red, and nothing
else appeared: no text anywhere on the page, no icon, no dialog, no browser message; not
``aria-invalid`` either, and not only on the field that now has focus (it may be its focus
style). Needs review: text appeared but none is tied to the field (in its ``aria-describedby``
or ``aria-errormessage`` targets, its labels, its group) or announced (an alert, status or
live region, what focus moved to), or only hidden text, an icon or ``aria-invalid`` says so,
or the look changed without turning red; or text appeared with no field marked. Passes: the
browser's own validation message was shown, or the text that appeared is tied to each marked
field or announced, or a dialog said it. Nothing is said when nothing changed (the server
would answer on another page), nor of a look that did not turn red on a form the page sent (a
request was refused: it may show the sending); text the page kept changing by itself before
(a clock) only keeps a field from failing. Not decided: what the text says, errors the server would
report, fields other than text fields and selects, forms in shadow roots.

Cost: two page-side readings of the page's text and one click per form, with the page's
settling (some 100-900 ms a form).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import trio

from cdpdriver import CDPError, JavaScriptError
from cdpdriver.scripts import load_script

from ..urls import without_credentials
from .focus_walk import ContextWatch
from .probe import Probe
from .request_hold import held_requests, requests_intercepted
from .scans import first_read
from .spec import CannotAct, InteractiveCheck, Outcome, Scan, Target

MAX_FORMS = 3
#: Outcomes about fields one form gives, at most.
MAX_FIELDS = 5
#: The first read, made with the other checks' as the phase begins (:mod:`.scans`).
SCAN = Scan(load_script(__package__, "error_forms"), ("find", MAX_FORMS))
#: The page's settling after the click: quiet for QUIET_MS, at most CAP_MS.
QUIET_MS = 50
CAP_MS = 800
#: What one form's trial needs of the phase, at least.
RESERVE = 1.5
#: What a field's look may change in that is not a colour: an icon drawn in it.
ICON = "background image"
FIX = ("say in text what is wrong, next to the field, and tie it to the field with aria-describedby or "
       "aria-errormessage.")


def _name(item: dict[str, Any]) -> str:
    return f"{item['label']} ({item['text']!r})" if item.get("text") else item["label"]


def _short(value: str) -> str:
    return value if len(value) <= 60 else value[:57] + "..."


def _quoted(items: list[dict[str, Any]]) -> str:
    return ", ".join(repr(i["text"][:60]) for i in items[:2]) + (" ..." if len(items) > 2 else "")


def _verdict(seen: dict[str, Any], reading: dict[str, Any], dialogs: list[str], focus_red: bool) -> tuple[str, str, str] | None:
    """The field's verdict, what the submit did to it and showed, and the advice; None when
    the page said in text, tied to the field or announced, what is wrong."""
    items = reading["items"]
    texts = [i for i in items if i["text"] and not i["own"]]
    own = [i for i in items if i["text"] and i["own"]]  # may have changed by itself
    tied = [items[k] for k in seen["texts"] if items[k] in texts] + [i for i in texts if i["announced"]]
    if dialogs or any(i["shown"] for i in tied):
        return None
    looks = [c for c in seen["changes"] if c["what"] != ICON]
    red = [c for c in looks if c["red"]]
    change = red[0] if red else (looks[0] if looks else None)
    did = (f"turned its {change['what']} from {_short(change['from'])} to {_short(change['to'])}" if change
           else "set aria-invalid on it" if seen["invalid"] else "drew an icon in it")
    if tied:
        return "cantTell", f"{did}, and the text tied to it ({_quoted(tied)}) is hidden from view", (
            "check that sighted users are told in text what is wrong.")
    if texts:
        return "cantTell", f"{did} and showed text ({_quoted(texts)}) that is not tied to the field nor announced", (
            "check that it names the error, and tie it to the field with aria-describedby or aria-errormessage "
            "so that screen-reader users find it.")
    if own:
        return "cantTell", f"{did} and showed no text but what the page keeps changing ({_quoted(own)})", (
            "check whether the error is said in text.")
    if any(not i["text"] for i in items) or len(looks) < len(seen["changes"]):
        return "cantTell", f"{did} and showed an icon but no text", "check that the error is said in text."
    if not red:
        return "cantTell", f"{did} and showed no text", (
            "check whether this marks an error, which must then be said in text.")
    if seen["invalid"]:
        return "cantTell", f"{did} and set aria-invalid, but showed no text", (
            "screen readers say the field is invalid, the eye sees only colour; check that the error is said in text.")
    if seen["focused"] and not focus_red:
        return "cantTell", f"{did} as focus moved to it, and showed no text", (
            "if that is not only its focus style, the error is shown only by colour; say it in text.")
    return "failed", f"{did} and showed no text", (
        "an error shown only by colour is lost on users who cannot see or tell colours apart, and screen readers "
        f"say nothing of it; fix: {FIX}")


def _judged(form: dict[str, Any], reading: dict[str, Any], dialogs: list[str], refused: list[tuple[str, str]]) -> list[Outcome]:
    on_form = Target.from_page(form)
    what = f"Submitting {form['label']} with its required fields empty"
    if reading["bubble"]:
        return [Outcome(on_form, "passed", f"{what} showed the browser's own validation message, in text.")]
    items = reading["items"]
    texts = [i for i in items if i["text"] and not i["own"]]
    fields = {f["id"]: f for f in form["fields"]}
    marked = [(fields[s["id"]], s) for s in reading["fields"] if s["id"] in fields and (s["changes"] or s["invalid"])]
    if refused:  # the page sent the form: a look that is not an error's may be its sending
        marked = [(f, s) for f, s in marked if s["invalid"] or any(c["red"] for c in s["changes"])]
    if not marked:
        if dialogs or any(i["announced"] for i in texts) or any(items[k] in texts for s in reading["fields"] for k in s["texts"]):
            return [Outcome(on_form, "passed", f"{what} said in text what was wrong.")]
        if texts and not refused:
            return [Outcome(on_form, "cantTell", (
                f"{what} showed text ({_quoted(texts)}) but marked no field and tied the text to none: check "
                "that it says which field is in error."))]
        return []  # nothing changed: the server would answer, on another page
    # A red focus style looks like an error mark on the field that has focus: it counts
    # only when a field without focus turned red too.
    focus_red = any(c["red"] for _, s in marked if not s["focused"] for c in s["changes"])
    refusal = (f" (the audit refused the {refused[0][0]} request it sent to {without_credentials(refused[0][1])[:80]})"
               if refused else "")
    outcomes: list[Outcome] = []
    for field, seen in marked[:MAX_FIELDS]:
        judged = _verdict(seen, reading, dialogs, focus_red)
        if judged is not None:
            verdict, did, advice = judged
            outcomes.append(Outcome(Target.from_page(field), verdict, (
                f"Submitting {form['label']} with the required field {_name(field)} empty {did}{refusal}: {advice}")))
    if not outcomes:
        return [Outcome(on_form, "passed", f"{what} said in text, tied to each marked field, what was wrong.")]
    return outcomes


async def _submit(probe: Probe, watch: ContextWatch, form: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str], bool]:
    """The reading after submitting the form, the dialogs it opened, and whether the page
    tried to navigate (then there is nothing to judge); the values are put back."""
    forms, reading = load_script(__package__, "error_forms"), load_script(__package__, "error_reading")
    await probe.call(forms, "empty", form["id"])
    try:
        point = await probe.call(forms, "point", form["id"])
        if not point or not await probe.call(reading, "before", [form["id"], [f["id"] for f in form["fields"]]]):
            return None, [], False
        await watch.changes()  # what an earlier action did is not the submit's
        with probe.page.session.listen("Page.javascriptDialogOpening", raw=True) as opened:
            await probe.click(point["x"], point["y"])
            if probe.navigated:
                return None, [], True
            await probe.page_quiet(QUIET_MS, CAP_MS)
            after = await probe.call(reading, "after", not form["novalidate"] and not point["formnovalidate"])
            dialogs: list[str] = []
            while True:
                try:
                    dialogs.append(str(opened.receive_nowait().params.get("message") or ""))
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
        moved = any(c.kind == "navigation" for c in await watch.changes())
        return after, dialogs, moved
    finally:
        if not probe.navigated:
            with trio.CancelScope(shield=True), trio.move_on_after(1.0):
                try:
                    await probe.call(forms, "restore", form["id"])
                except (CDPError, JavaScriptError):
                    pass


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    forms = await first_read(probe, SCAN)
    if not forms:
        return  # no form with a required field and a submit control: the rule does not apply
    if requests_intercepted(probe.page):
        raise CannotAct(
            "The audit already pauses this page's requests (the private-network guard, or the request's "
            "auth headers), and submitting a form safely needs to hold them itself: the page's forms were "
            "not submitted.")
    outcomes: list[Outcome] = []
    failure: Exception | None = None
    try:
        async with held_requests(probe.page) as held, ContextWatch(probe) as watch:
            for form in forms:
                if probe.remaining() <= RESERVE:
                    break
                before = len(held.refused)
                reading, dialogs, moved = await _submit(probe, watch, form)
                if probe.navigated:
                    break
                if reading is None or moved:
                    continue
                found = _judged(form, reading, dialogs, held.refused[before:])
                outcomes += await probe.with_state_shots(found, "after the form was sent with its required fields empty")
    except (CDPError, JavaScriptError, trio.TooSlowError) as exc:
        failure = exc  # what was judged before still counts; the phase reports the rest
    for outcome in outcomes:
        yield outcome
    if failure is not None:
        raise failure


CHECK = InteractiveCheck(
    rule_id="a11y-error-identification",
    act_rules=(),
    criteria=("3.3.1", "1.4.1"),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures a form sent with a required field empty says in text what is wrong, not only by colour",
    help="Form errors must be described in text, not only shown by colour",
    run=run,
    scan=SCAN,
)
