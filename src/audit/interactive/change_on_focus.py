"""a11y-change-on-focus: moving focus to an element must not change the context.

WCAG 3.2.1 On Focus (A). No ACT rule covers it, so no ACT id is mapped.

A select that navigates as soon as Tab reaches it, a field that submits its form when focused,
a link that opens a window on focus: a keyboard user cannot even pass them. Only a script
listening for focus events (``focus``, ``focusin``, ``blur``, ``focusout``; inline handlers
included) can do that; without one the rule passes at once. With one, the check reads the
shared focus visits (:mod:`.focus_walk`): real Tab presses from the top of the document when a
listener on the window, the document or a container may hear any element's focus, and one to
each element with a focus listener of its own that the walk did not reach, during
which every navigation to another document is stopped and recorded (the Navigation API's
navigate event), every window the page asks to open is noted (``Page.windowOpen``) and every
form submission is stopped and counted (the phase's guard). A step that changed the context
is repeated once from where it started.

Fails: a Tab press whose focus change navigated (stopped or not), opened a window or
submitted a form, again when repeated; also a navigation that could not be stopped, which
ends the walk (reported before the phase reloads the page). Needs review: such a change that
did not come back when repeated (it may have been the page's own timer), and focus that the
page moved on at once to an element far away (over 400 CSS px) from the one Tab reached.
Cost: a listener query; on pages that listen for focus events the shared walk (at most 20 Tab
presses and reads, some 5 to 10 ms each, shared with three other checks), and one more press
per step that changed the context.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from . import focus_walk
from .focus_order import name
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

#: How far (CSS px) the page must move focus on from where Tab put it for a review item.
FAR = 400
MAX_ITEMS = 10


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    walk = await focus_walk.walk(probe)
    document = Target(("html",), "<html>")
    if walk.left_after is not None:
        before = walk.left_after
        where = f"from {name(before)}" if before else "from the top of the page"
        yield Outcome(Target.from_page(before) if before else document, "failed", (
            f"Pressing Tab {where} (Tab ×{walk.tabs}) made the page leave for another document: receiving focus "
            "must not change the context. Navigate only when the user activates a control."))
        return
    if not walk.plan.get("count"):
        return  # nothing takes focus: the rule does not apply
    found = 0
    for step in walk.steps:
        if found >= MAX_ITEMS:
            break
        changes = list(dict.fromkeys(c.describe() for c in step.changes))
        if changes:
            found += 1
            seen = f"{step.how} moved focus to {name(step.state)}, and {'; '.join(changes)}"
            if step.confirmed:
                yield Outcome(Target.from_page(step.state), "failed", seen + (
                    " (again when repeated). Receiving focus must not change the context: act only when the user "
                    "activates the control (a button, a link, Enter)."))
            else:
                yield Outcome(Target.from_page(step.state), "cantTell", seen + (
                    ", but not when the step was repeated: check whether focusing it changes the context."))
            continue
        moved = step.state.get("moved")
        if moved and moved["shown"] and moved["distance"] > FAR:
            found += 1
            yield Outcome(Target.from_page(moved), "cantTell", (
                f"{step.how} moved focus to {moved['label']}, and the page at once moved it on to {name(step.state)}, "
                f"{moved['distance']} px away. Check that receiving focus does not take the user somewhere else."))
    if found:
        return
    if walk.listened:
        yield Outcome(document, "passed", (
            f"Tab moved focus to {len(walk.steps)} element(s), those whose focus a script listens for among "
            "them; none navigated, opened a window, submitted a form or sent focus elsewhere."))
    else:
        yield Outcome(document, "passed", (
            "No script listens for focus events (focus, focusin, blur, focusout): receiving focus cannot change "
            "the context."))


CHECK = InteractiveCheck(
    rule_id="a11y-change-on-focus",
    act_rules=(),
    criteria=("3.2.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures moving keyboard focus to an element does not navigate, open a window or submit a form",
    help="Receiving focus must not change the context",
    run=run,
)
