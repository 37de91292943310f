"""a11y-hover-content: content shown on pointer hover must be hoverable, dismissible and persistent.

No ACT rule. WCAG 1.4.13 Content on Hover or Focus (AA, since 2.1): where hovering or focusing
a trigger shows more content, the pointer can move onto that content without it disappearing
(hoverable), it can be dismissed without moving the pointer or focus (dismissible: Escape),
unless it obscures nothing; and it stays until dismissed (persistent).

axe-core never moves the pointer. The check finds the elements that may show content on hover
(``js/hover_candidates.js``): elements whose ``aria-describedby`` names hidden content, the
triggers of style rules that reveal another element on ``:hover`` (``display``,
``visibility``, ``opacity``; the first trigger of each rule) and elements that listen for the
pointer entering them; the browser's own ``title`` tooltip is exempt. Up to
:data:`MAX_TRIED` of them, within :data:`MAX_SECONDS`, are hovered with real pointer moves,
and what became shown (``js/hover_state.js``) is put to the test:

- hoverable: the pointer moves onto the content, off the trigger; content that then
  disappears ``failed``. Content inside the trigger's own box passes trivially.
- dismissible: Escape is pressed with the pointer still there (content that hides after a
  delay, by a timer the page has due, is waited for). Content that stays ``failed``
  when it covers text, images or controls outside its trigger; ``cantTell`` when it covers
  only its trigger's own content; it passes when it covers nothing.
- on focus: once what the pointer's leaving set off has run (a hide on a timer), a trigger
  that takes keyboard focus is focused; content that appears on hover
  only is ``cantTell`` (a keyboard user may miss what it says: WCAG 2.1.1 when it holds
  information available nowhere else).

A trigger whose content passed all three yields ``passed``; a page where hovering showed
nothing yields nothing. The pointer goes back to (0, 0), focus and scrolling are put back.

Evidence: a failed or undecided trigger is shot in the state that shows the problem (hovered
with its content, or still showing it after Escape; focused without it), when the run takes
screenshots (:meth:`Probe.state_shot <audit.interactive.probe.Probe.state_shot>`).

Cost: one page-side call on every page (a few milliseconds, plus the page's listener list when
it listens for the pointer); per trigger that shows content about 0.3-0.5 s (pointer moves,
waits for the page's show and hide delays), per trigger that shows nothing 50-250 ms.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import trio

from cdpdriver.scripts import load_script

from ..screenshots import StateShot
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

POINTER_EVENTS = frozenset({"mouseover", "mouseenter", "pointerover", "pointerenter"})
LIMITS = {"triggers": 10, "perRule": 1, "rules": 400, "ms": 40}
#: Triggers hovered per page, at most, and the check's own time.
MAX_TRIED = 6
MAX_SECONDS = 1.2
#: How long content may take to appear: style rules show it at once; scripts after a delay.
SHOW_WAIT_MS = {"css": 60, "describedby": 200, "script": 150}
#: How long hidden content may take to go, after the pointer left or Escape.
HIDE_WAIT_MS = 60
#: How much longer content still shown after Escape is given to go when the page has a timer
#: due by then: widgets hide after a delay or through an effect (jQuery UI's tooltips take
#: ``hide: {delay: 250, effect: "explode"}``), and only a failure pays for the wait.
ESCAPE_GRACE_MS = 600
#: Before the focus test, the page's own timers (the readiness tracker's wait): quiet time, cap.
SETTLE_QUIET_MS = 20
SETTLE_CAP_MS = 600


async def _state(probe: Probe, mode: str, key: int, other: int = 0, wait_ms: int = 0) -> Any:
    return await probe.call(load_script(__package__, "hover_state"), mode, key, other, wait_ms)


async def _try(probe: Probe, trigger: dict[str, Any]) -> Outcome | None:
    """Hover one trigger; its outcome, or None when it shows nothing. A problem's state is shot
    while it holds (the content shown over the page), for the finding's screenshot."""
    tid = trigger["id"]
    target = Target.from_page(trigger)
    shot: StateShot | None = None
    armed = await _state(probe, "arm", tid)
    if not armed:
        return None
    await probe.move_mouse(armed["x"], armed["y"])
    content = await _state(probe, "read", tid, 0, SHOW_WAIT_MS[trigger["source"]])
    if not content:
        return None
    cid = content["cid"]
    what = f"{content['label']}" + (f" (\"{content['text'][:60]}\")" if content["text"] else "")
    seen = f"Hovering {trigger['label']} shows {what}"
    problems: list[tuple[str, str]] = []
    # Hoverable: onto the content, off the trigger.
    if not content["inside"]:
        point = await _state(probe, "point", cid, tid)
        if point:
            await probe.move_mouse(point["x"], point["y"])
            if not await _state(probe, "still", cid, 0, HIDE_WAIT_MS):
                problems.append(("failed", "it disappears when the pointer moves onto it, so it cannot be hovered"))
                shot = await _shown_again(probe, armed, trigger, content)
    # Dismissible: Escape with the pointer where it is.
    if not problems:
        await probe.press("Escape")
        still = await _state(probe, "still", cid, 0, HIDE_WAIT_MS)
        if still and await probe.may_wake(ESCAPE_GRACE_MS):
            still = await _state(probe, "still", cid, 0, ESCAPE_GRACE_MS)
        if still:
            covers = await _state(probe, "covers", cid, tid) or {}
            if covers.get("other") or covers.get("trigger"):
                shot = await probe.state_shot(target, "hovered, after Escape", scroll=False,
                                              beside=Target.from_page(content))
            if covers.get("other"):
                problems.append(("failed", f"Escape does not dismiss it and it covers other content ({covers['label']})"))
            elif covers.get("trigger"):
                problems.append(("cantTell", "Escape does not dismiss it; it covers part of its trigger's own content"))
    await probe.move_mouse(0, 0)
    # What leaving set off (a hide on a timer after mouseleave) runs first: it would otherwise
    # hide what focus shows, while it is being read.
    await probe.page_quiet(SETTLE_QUIET_MS, SETTLE_CAP_MS)
    # On focus: the same content for the keyboard (once the hover's content has gone).
    if armed["focusable"] and not problems and not await _state(probe, "still", cid, 0, HIDE_WAIT_MS):
        again = await _state(probe, "arm", tid)
        if again and await _state(probe, "focus", tid):
            shown = await _state(probe, "read", tid, 0, SHOW_WAIT_MS[trigger["source"]])
            if not shown:
                shot = await probe.state_shot(target, "with keyboard focus, not hovered", scroll=False)
            await _state(probe, "blur", tid)
            if not shown:
                problems.append(("cantTell", "it does not appear when the trigger gets keyboard focus; check that "
                                             "keyboard users get its information another way"))
    if not problems:
        return Outcome(target, "passed", f"{seen}: it can be hovered, dismissed and stays until then.")
    verdict = "failed" if any(v == "failed" for v, _ in problems) else "cantTell"
    return Outcome(target, verdict, f"{seen}, but {'; '.join(p for _, p in problems)}.", shot=shot)  # type: ignore[arg-type]


