"""a11y-dialog-focus: a dialog takes focus when it opens, keeps it while it is modal, closes
with Escape, and gives focus back when it closes.

No ACT rule covers it. WCAG 2.4.3 Focus Order (A): every failure of this check is one of
focus order (focus left behind a modal dialog, or walking out of it behind its overlay).
What touches 2.1.2 No Keyboard Trap (no Escape, no close control that works) is only ever
needs-review here, since a way out this check did not find may exist (a11y-keyboard-trap
decides traps); so the rule declares 2.4.3 alone, and a finding never claims a trap. The
dialog's name (4.1.2) is axe-core's aria-dialog-name, not this check's.

axe-core reads a dialog as it was loaded, closed; what goes wrong shows only when it opens:
focus left on the page behind it, a Tab that walks out of a modal dialog into content
covered by its overlay, a dialog Escape does not close, focus dropped on the body when it
closes (keyboard users start again from the top). The check finds controls that open dialogs
(``js/dialog_openers.js``: ``aria-haspopup="dialog"``, ``data-toggle="modal"``, an attribute
naming a hidden ``<dialog>``/``role=dialog``/``alertdialog``, or a control a11y-revealed-state
saw open one), at most :data:`MAX_DIALOGS`, with that check's restraint (no navigating link,
no submit button, nothing in a form but ``type=button`` controls), and opens each as a person
would (Enter on a native control, else a click; :mod:`audit.interactive.reveal`). Then:

* focus after opening (waiting up to :data:`FOCUS_WAIT_MS` for scripts that move it after a
  transition): still on the opener, on the body or elsewhere outside while the dialog is
  modal (``showModal()`` or ``aria-modal="true"``) **fails** (2.4.3); outside a non-modal
  dialog it is not judged, except on the body (needs review);
* Tab from the dialog's last focusable element, while modal: focus landing on an element
  outside that something covers (the page behind the overlay) **fails** (2.4.3); outside
  but not covered needs review; leaving the document or staying inside passes;
* Escape, with focus inside: a dialog still open needs review (a close button may be the
  intended way; 2.1.2 is not failed while one works), and it is then closed with its own
  close control; a dialog neither Escape nor a close control shuts needs review and ends the
  check;
* focus after closing: back on the opener, or on another shown element, passes; on the body
  or on a hidden element needs review.

The content of a dialog hidden at load is also handed to axe-core with the request's rules,
reported under axe's rule ids (see a11y-revealed-state), unless less than
:data:`AXE_RESERVE` of the phase is left (the focus verdict comes first). One outcome per
dialog, its target the dialog (the opener when the dialog is gone from the document once
closed), its message all that was seen.

A dialog with a problem seen while open is shot then, before it closes (:meth:`Probe.state_shot
<audit.interactive.probe.Probe.state_shot>`, when the run takes screenshots): the finding's
screenshot shows it open.

Cost: one page-side call on every page (a millisecond without dialogs); about 200–400 ms per
dialog; the check stops after :data:`MAX_SECONDS` or a share of the phase's remaining time.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import trio

from cdpdriver.scripts import load_script

from .probe import Probe
from .reveal import audit, describe_control, open_control, put_back
from .scans import first_read
from .spec import InteractiveCheck, Outcome, Scan, Target

#: Dialogs opened per page, at most.
MAX_DIALOGS = 3
#: The first read, made with the other checks' as the phase begins (:mod:`.scans`).
SCAN = Scan(load_script(__package__, "dialog_openers"), (MAX_DIALOGS,))
#: How long focus may take to move into a dialog that opened, and a closed dialog to go.
FOCUS_WAIT_MS = 600
CLOSE_WAIT_MS = 250
#: How long a read waits for the page's own timers after a Tab (focus traps move focus back).
TIMER_WAIT_MS = 30
#: A second, longer read when focus went to an element that shows nothing.
SENTINEL_WAIT_MS = 150
#: The phase time a dialog's content audit needs left, else it is skipped for the focus verdict.
AXE_RESERVE = 1.0
#: The check's own time, at most, and its share of what is left of the phase.
MAX_SECONDS = 1.5
PHASE_SHARE = 0.5


class _Verdict:
    """What one dialog showed: failures, things to review, and what went well."""

    def __init__(self) -> None:
        self.failed: list[str] = []
        self.review: list[str] = []
        self.fine: list[str] = []

    @property
    def verdict(self) -> str:
        return "failed" if self.failed else "cantTell" if self.review else "passed"

    def text(self) -> str:
        return "; ".join([*self.failed, *self.review, *self.fine])


def _on_open(info: dict[str, Any], control: dict[str, Any], seen: _Verdict) -> None:
    where = {
        "opener": f"stayed on {control['label']}",
        "none": "went to the body",
        "outside": f"went to {info['focusLabel']}, outside it",
    }.get(info["focus"], "")
    if info["focus"] == "inside":
        seen.fine.append(f"focus moved into it ({info['focusLabel']})")
    elif info["modal"]:
        seen.failed.append(
            f"focus {where} while the modal dialog was open: keyboard and screen reader users are left "
            "behind it; move focus into the dialog when it opens"
        )
    elif info["focus"] == "none":
        seen.review.append("focus went to the body when it opened: check that keyboard users can reach the dialog")


async def _tab_out(probe: Probe, seen: _Verdict) -> None:
    """Tab from the modal dialog's last element: focus must not walk out behind it."""
    last = await probe.call(load_script(__package__, "dialog_tab_out"))
    if last is None:
        return
    await probe.press("Tab")
    where = await probe.call(load_script(__package__, "dialog_focus_now"), TIMER_WAIT_MS, False)
    if where is not None and where["focus"] == "outside" and where.get("empty"):
        # An empty element outside: often a focus trap's sentinel, whose script may be slower.
        where = await probe.call(load_script(__package__, "dialog_focus_now"), SENTINEL_WAIT_MS, False)
    if where is None or where["focus"] != "outside":
        seen.fine.append("Tab from its last element stayed in it")
    elif where["covered"]:
        seen.failed.append(
            f"Tab from its last element ({last}) moved focus to {where['label']}, behind the modal dialog's "
            "overlay: keep focus inside the dialog while it is open"
        )
    else:
        seen.review.append(
            f"Tab from its last element ({last}) moved focus to {where['label']}, outside the modal dialog: "
            "check that content outside is meant to be usable while it is open"
        )


