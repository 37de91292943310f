"""Opening what a control hides, auditing it with axe-core, and putting the page back: the
steps a11y-revealed-state and a11y-dialog-focus share.

The static pass judges content hidden at load (a closed menu, an accordion panel, a tab
panel, a dialog not open yet) as hidden: axe's element rules skip it, so its barriers surface
only once somebody opens it. Here a control that a finder (``js/disclosure_controls.js``,
``js/dialog_openers.js``) registered in the interaction world is activated as a person would:
Enter with focus on it when it is a native control (a button, a summary, a link to this
page), else a real click at its centre when a click there reaches it (nothing covers it). The
content revealed is what was hidden from everyone (not rendered, aria-hidden or inert) before
the action, or did not exist, and is shown after it: its topmost elements are the roots
:func:`audit` hands to axe-core, with the request's rules. What axe reports there is yielded
under axe's own rule ids, each message saying which control revealed it.

Undoing an action (:func:`put_back`) activates the control again (or the tab that was
selected), then tries Escape; it is verified (the revealed content hidden again, the
control's ``aria-expanded`` or ``<details>`` state as it was), and a page that could not be
put back ends the check that acted on it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from cdpdriver.scripts import load_script

from .probe import Probe
from .spec import Outcome, Target

#: How long the page may take to settle after an action (its animations are hurried along).
SETTLE_CAP_MS = 400
#: Revealed roots handed to axe per action, at most.
MAX_ROOTS = 8
#: Rules that judge colours: left out while revealed content is still fading in.
COLOUR_RULES = frozenset({"color-contrast", "color-contrast-enhanced", "link-in-text-block"})
_VERDICTS = (("violations", "failed"), ("incomplete", "cantTell"))


async def activate(probe: Probe, element_id: int, how: str) -> str | None:
    """Activate the registered element ``element_id``: Enter when ``how`` is ``key`` and it
    took focus, else a click at its centre if nothing covers it. The words for a message
    ("pressing Enter on", "clicking"), or None when it could not be activated."""
    point = await probe.call(load_script(__package__, "reveal_point"), element_id, how)
    if point is None:
        return None
    if how == "key" and point["focused"]:
        await probe.press("Enter")
        return "pressing Enter on"
    if point["hit"]:
        await probe.click(point["x"], point["y"])
        return "clicking"
    return None


async def open_control(probe: Probe, control: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Activate ``control`` (a finder's entry) and read what it revealed (``js/reveal_after.js``):
    (the action's words, the reading), or None when it could not be activated. A native control
    that Enter left unchanged is clicked too: some answer only the mouse."""
    for how in dict.fromkeys((str(control["how"]), "click")):
        if not await probe.call(load_script(__package__, "reveal_before"), control["id"]):
            return None
        action = await activate(probe, control["id"], how)
        after = await probe.call(load_script(__package__, "reveal_after"), SETTLE_CAP_MS, MAX_ROOTS)
        if action is None or after is None:
            continue
        if after["roots"] or after["expanded"] != control.get("expanded") or after["changes"]:
            return action, after
    return None


async def put_back(probe: Probe, control: Mapping[str, Any], action: str, after: Mapping[str, Any]) -> bool:
    """Undo what ``action`` on ``control`` did: the control (or the element that restores it)
    activated again the same way, then Escape; whether the page is verified back. Escape comes
    first when a dialog was revealed (its opener is behind it) or focus moved into what was
    revealed (a menu: Escape closes it and gives focus back, where activating its button again
    may open it anew). The pointer leaves first: a menu that opens on hover closes."""
    how = "click" if action == "clicking" else str(control.get("restoreHow", control["how"]))
    restore = (control.get("restore", control["id"]), how)
    if action == "clicking":
        await probe.move_mouse(0, 0)
    escape_first = after.get("focusInside") or any(root["dialog"] for root in after["roots"])
    for step in (["Escape", restore] if escape_first else [restore, "Escape"]):
        if step == "Escape":
            await probe.press("Escape")
        elif (done := await activate(probe, *step)) is None:
            continue
        elif done == "clicking":
            await probe.move_mouse(0, 0)
        state = await probe.call(load_script(__package__, "reveal_restored"), SETTLE_CAP_MS)
        if state["restored"]:
            return True
    return False


def describe_control(control: Mapping[str, Any]) -> str:
    """``button#menu ("Menu")``."""
    text = str(control.get("text") or "").strip()
    return f'{control["label"]} ("{text[:40]}")' if text else str(control["label"])


def state_change(control: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """What the control says of its state, before → after (``aria-expanded false → true``)."""
    before = control.get("expanded")
    if before is not None or after.get("expanded") is not None:
        return f"aria-expanded {before or 'absent'} → {after.get('expanded') or 'absent'}"
    if after.get("open") is not None:
        return "details opened" if after["open"] else "details still closed"
    return ""


async def audit(
    probe: Probe, roots: Sequence[Mapping[str, Any]], context: str, seen: set[tuple[str, str, str]], *, faded: bool
) -> list[Outcome]:
    """axe-core on the revealed ``roots`` with the request's rules: an outcome per element a
    rule fails (``failed``) or cannot decide (``cantTell``), under that rule, its messages
    opened with ``context`` (which control revealed it). ``seen`` holds the (kind, rule,
    target) already reported by this check, and gets the new ones; colour rules are left out
    when the content was still ``faded`` in."""
    results = await probe.axe([root["target"] for root in roots])
    outcomes: list[Outcome] = []
    for key, verdict in _VERDICTS:
        for rule in (results or {}).get(key) or []:
            if faded and rule.get("id") in COLOUR_RULES:
                continue
            entry = {name: value for name, value in rule.items() if name != "nodes"}
            for node in rule.get("nodes") or []:
                mark = (key, str(rule.get("id")), json.dumps(node.get("target")))
                if mark in seen:
                    continue
                seen.add(mark)
                told = _told(node, context)
                outcomes.append(Outcome(
                    Target(tuple(node.get("target") or ()), str(node.get("html") or "")),
                    verdict,  # type: ignore[arg-type]
                    str(told["failureSummary"]),
                    rule=entry,
                    node=told,
                ))
    return outcomes


def _told(node: Mapping[str, Any], context: str) -> dict[str, Any]:
    """axe's node with ``context`` opening its failure summary and its first check message."""
    told = {**node, "failureSummary": f"{context}. {node.get('failureSummary') or ''}".strip()}
    for key in ("any", "all", "none"):
        checks = [dict(check) for check in node.get(key) or []]
        told[key] = checks
        first = next((c for c in checks if isinstance(c.get("message"), str) and c["message"].strip()), None)
        if first is not None:
            first["message"] = f"{context}: {first['message']}"
            break
    return told
