"""a11y-revealed-state: the content behind a page's disclosure controls, opened and audited.

No ACT rule (the ACT rules judge one state of a page; this check makes the other states
reachable to axe-core's rules, whose ACT mappings then apply). WCAG 4.1.2 Name, Role, Value
(A) for its own verdict; what axe finds in the revealed content is reported under axe's rule
ids and criteria.

Menus, accordions, ``<details>``, popovers and tab panels keep part of a page hidden at load,
and the static pass skips hidden content: an image without alternative text in a closed
menu, a low-contrast link in a collapsed panel go unreported. The check finds the page's
disclosure controls (``js/disclosure_controls.js``): ``aria-expanded="false"``,
``aria-haspopup``, ``aria-controls``/``popovertarget``/``data-toggle`` naming hidden content,
a closed ``<details>``' summary, a tab whose panel is hidden, and buttons that look like menu
toggles (their words, or hidden content right after them); at most :data:`MAX_CONTROLS`, in
document order; never a link that navigates, a submit button, a field, a control inside a
form unless it is a declared ``type=button`` disclosure, or a button whose words say it acts
on the user's behalf (buy, delete, sign in, accept...). Dialog openers are
a11y-dialog-focus's. Each is activated (:mod:`audit.interactive.reveal`: Enter on a native
control, else a real click at its centre), the content that became shown is handed to axe-core
with the request's rules, and the control is put back and verified; a page that cannot be put
back ends the check.

Verdicts of this rule, on the control: ``failed`` when it declares ``aria-expanded="false"``
and ``aria-controls``, the element it controls was revealed, the page settled, and
``aria-expanded`` never changed (assistive technologies announce it collapsed while it is
open: its state is not exposed, 4.1.2); ``cantTell`` when ``aria-expanded`` stayed ``false``
while other content was revealed (it may not be what the control expands); ``passed`` for
every other control that revealed content. A control that reveals nothing yields nothing; a
page with no candidate is inapplicable. Content still fading in when the settle time ran out
is not judged for colour.

Evidence: while the content is shown, the first failed or undecided outcomes are shot
(:meth:`Probe.state_shot <audit.interactive.probe.Probe.state_shot>`, when the run takes
screenshots): put back, the content is hidden and could not be shot.

Cost: one page-side call on every page (a few milliseconds); per control, about 100–200 ms
(activation, settling, axe-core on the revealed part, putting back); the check stops after
:data:`MAX_SECONDS` or a share of the phase's remaining time.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import trio

from cdpdriver.scripts import load_script

from .probe import Probe
from .reveal import (
    MAX_ROOTS,
    SETTLE_CAP_MS,
    audit,
    describe_control,
    open_control,
    put_back,
    state_change,
)
from .scans import first_read
from .spec import InteractiveCheck, Outcome, Scan, Target

#: Controls activated per page, at most.
MAX_CONTROLS = 6
#: The first read, made with the other checks' as the phase begins (:mod:`.scans`).
SCAN = Scan(load_script(__package__, "disclosure_controls"), (MAX_CONTROLS,))
#: The check's own time, at most, and its share of what is left of the phase.
MAX_SECONDS = 1.2
PHASE_SHARE = 0.5


def _stayed_collapsed(control: dict, after: dict) -> bool:
    """The control said ``aria-expanded="false"`` before and after, and never changed it."""
    return control.get("expanded") == "false" and after.get("expanded") == "false" and not after.get("changes")


def _own_outcome(control: dict, action: str, after: dict, shown: str) -> Outcome:
    """This rule's verdict on a control that revealed content."""
    target = Target.from_page(control)
    did = f"{action[0].upper()}{action[1:]} {describe_control(control)} showed {shown}"
    unchanged = _stayed_collapsed(control, after)
    if unchanged and after.get("controlled") and after.get("settled") and not after.get("hover"):
        return Outcome(target, "failed", (
            f"{did}, the content its aria-controls names, but aria-expanded stayed \"false\": assistive "
            "technologies announce it collapsed while it is open. Set aria-expanded to \"true\" when it opens."
        ))
    if unchanged:
        return Outcome(target, "cantTell", (
            f"{did}, but its aria-expanded stayed \"false\": check whether that content is what it expands; "
            "if so, aria-expanded must become \"true\"."
        ))
    change = state_change(control, after)
    return Outcome(target, "passed", f"{did}{f' ({change})' if change else ''}; axe-core checked it.")


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    controls = await first_read(probe, SCAN)
    if not controls:
        return
    stop_at = trio.current_time() + min(MAX_SECONDS, probe.remaining() * PHASE_SHARE)
    seen: set[tuple[str, str, str]] = set()
    for control in controls:
        if trio.current_time() >= stop_at or probe.navigated:
            return
        opened = await open_control(probe, control)
        if opened is None:
            continue
        action, after = opened
        if _stayed_collapsed(control, after) and not after["settled"]:
            # Still changing when the settle time ran out (a scripted animation): read again.
            after = await probe.call(load_script(__package__, "reveal_after"), SETTLE_CAP_MS, MAX_ROOTS) or after
        if _stayed_collapsed(control, after) and after["controlled"] and action == "clicking":
            # Shown by the pointer resting on it (a :hover menu) rather than by the click? Then
            # it goes when the pointer does, and the click did not open anything.
            await probe.move_mouse(0, 0)
            moved = await probe.call(load_script(__package__, "reveal_after"), SETTLE_CAP_MS, MAX_ROOTS)
            after = {**after, "hover": not (moved and moved["controlled"])}
        roots = after["roots"]
        if roots:
            shown = ", ".join(root["label"] for root in roots[:3]) + (f" and {len(roots) - 3} more" if len(roots) > 3 else "")
            change = state_change(control, after)
            context = f"Shown after {action} {describe_control(control)}{f' ({change})' if change else ''}"
            # Shot while open (hidden once put back); where it is: scrolling may close a menu.
            state = f"after {action} {describe_control(control)}"
            found = await audit(probe, roots, context, seen, faded=after["faded"] or not after["settled"])
            for outcome in await probe.with_state_shots(found, state, scroll=False):
                yield outcome
            own = _own_outcome(control, action, after, shown)
            if own.verdict != "passed":
                beside = Target((roots[0]["target"],), "")  # a selector, or a path through shadow roots
                own = replace(own, shot=await probe.state_shot(own.target, state, scroll=False, beside=beside))
            yield own
        if probe.navigated or not await put_back(probe, control, action, after):
            return  # the page is not as the next control expects


CHECK = InteractiveCheck(
    rule_id="a11y-revealed-state",
    act_rules=(),
    criteria=("4.1.2",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures content behind disclosure controls (menus, accordions, details, tabs) is audited once "
    "opened, and that a control's aria-expanded follows the content it reveals",
    help="Content revealed by a control must be accessible, and the control must report its state",
    run=run,
    scan=SCAN,
)
