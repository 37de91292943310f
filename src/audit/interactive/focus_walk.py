"""The focus visits the focus checks share, and the watch on changes of context they all need.

Five checks judge what happens as the keyboard moves focus: where focus lands and whether it
can be seen (:mod:`.focus_order`), whether fixed content hides it (:mod:`.focus_obscured`,
:mod:`.focus_obscured_enhanced`), whether receiving it changes the context
(:mod:`.change_on_focus`), whether the page shows it (:mod:`.focus_visible`). A Tab press and
its reading cost several milliseconds, so they share one set of visits per page (:func:`walk`,
kept for the probe): the first check that needs it makes it, the others read it, and it
presses only where something can be found.

A plan comes first, from one page-side call (``js/focus_walk_begin.js``): the sequential
focus order, the elements invisible before they get focus, whether fixed or sticky content
is on screen and which elements of the first screen it covers, and what the order alone
shows (tabindex above 0, jumps against the reading order). Then real Tab presses:

- a walk from the top of the document as after a fresh load, at most :data:`MAX_TABS`
  presses, when a script listens for focus events (``focus``, ``focusin``, ``blur``,
  ``focusout``; only then can receiving focus change the context) on the window, the
  document or a container, where any element's focus may reach it (or on more elements of
  their own than are visited);
- a visit to each planned element the walk did not reach (invisible before focus; with a
  focus listener of its own; covered, or below the first screen, when fixed content is
  about): the element before it gets focus from a script, scrolled into view as a Tab would
  leave it, and a real Tab moves on.

After each press one page-side call (``js/focus_walk_step.js``) reads where focus is and how
it shows once the browser scrolled it into view: its box, whether any of it can be seen,
whether opaque fixed or sticky content covers it, where the press sent focus first when the
page moved it on. An element that looks hidden or covered is read again once transitions and
smooth scrolling have settled, and one entirely covered gets an Escape (content the user can
reveal without moving focus does not count); one still covered is shot there and then, when
the run takes screenshots (:attr:`Step.shot`, :data:`MAX_SHOTS`). Frames are followed as far
as the frame element.

While it presses on a page that listens for focus events, a :class:`ContextWatch` stops
navigations to another document and records them (``js/context_guard.js``: the Navigation
API's cancellable navigate event), notes windows the page asks to open (and closes them at
once: a new window holds the page up) and counts form submissions (which the phase's guard
already stops). A step that changed the context is repeated once from where it started: a
change that comes back is the element's, one that does not may have been the page's own
timer.

After the presses, when :mod:`.focus_visible` is among the phase's checks, one more page-side
call (``js/focus_looks.js``, inside the same watch) judges whether focus shows on the first
:data:`LOOKS_LIMIT` elements of the plan's order, focused by script one after the other
(:attr:`Walk.looks`).

The cost, on a page without focus listeners: a listener query, the plan, the looks (a few ms)
and a press and a read (5 to 10 ms) for each planned element, a few; with them, the walk (20
presses and reads at most) too.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any, Literal

import trio

from cdpdriver import CDPError, JavaScriptError
from cdpdriver.scripts import load_script

from ..screenshots import StateShot
from .probe import Probe
from .spec import Target

#: Event types without which receiving focus cannot change anything.
FOCUS_EVENTS = frozenset({"focus", "focusin", "blur", "focusout"})
#: Tab presses of the walk from the top of the document, at most.
MAX_TABS = 20
#: Planned elements visited: invisible before focus, with focus listeners of their own
#: (beyond the walk), covered on the first screen, below it.
MAX_HIDDEN = 4
MAX_LISTENING = 5
MAX_COVERED = 3
MAX_LATER = 3
#: Presses that may go by inside a frame before the walk gives up on it.
MAX_FRAME_PRESSES = 8
#: How long a hidden or covered element may take to settle (transitions, smooth scrolling).
SETTLE_MS = 400
#: Sequentially focusable elements the plan keeps, at most.
PLAN_LIMIT = 500
#: How far above both its neighbours in the order an element must be to count as a jump (CSS px).
JUMP = 400
#: The presses stop with this much of the phase left, so the checks can still report.
RESERVE = 0.25
#: Elements shot while focused and wholly covered, at most (the focus-obscured findings'
#: screenshots; shared by both checks, so counted here, not against either).
MAX_SHOTS = 2
SUBMISSIONS = "window[Symbol.for('a11y.blockedSubmissions')] || 0"
#: The check that reads whether focus shows (:mod:`.focus_visible`): the walk measures it
#: only when that check is among the phase's (:attr:`Probe.rules`).
LOOKS_RULE = "a11y-focus-visible"
#: The check that reads, from the same readings, how faint a focus ring is (:mod:`.focus_contrast`).
RINGS_RULE = "a11y-focus-contrast"
#: Elements of the order whose focus looks are judged, at most, and the work after which the
#: judging stops early (a page where focusing is slow).
LOOKS_LIMIT = 25
LOOKS_BUDGET_MS = 300
#: Failed elements tried again, at most, when the page changed by itself after the readings
#: (:func:`_recheck`), and the readiness tracker's quiet time and cap for each wait.
LOOKS_RECHECKS = 8
RECHECK_QUIET_MS = 20
RECHECK_CAP_MS = 1000


@dataclass(frozen=True)
class Change:
    """A change of context an action caused: a navigation to another document (stopped, or
    not when ``left``), a window asked for, a form submission stopped."""

    kind: Literal["navigation", "window", "submission"]
    url: str = ""
    left: bool = False

    def describe(self) -> str:
        if self.kind == "navigation":
            return f"the page {'left for' if self.left else 'tried to navigate to'} {self.url or 'another document'}"
        if self.kind == "window":
            return f"the page asked to open a new window ({self.url or 'about:blank'})"
        return "the page submitted a form"


class ContextWatch:
    """What changes of context happen while the block runs (see the module docstring)."""

    def __init__(self, probe: Probe, *, active: bool = True) -> None:
        self.probe = probe
        #: An inactive watch sees nothing and costs nothing (for actions that cannot change
        #: the context).
        self.active = active
        self._count = 0
        self._opens: Any = None
        self._kept: set[str] = set()

    async def __aenter__(self) -> ContextWatch:
        if not self.active:
            return self
        self._kept = await self.probe.opened_windows()
        self._windows = self.probe.window_opens()
        self._opens = self._windows.__enter__()
        await self.probe.call(load_script(__package__, "context_guard"), "start")
        self._count = await self._submissions()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if not self.active:
            return
        self._windows.__exit__(None, None, None)
        if self.probe.navigated:
            return
        with trio.CancelScope(shield=True), trio.move_on_after(1.0):
            try:
                await self.probe.call(load_script(__package__, "context_guard"), "stop")
            except (CDPError, JavaScriptError):
                pass

    async def _submissions(self) -> int:
        return int(await self.probe.main_world(SUBMISSIONS) or 0)

    async def changes(self) -> list[Change]:
        """The changes since the last call."""
        found: list[Change] = []
        if self.probe.navigated:
            return [Change("navigation", left=True)]
        if not self.active:
            return found
        seen = await self.probe.call(load_script(__package__, "context_guard"), "read")
        found += [Change("navigation", str(n.get("url") or ""), left=not n.get("stopped")) for n in seen["navigations"]]
        windows = [Change("window", url) for url in self._opens()]
        if windows:
            await self.probe.close_windows(self._kept)  # at once: a new window holds up the page
        found += windows
        count = await self._submissions()
        if count > self._count:
            found.append(Change("submission"))
        self._count = count
        return found


@dataclass
class Step:
    """Where one press left focus (``js/focus_walk_step.js``'s reading) and what it changed."""

    how: str
    state: dict[str, Any]
    changes: list[Change] = field(default_factory=list)
    #: The change came back when the step was repeated (None: not repeated).
    confirmed: bool | None = None
    #: Escape uncovered the element while it kept focus.
    revealed: bool = False
    #: The element shot while focused and wholly covered (:meth:`Probe.state_shot
    #: <audit.interactive.probe.Probe.state_shot>`): the focus-obscured findings' evidence.
    shot: StateShot | None = None


@dataclass
class Walk:
    """The shared visits of a page (see the module docstring)."""

    plan: dict[str, Any] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    tabs: int = 0
    #: Whether a script listens for focus events.
    listened: bool = False
    #: The walk went through the whole order and focus left the document.
    complete: bool = False
    #: The page left the audited document (a navigation that could not be stopped) on the
    #: press after focus was on this element, or on the first press (an empty dict).
    left_after: dict[str, Any] | None = None
    #: State shots the walk took (:data:`MAX_SHOTS` at most).
    shots: int = 0
    #: Whether focus shows on the first elements of the order (``js/focus_looks.js``:
    #: ``judged``, the ``failed``, ``review`` and ``unconfirmed`` elements, and the ``faint``
    #: focus rings of the ``rings`` read), judged after the presses; None when neither
    #: :data:`LOOKS_RULE` nor :data:`RINGS_RULE` is among the phase's checks, nothing takes
    #: focus or the page left.
    looks: dict[str, Any] | None = None


_WALKS: weakref.WeakKeyDictionary[Probe, Walk] = weakref.WeakKeyDictionary()


async def walk(probe: Probe) -> Walk:
    """The page's visits: made on the first call for ``probe``, then the same."""
    found = _WALKS.get(probe)
    if found is not None:
        return found
    made = _WALKS[probe] = Walk()
    # Before our own focusin listener is added; notes the elements that listen themselves.
    listeners = await probe.listening(FOCUS_EVENTS, load_script(__package__, "focus_listeners"), MAX_LISTENING)
    made.plan = await probe.call(load_script(__package__, "focus_walk_begin"), {
        "max": PLAN_LIMIT, "hidden": MAX_HIDDEN, "listening": MAX_LISTENING, "covered": MAX_COVERED,
        "later": MAX_LATER, "jump": JUMP,
    })
    try:
        if made.plan["count"]:
            made.listened = bool(listeners["any"])
            presses = bool(listeners["walk"] or made.plan["visit"])
            looks = LOOKS_RULE in probe.rules or RINGS_RULE in probe.rules
            # Without a focus listener, receiving focus cannot change the context: no watch.
            async with ContextWatch(probe, active=made.listened and (presses or looks)) as watch:
                if presses:
                    await probe.call(load_script(__package__, "focus_walk_start"))
                    walker = _Walker(probe, watch, made)
                    if listeners["walk"]:
                        await walker.tab_through()
                    if made.left_after is None:
                        await walker.visit_the_rest()
                if looks and made.left_after is None and probe.remaining() > RESERVE:
                    made.looks = await _looks(probe, watch, made.listened)
    finally:
        if not probe.navigated:
            with trio.CancelScope(shield=True), trio.move_on_after(1.0):
                try:
                    await probe.call(load_script(__package__, "focus_walk_end"))
                except (CDPError, JavaScriptError):
                    pass
    return made


async def _looks(probe: Probe, watch: ContextWatch, listened: bool) -> dict[str, Any] | None:
    """Whether focus shows (:attr:`Walk.looks`), judged after the presses: a page that changes
    the context on focus has been judged by then, and what the script's focusing changes is
    not a step. None when the page left the document meanwhile."""
    try:
        looks = await probe.call(load_script(__package__, "focus_looks"), {
            "limit": LOOKS_LIMIT, "budgetMs": LOOKS_BUDGET_MS, "rings": RINGS_RULE in probe.rules,
        })
        if listened and any(found.get("listened") for found in looks["failed"]):
            looks = await _recheck(probe, looks)
        changes = await watch.changes()
    except (CDPError, JavaScriptError, trio.TooSlowError):
        if not await left(probe):
            raise
        return None
    return None if any(c.left for c in changes) else looks


async def _recheck(probe: Probe, looks: dict[str, Any]) -> dict[str, Any]:
    """The looks with their failures tried again where the page may have answered late.

    ``js/focus_looks.js`` reads an element focused and blurred within one task, so a widget
    that shows or takes away its indicator a moment later (jQuery UI's menu takes its item's
    highlight away 300 ms after blur) looks unchanged. When the page changed by itself once
    those readings were done, focus is taken off the page and its timers let run; then each
    failed element under a focus listener is focused again, the page's timers are let run, it
    is read and blurred, the timers run again, and it is read once more: a difference passes
    it. Failures beyond :data:`LOOKS_RECHECKS`, or past the phase's reserve, are left for
    review (``unconfirmed``)."""
    recheck = load_script(__package__, "focus_recheck")
    await probe.page_quiet(RECHECK_QUIET_MS, RECHECK_CAP_MS)
    if not await probe.call(recheck, "changed", ""):
        return looks
    await probe.page_quiet(RECHECK_QUIET_MS, RECHECK_CAP_MS)  # what taking focus away set off
    failed: list[dict[str, Any]] = []
    unconfirmed: list[dict[str, Any]] = []
    tried = 0
    for found in looks["failed"]:
        if not found.get("listened"):
            failed.append(found)
            continue
        if tried >= LOOKS_RECHECKS or probe.remaining() <= RESERVE:
            unconfirmed.append(found)
            continue
        tried += 1
        if not await probe.call(recheck, "focus", found["key"]):
            continue  # it does not keep focus now: not judged
        await probe.page_quiet(RECHECK_QUIET_MS, RECHECK_CAP_MS)
        if not await probe.call(recheck, "read", found["key"]):
            continue
        await probe.page_quiet(RECHECK_QUIET_MS, RECHECK_CAP_MS)
        if await probe.call(recheck, "compare", found["key"]) is False:
            failed.append(found)
    return {**looks, "failed": failed, "unconfirmed": unconfirmed}


class _Walker:
    def __init__(self, probe: Probe, watch: ContextWatch, made: Walk) -> None:
        self.probe = probe
        self.watch = watch
        self.made = made

    async def read(self) -> dict[str, Any] | None:
        return await self.probe.call(load_script(__package__, "focus_walk_step"), {"settleMs": SETTLE_MS})

    async def press(self, how: str, previous: dict[str, Any] | None) -> Step | None:
        """Tab once and read; None when focus left the document or the page left (then
        :attr:`Walk.left_after` is set)."""
        try:
            await self.probe.press("Tab")
            self.made.tabs += 1
            state = await self.read()
            changes = await self.watch.changes()
        except (CDPError, JavaScriptError, trio.TooSlowError):
            if not await left(self.probe):
                raise
            self.made.left_after = previous or {}
            return None
        if any(c.left for c in changes):
            self.made.left_after = previous or {}
            return None
        if state is None or state.get("gone"):
            return None if state is None else Step(how, {}, changes)
        step = Step(how, state, changes)
        obscured = state.get("obscured")
        if obscured and obscured["covered"] == obscured["total"] and not obscured["modal"]:
            await self.probe.press("Escape")
            again = await self.read()
            step.changes += await self.watch.changes()
            step.revealed = bool(again and again.get("id") == state["id"] and not again.get("obscured"))
            if not step.revealed and self.made.shots < MAX_SHOTS:
                # Now, in place: once focus moves on the element is in view and clear again.
                self.made.shots += 1
                step.shot = await self.probe.state_shot(
                    Target.from_page(state), "with keyboard focus, under fixed content",
                    scroll=False, counted=False,
                )
        return step

    async def tab_through(self) -> None:
        """Tab from the top of the document until focus leaves it, comes round again or the
        presses run out."""
        seen: set[int] = set()
        previous: dict[str, Any] | None = None
        in_frame = 0
        while self.made.tabs < MAX_TABS and self.probe.remaining() > RESERVE:
            step = await self.press(f"Tab ×{self.made.tabs + 1}", previous)
            if step is None and previous is None and self.made.tabs == 1 and self.made.left_after is None:
                continue  # from the end of the document focus may leave it first, then come round
            if step is None:
                self.made.complete = self.made.left_after is None
                return
            if not step.state:
                continue
            if step.state["frame"] and previous is not None and step.state["id"] == previous["id"]:
                in_frame += 1
                if in_frame >= MAX_FRAME_PRESSES:
                    return
                continue
            in_frame = 0
            if step.state["id"] in seen:
                return  # round the page again, or held in a cycle: the trap check's business
            seen.add(step.state["id"])
            if step.changes:
                step.confirmed = await self._again(("id", previous["id"] if previous else 0), step.state, previous)
                if self.made.left_after is not None:
                    return
            self.made.steps.append(step)
            previous = step.state

    async def _again(self, start: tuple[str, int], state: dict[str, Any], previous: dict[str, Any] | None) -> bool:
        """Repeat a step from where it started (``js/focus_walk_focus.js``'s arguments):
        whether the same element changes the context again."""
        if await self.probe.call(load_script(__package__, "focus_walk_focus"), *start) is None:
            return False
        await self.watch.changes()  # the script's focus is not a step
        step = await self.press("again", previous)
        return bool(step and step.state and step.state.get("id") == state["id"] and step.changes)

    async def visit_the_rest(self) -> None:
        """Tab to each planned element the walk did not reach, from the element before it."""
        if self.made.complete:
            return
        reached = {s.state.get("index") for s in self.made.steps if s.state}
        for index in self.made.plan["visit"]:
            if index in reached:
                continue
            if self.probe.remaining() <= RESERVE:
                return
            start = await self.probe.call(load_script(__package__, "focus_walk_focus"), "before", index)
            if start is None:
                continue
            await self.watch.changes()  # the script's focus is not a step
            step = await self.press(f"Tab from {_name(start) if start['label'] else 'the top of the page'}", None)
            if self.made.left_after is not None:
                return
            if step is None or not step.state or step.state.get("index") != index:
                continue
            if step.changes:
                step.confirmed = await self._again(("before", index), step.state, None)
                if self.made.left_after is not None:
                    return
            self.made.steps.append(step)


def _name(state: dict[str, Any]) -> str:
    return f"{state['label']} ({state['text']!r})" if state.get("text") else state["label"]


async def left(probe: Probe) -> bool:
    """Whether the page left the document (waiting a little for the new one to commit)."""
    with trio.move_on_after(1.0):
        while not probe.navigated:
            await trio.sleep(0.05)
    return probe.navigated