async def _close(probe: Probe, seen: _Verdict) -> dict[str, Any] | None:
    """Escape, then the dialog's own close control: how it closed (``js/dialog_closed.js``),
    or None when it stayed open."""
    ready = await probe.call(load_script(__package__, "dialog_focus_now"), 0, True)
    if ready is not None and ready["open"]:
        await probe.press("Escape")
    closed = await probe.call(load_script(__package__, "dialog_closed"), CLOSE_WAIT_MS)
    if closed is not None and closed["closed"]:
        seen.fine.append("Escape closed it")
        return closed
    control = await probe.call(load_script(__package__, "dialog_close_control"))
    if control is not None and control["hit"]:
        await probe.click(control["x"], control["y"])
        closed = await probe.call(load_script(__package__, "dialog_closed"), CLOSE_WAIT_MS)
        if closed is not None and closed["closed"]:
            seen.review.append(
                f"Escape did not close it ({control['label']} did): check that keyboard users have a way to "
                "close it, and consider closing it on Escape"
            )
            return closed
    seen.review.append("neither Escape nor a close control found in it closed it: check how keyboard users close it")
    return None


def _on_close(closed: dict[str, Any], seen: _Verdict) -> None:
    if closed["focus"] == "opener":
        seen.fine.append("focus returned to the opener")
    elif closed["focus"] == "other":
        seen.fine.append(f"focus moved to {closed['label']}")
    elif closed["focus"] == "none":
        seen.review.append(
            "focus went to the body when it closed: keyboard users start again from the top; return it to the opener"
        )
    else:
        seen.review.append(f"focus stayed on {closed['label']}, hidden once it closed: return it to the opener")


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    controls = await first_read(probe, SCAN)
    if not controls:
        return
    stop_at = trio.current_time() + min(MAX_SECONDS, probe.remaining() * PHASE_SHARE)
    reported: set[tuple[str, str, str]] = set()
    for control in controls:
        if trio.current_time() >= stop_at or probe.navigated:
            return
        opened = await open_control(probe, control)
        if opened is None:
            continue
        action, after = opened
        info = await probe.call(load_script(__package__, "dialog_opened"), FOCUS_WAIT_MS)
        if info is None:  # it revealed something else, or nothing
            if not await put_back(probe, control, action, after):
                return
            continue
        seen = _Verdict()
        _on_open(info, control, seen)
        if control["hint"] != "opened one before" and probe.remaining() > AXE_RESERVE:
            # (a11y-revealed-state audited a dialog it revealed; the focus verdict comes first)
            context = f"Shown after {action} {describe_control(control)}, which opened {info['label']}"
            for outcome in await audit(probe, after["roots"], context, reported, faded=after["faded"] or not after["settled"]):
                yield outcome
        if info["modal"] and info["tabbables"]:
            await _tab_out(probe, seen)
        dialog = Target.from_page(info)
        # A problem seen while it is open is shot before it closes (focus where it went).
        shot = await probe.state_shot(dialog, "open", scroll=False) if seen.verdict != "passed" else None
        closed = await _close(probe, seen)
        if closed is not None:
            _on_close(closed, seen)
        target = dialog if closed is None or closed["connected"] else Target.from_page(control)
        kind = "modal dialog" if info["modal"] else "dialog"
        yield Outcome(target, seen.verdict, (  # type: ignore[arg-type]
            f"{action[0].upper()}{action[1:]} {describe_control(control)} opened the {kind} {info['label']}: {seen.text()}."
        ), shot=shot if target is dialog else None)
        if closed is None or probe.navigated:
            return  # still open: the page is not as the next opener expects


CHECK = InteractiveCheck(
    rule_id="a11y-dialog-focus",
    act_rules=(),
    criteria=("2.4.3",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures focus moves into a dialog when it opens, stays inside while it is modal, and returns "
    "when the dialog closes, which Escape does",
    help="Dialogs must manage keyboard focus",
    run=run,
    scan=SCAN,
)