async def _shown_again(
    probe: Probe, armed: dict[str, Any], trigger: dict[str, Any], content: dict[str, Any]
) -> StateShot | None:
    """The trigger hovered again and shot with its content, which left when the pointer moved
    onto it: the state the finding is about (only failures pay for the extra hover)."""
    await probe.move_mouse(armed["x"], armed["y"])
    if not await _state(probe, "still", content["cid"], 0, SHOW_WAIT_MS[trigger["source"]]):
        return None
    return await probe.state_shot(Target.from_page(trigger), "hovered", scroll=False,
                                  beside=Target.from_page(content))


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    function = load_script(__package__, "hover_candidates")
    triggers = await probe.listening(POINTER_EVENTS, function, LIMITS)
    if not triggers:
        return
    stop = trio.current_time() + min(MAX_SECONDS, probe.remaining() * 0.5)
    try:
        for trigger in triggers[:MAX_TRIED]:
            if trio.current_time() > stop:
                break
            outcome = await _try(probe, trigger)
            if outcome is not None:
                yield outcome
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(1):
            await probe.move_mouse(0, 0)
            await _state(probe, "disarm", 0)


CHECK = InteractiveCheck(
    rule_id="a11y-hover-content",
    act_rules=(),
    criteria=("1.4.13",),
    level="AA",
    since="2.1",
    impact="serious",
    description="Ensures content shown on hover can be hovered and dismissed, and shows on focus too",
    help="Content on hover must be hoverable, dismissible and persistent",
    run=run,
)
