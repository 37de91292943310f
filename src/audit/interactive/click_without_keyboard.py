"""a11y-click-without-keyboard: what reacts to the pointer must be reachable and usable from the keyboard.

WCAG 2.1.1 Keyboard (A). No ACT rule covers it (ACT's keyboard rules are about traps and
scrollable regions), so no ACT id is mapped.

axe-core judges markup and cannot see scripts, so a ``div`` that a script made clickable looks
like text to it. The page's own listeners can be read: the check asks the browser for every
element that has a listener of its own for ``click``, ``mousedown``, ``mouseup``,
``pointerdown`` or ``pointerup`` (``DOMDebugger.getEventListeners`` over the whole document,
shadow trees included, frames left out), and for key listeners, through
:meth:`~audit.interactive.probe.Probe.listening`; one page-side call then judges them all.

An element applies when the listener is its own (a container that delegates clicks for its
children is not the control), its handler does more than stop the event or prevent its
default, and it is rendered, visible and at least 8 px square. It passes when Tab can reach
it or the control it belongs to: it is focusable (natively, or tabindex 0 or more), sits
inside a focusable element or a label, wraps a focusable control, or a composite widget
manages it (aria-activedescendant, a focusable or key-handling listbox, menu, grid, tablist).

It fails when it is not focusable, has no key listener, and looks like a control: a role such
as button, link, tab or menuitem; ``cursor: pointer``; an ``a`` without ``href``; or an inline
``onclick`` on a short piece of text or an icon. Needs review: the same with ``tabindex="-1"``
(only scripts can focus it), a custom element whose shadow tree may hold a control, an icon or
text beside a focusable control that may already do the same (a thumbnail beside its link), a
control in a dialog while a key listener is about (Escape may close it as its × does), or a
short text or image with a click listener that does not look like a control (often analytics).
An element with ``pointer-events: none`` cannot be clicked and is left out.
At most :data:`MAX_ITEMS` failures and :data:`MAX_REVIEW` review items are reported. Cost: one listener query and one page-side
call, a few milliseconds to some tens on a large page; no key is pressed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from cdpdriver.scripts import load_script

from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

POINTER_EVENTS = ("click", "mousedown", "mouseup", "pointerdown", "pointerup")
KEY_EVENTS = ("keydown", "keyup", "keypress")
#: Elements reported per page, at most: failures, and to review.
MAX_ITEMS = 10
MAX_REVIEW = 5

_WHY = {
    "role": "has role={role}",
    "cursor": "shows a pointer cursor",
    "anchor": "is an a element without href",
    "inline": "has an inline handler",
}


def _name(item: dict) -> str:
    return f"{item['label']} ({item['text'][:40]!r})" if item["text"] else item["label"]


def message(item: dict) -> str:
    """What was seen for one element, and what to do about it."""
    events = "/".join(item["events"])
    reason = item["reason"]
    if item["verdict"] == "failed":
        why = _WHY[reason].format(role=item["role"])
        return (f"{_name(item)} reacts to {events} and {why}, but the keyboard cannot reach it: it is not "
                "focusable (not a native control, no tabindex) and has no key listener. Use a button or a "
                "link, or give it tabindex=\"0\", a role and Enter/Space handling.")
    if reason == "scripted-focus":
        return (f"{_name(item)} reacts to {events} but has tabindex=\"-1\": Tab skips it and only scripts can "
                "focus it. Check that a keyboard user can reach what it does.")
    if reason == "custom":
        return (f"{_name(item)} reacts to {events}; it is a custom element that is not focusable itself: check "
                "that its shadow tree holds a focusable control.")
    if reason == "dialog":
        return (f"{_name(item)} reacts to {events} but cannot be focused; it sits in a dialog that listens for keys "
                "(Escape may do the same): check that everything it does can be done from the keyboard.")
    if reason == "twin":
        return (f"{_name(item)} reacts to {events} but cannot be focused; a focusable control next to it may do "
                "the same: check that everything it does can be done from the keyboard.")
    return (f"{_name(item)} reacts to {events} but cannot be focused and has no key listener: if it is a "
            "control, make it a button or a link.")


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    judged = await probe.listening(
        (*POINTER_EVENTS, *KEY_EVENTS), load_script(__package__, "click_without_keyboard"), {"max": MAX_ITEMS, "review": MAX_REVIEW}
    )
    if not judged or not judged["applied"]:
        return  # nothing has a pointer listener of its own: the rule does not apply
    for item in judged["items"]:
        yield Outcome(Target.from_page(item), item["verdict"], message(item))
    if not judged["items"]:
        yield Outcome(
            Target(("html",), "<html>"), "passed",
            f"Each of the {judged['applied']} element(s) with a pointer listener of its own can be reached with Tab "
            "(themselves, their control or their widget).",
        )


CHECK = InteractiveCheck(
    rule_id="a11y-click-without-keyboard",
    act_rules=(),
    criteria=("2.1.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures elements that react to the pointer can be reached and used with the keyboard",
    help="Controls that react to clicks must be keyboard accessible",
    run=run,
)
