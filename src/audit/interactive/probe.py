"""The page as an interactive check sees it: real input, page-side calls, a screen it may
resize, all within the phase's time.

A check never talks CDP itself: it presses keys, moves the mouse and calls its page-side
functions here, so that input always goes through ``Input.dispatch*`` (pages see trusted
events, as from a person), scripts always run in one isolated world with the shared helpers of
``js/probe_library.js`` loaded, and every change a check makes to the screen is undone on the
way out. Each call is bounded by the probe's deadline: a page that stops answering ends the
check, not the audit.
"""

from __future__ import annotations

import base64
import binascii
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, replace
from typing import Any

import trio

from cdpdriver import (
    CDPError,
    JavaScriptError,
    Page,
    call_function,
    evaluate,
    evaluate_remote,
    isolated_world,
)
from cdpdriver.evaluation import unwrap_evaluation
from cdpdriver.keys import press, press_events
from cdpdriver.protocol import dom, dom_debugger, emulation, runtime
from cdpdriver.scripts import call_expression, load_script

from ..axe import axe_world, inject
from ..findings import selector_from_target
from ..screenshots import ScreenshotPolicy, StateCamera, StateShot
from ..urls import without_credentials
from ..viewports import current_viewport
from .spec import Outcome, Target

log = logging.getLogger(__name__)

WORLD_NAME = "a11y-interact"
#: One page-side call or input event at most; a page that takes longer is not answering.
CALL_TIMEOUT = 5.0
#: How long a wait for the page's next frames may take: a page that draws nothing (hidden,
#: or its main thread busy) still moves on.
FRAME_WAIT = 0.25
#: The largest resource :meth:`Probe.resource` hands over, in bytes.
RESOURCE_LIMIT = 8_000_000
#: How long :meth:`Probe.screen` waits for the page to get a new size, in ms.
SCREEN_WAIT_MS = 1000
#: Objects :meth:`Probe.listening` hands to its function, at most (the window and the document
#: count): enough for a page's controls, bounded for pages that put a listener on everything.
LISTENING_LIMIT = 300
#: How much of a listener's source :meth:`Probe.listening` passes on (enough to recognise a
#: handler that only stops propagation).
HANDLER_SOURCE_CHARS = 300
#: State shots (:meth:`Probe.state_shot`) one check may take on a page: its first failures'
#: evidence, while the phase's cost barely moves (a shot is some 50-150 ms on a loaded machine).
STATE_SHOTS_PER_CHECK = 2
#: One state shot at most, in seconds.
STATE_SHOT_TIMEOUT = 3.0
#: The phase's time a state shot leaves over: a check that shoots before it yields (while
#: it holds the state) still has time to put the page back and report what it found.
STATE_SHOT_RESERVE = 1.0


_LISTENING_GROUP = "a11y-listening"


@dataclass(frozen=True)
class PreparedWorld:
    """The interaction world made for one document before the phase (:func:`prepare_world`)."""

    world: int
    loader: str | None


async def prepare_world(page: Page, timeout: float = CALL_TIMEOUT) -> PreparedWorld:
    """Make the interaction world of the loaded document and load the helpers into it.

    The engine calls this while the page settles, before axe runs: the helpers start recording
    the page's own text edits then (``a11yProbe.textEdits``), so the settle and the static pass
    count as watching time for checks that must see text update by itself, and the phase does
    not wait for that time again. Raises :class:`~cdpdriver.CDPError`,
    :class:`~cdpdriver.JavaScriptError` or :class:`trio.TooSlowError` when the page does not
    let it happen (the phase then makes the world itself)."""
    loader = page.document_loader_id
    world = await isolated_world(page.session, page.main_frame_id, WORLD_NAME, timeout=timeout)
    await evaluate(page.session, load_script(__package__, "probe_library"), world, timeout=timeout)
    return PreparedWorld(world, loader)


class Probe:
    """One page's interaction surface for the checks of one phase (see the module docstring)."""

    def __init__(
        self,
        page: Page,
        url: str,
        deadline: float,
        *,
        axe_options: Mapping[str, Any] | None = None,
        prepared: PreparedWorld | None = None,
        shots: ScreenshotPolicy | None = None,
        rules: Iterable[str] = (),
    ) -> None:
        self.page = page
        self.url = url
        self.deadline = deadline
        #: The rule ids of the phase's checks: work several checks share (the focus walk) does
        #: only the parts some check will read.
        self.rules = frozenset(rules)
        #: The request's axe-core options (rules by version and level), for :meth:`axe`.
        self.axe_options = dict(axe_options) if axe_options is not None else None
        self._loader = page.document_loader_id
        self._listener_list: list[tuple[bool, Any]] | None = None
        # A world made for another document (the page navigated since) is gone with it.
        self._world = (
            prepared.world if prepared is not None and prepared.loader == self._loader else None
        )
        self._mouse = (0.0, 0.0)
        # None when the run takes no screenshots: then no state shot is taken either.
        self._camera = StateCamera(page, shots) if shots is not None else None
        self._shots_left = STATE_SHOTS_PER_CHECK
        #: Whether a :meth:`screen` block that ends normally leaves the page in its window
        #: (set by the phase: see :meth:`screen`).
        self.hold_screen = False
        # The page's own window size while a screen of ours is on: what to wait for when it goes.
        self._own_size: list[int] | None = None

    def begin_check(self) -> None:
        """Called by the phase before each check: its own allowance of state shots."""
        self._shots_left = STATE_SHOTS_PER_CHECK

    # ------------------------------------------------------------------ time

    def remaining(self) -> float:
        """Seconds left of the phase."""
        return max(0.0, self.deadline - trio.current_time())

    def _timeout(self) -> float:
        return max(0.05, min(CALL_TIMEOUT, self.remaining()))

    # ------------------------------------------------------------------ the document

    @property
    def navigated(self) -> bool:
        """Whether the page left the audited document (a check's action navigated it)."""
        return self.page.document_loader_id != self._loader

    async def world(self) -> int:
        """The interaction world of the current document, with the helpers loaded."""
        if self._world is None:
            self._world = (await prepare_world(self.page, self._timeout())).world
        return self._world

    async def call(self, function: str, *args: Any) -> Any:
        """Call a function expression (a page-side script, ``load_script(...)``) with JSON
        ``args`` in the interaction world; a returned promise is awaited."""
        world = await self.world()
        expression = call_expression(function, *args)
        return await evaluate(
            self.page.session, expression, world, await_promise=True, timeout=self._timeout()
        )

    async def main_world(self, expression: str) -> Any:
        """Evaluate in the page's own world: for what only the page's scripts can see (its
        globals), never for judging."""
        return await evaluate(
            self.page.session, expression, await_promise=True, timeout=self._timeout()
        )

    async def page_quiet(self, quiet_ms: int, cap_ms: int) -> bool:
        """Wait until the page's own short timers have run and its DOM stayed unchanged for
        ``quiet_ms`` (the readiness tracker's wait, ``audit/js/readiness_tracker.js``), at most
        ``cap_ms``: what a script does a moment after an action is done by then. False when the
        cap came first, or at once on a page without the tracker."""
        return bool(await self.main_world(
            f"(globalThis[Symbol.for('a11y.readiness')] || (() => false))({int(quiet_ms)}, {int(cap_ms)})"
        ))

    async def may_wake(self, horizon_ms: int) -> bool:
        """Whether a script of the page's own may run within ``horizon_ms`` by itself: a
        timeout due, an interval, an animation-frame or idle callback, a request, a message,
        a socket or worker it opened (the readiness tracker's wake-ups,
        ``audit/js/readiness_tracker.js``). A page without the tracker may: the answer errs
        towards waiting."""
        wakes = await self.main_world(
            f"(globalThis[Symbol.for('a11y.wakes')] || (() => null))({int(horizon_ms)})"
        )
        return not isinstance(wakes, list) or bool(wakes)

    async def resource(self, url: str, limit: int = RESOURCE_LIMIT) -> bytes | None:
        """The bytes of a resource the top document already loaded (an image, a script), from
        the browser's memory: nothing is fetched again and cross-origin resources read too.
        None when the document has no such resource, it is empty or bigger than ``limit``."""
        try:
            reply = await self.page.session.send(
                "Page.getResourceContent",
                {"frameId": self.page.main_frame_id, "url": url},
                timeout=self._timeout(),
            )
        except CDPError:
            return None
        content = str(reply.get("content") or "")
        if not content or len(content) > limit * 4 // 3 + 4:
            return None
        try:
            return (
                base64.b64decode(content) if reply.get("base64Encoded") else content.encode("utf-8")
            )
        except (binascii.Error, ValueError):
            return None

    # DOMDebugger.getEventListeners is asked about the page's own window and document (its
    # main world): asked about this world's, it sees none of the window's listeners, and it
    # leaves this world holding the page's wrappers of nodes the page's scripts touched (their
    # prototypes and instanceof then answer for the page's world, not this one).

    async def listener_types(self) -> set[str]:
        """The event types the page listens for anywhere: the window, the document and every
        element below it, through shadow roots and frames (inline handlers included)."""
        return {listener.type for _, listener in await self._listeners()}

    async def _listeners(self) -> list[tuple[bool, Any]]:
        """Every event listener of the window (flagged True) and of the document and its
        nodes, as ``DOMDebugger.getEventListeners`` lists them: read once per phase (a walk of
        the whole document), on the first check's asking, and shared by the checks after it.
        What a check's action adds later (a menu that listens once opened) is not in it."""
        if self._listener_list is None:
            found: list[tuple[bool, Any]] = []
            try:
                for expression, depth in (("window", 1), ("document", -1)):
                    handle = await evaluate_remote(
                        self.page.session,
                        expression,
                        None,
                        by_value=False,
                        object_group=_LISTENING_GROUP,
                        timeout=self._timeout(),
                    )
                    object_id = runtime.RemoteObjectId(str(handle.object_id))
                    listeners = await self.page.session.execute(
                        dom_debugger.get_event_listeners(object_id, depth=depth, pierce=True),
                        timeout=self._timeout(),
                    )
                    found += [(expression == "window", listener) for listener in listeners]
            finally:  # the window and document handles were only needed for the reading
                with trio.CancelScope(shield=True), trio.move_on_after(CALL_TIMEOUT):
                    await self.page.session.send("Runtime.releaseObjectGroup", {"objectGroup": _LISTENING_GROUP})
            self._listener_list = found
        return self._listener_list

    async def listening(
        self, types: Iterable[str], function: str, *args: Any, limit: int = LISTENING_LIMIT
    ) -> Any:
        """Call ``function`` (a page-side function expression, ``load_script(...)``) in the
        interaction world as ``function(found, ...args)``, where ``found`` lists what has a
        listener of its own for one of ``types`` (``addEventListener`` or an inline handler):
        ``{node, types, handlers}``, ``node`` the window, the document or an element of it (in
        open or closed shadow trees too; frames' elements are left out), ``types`` the wanted
        types it listens for, ``handlers`` ``{type, source}`` with each handler's source cut
        to :data:`HANDLER_SOURCE_CHARS`. The window comes first, then the document's nodes in
        document order, ``limit`` at most. Returns what the function returns (a promise is
        awaited). A listener on an ancestor that delegates is the ancestor's, not its
        descendants'. Our own world's listeners are listed too: a check removes its own."""
        world = await self.world()
        session = self.page.session
        keys: list[int | None] = []
        try:
            owners = await self._own_listeners(set(types))
            keys = list(owners)[:limit]
            async with session.batch(timeout=self._timeout()) as batch:
                replies = [
                    None
                    if key is None
                    else batch.execute(
                        dom.resolve_node(
                            backend_node_id=dom.BackendNodeId(key),
                            object_group=_LISTENING_GROUP,
                            execution_context_id=runtime.ExecutionContextId(world),
                        )
                    )
                    for key in keys
                ]
            meta: list[dict[str, Any]] = []
            arguments: list[dict[str, Any]] = []
            for key, reply in zip(keys, replies, strict=True):
                if reply is None:
                    arguments.append({"value": None})  # the window: the function's own
                else:
                    object_id = None if reply.error else reply.result().object_id
                    if object_id is None:
                        continue  # gone since, or in another frame's document
                    arguments.append({"objectId": str(object_id)})
                meta.append(
                    {"types": sorted({h["type"] for h in owners[key]}), "handlers": owners[key]}
                )
            reply = await session.send(
                "Runtime.callFunctionOn",
                {
                    # the code's one "(FUNCTION" (its description names it too)
                    "functionDeclaration": load_script(__package__, "listening_call").replace(
                        "(FUNCTION", f"({function}", 1
                    ),
                    "executionContextId": world,
                    "returnByValue": True,
                    "awaitPromise": True,
                    "arguments": [{"value": meta}, {"value": list(args)}, *arguments],
                },
                timeout=self._timeout(),
            )
            return unwrap_evaluation(runtime.CallFunctionOnResult.from_json(reply))
        finally:
            # Only resolved nodes are put in the group (the call returns by value): a page
            # with no such listener has nothing to release, and is spared the round trip.
            if any(key is not None for key in keys):
                with trio.CancelScope(shield=True), trio.move_on_after(CALL_TIMEOUT):
                    await session.send("Runtime.releaseObjectGroup", {"objectGroup": _LISTENING_GROUP})

    async def _own_listeners(self, types: set[str]) -> dict[int | None, list[dict[str, str]]]:
        """The handlers of ``types`` by the backend node id of their owner (None for the
        window), the window first, then in document order."""
        owners: dict[int | None, list[dict[str, str]]] = {}
        for on_window, listener in await self._listeners():
            key = None if on_window else listener.backend_node_id
            if listener.type not in types or (key is None and not on_window):
                continue
            source = str(getattr(listener.handler, "description", "") or "")[:HANDLER_SOURCE_CHARS]
            owners.setdefault(key, []).append({"type": listener.type, "source": source})
        return owners

    @contextmanager
    def window_opens(self) -> Iterator[Callable[[], list[str]]]:
        """For the block, what the page asks to open in a new window or tab (``window.open``,
        a link or a form with a target; ``Page.windowOpen``, popup blocker or not): a function
        returning the URLs asked for since its last call. The phase closes what opened."""
        with self.page.session.listen("Page.windowOpen") as events:

            def taken() -> list[str]:
                urls: list[str] = []
                while True:
                    try:
                        event = events.receive_nowait()
                    except (trio.WouldBlock, trio.EndOfChannel):
                        return urls
                    urls.append(str(getattr(event, "url", "") or ""))

            yield taken

    async def opened_windows(self) -> set[str]:
        """The target ids of the windows (page targets) this page opened and that are open."""
        with trio.fail_after(self._timeout()):
            targets = await self.page.browser.targets()
        mine = self.page.session.target_id
        return {
            str(t.target_id) for t in targets if t.type == "page" and str(t.opener_id or "") == mine
        }

    async def close_windows(self, keep: Iterable[str] = ()) -> int:
        """Close the windows this page opened (:meth:`opened_windows`) but those of ``keep``
        (open before a check acted): a new window takes the page's focus and may hold up its
        scripts until it is gone. Returns how many were closed."""
        opened = await self.opened_windows() - set(keep)
        for target_id in opened:
            try:
                await self.page.browser.session.send(
                    "Target.closeTarget", {"targetId": target_id}, timeout=self._timeout()
                )
            except CDPError:
                pass
        return len(opened)

    async def axe(self, include: Sequence[Any]) -> dict[str, Any] | None:
        """axe-core's ``violations`` and ``incomplete`` for the elements ``include`` names (and
        what is inside them), with the request's rules (:attr:`axe_options`): for content an
        action revealed, which the static pass saw hidden. ``include`` holds targets as
        ``js/probe_library.js``'s ``target`` gives them (a selector, or a list through shadow
        roots). axe runs in its own world of the top frame, where the static pass left it
        (loaded again if the document is new); frames are not entered. None without options.
        """
        if self.axe_options is None or not include:
            return None
        session = self.page.session
        world = await axe_world(session, self.page.main_frame_id)
        if await evaluate(session, "typeof axe", world, timeout=self._timeout()) == "undefined":
            await inject(session, world, timeout=self._timeout())
        return await call_function(
            session,
            load_script(__package__, "axe_include"),
            list(include),
            self.axe_options,
            context_id=world,
            await_promise=True,
            timeout=self._timeout(),
        )

    # ------------------------------------------------------------------ evidence

    @property
    def takes_state_shots(self) -> bool:
        """Whether :meth:`state_shot` would shoot now: for a check that must put a state back
        (at a cost) before it can shoot it."""
        return self._camera is not None and self._shots_left > 0 and (
            self.remaining() > STATE_SHOT_RESERVE
        )

    async def state_shot(
        self,
        target: Target,
        state: str,
        *,
        scroll: bool = True,
        beside: Target | None = None,
        counted: bool = True,
    ) -> StateShot | None:
        """A screenshot of ``target`` (with its context, outlined, sized like the run's
        element shots) in the state the page is in now, which the phase undoes before the
        run's screenshots are taken: evidence of a barrier that shows only in it. ``state``
        says what it is ("at 320 CSS px wide"); ``scroll`` False shoots the element where it
        is (scrolling would end a hover or move focus out from under a sticky bar);
        ``beside`` is another element the clip takes in too (a tooltip). None when the run
        takes no screenshots, the check has had its :data:`STATE_SHOTS_PER_CHECK`, or the page
        will not be shot; never raises for what the page does. A shot not ``counted`` is not
        the running check's: work shared by several checks (:mod:`.focus_walk`) bounds its own.
        """
        spare = self.remaining() - STATE_SHOT_RESERVE
        if self._camera is None or (counted and self._shots_left <= 0) or spare <= 0:
            return None
        if counted:
            self._shots_left -= 1
        other = selector_from_target(list(beside.hops)) if beside is not None else None
        with trio.move_on_after(min(STATE_SHOT_TIMEOUT, spare)):
            try:
                return await self._camera.shoot(
                    selector_from_target(list(target.hops)), state, scroll=scroll, beside=other
                )
            except (CDPError, JavaScriptError) as exc:
                log.debug("no state shot of %s on %s: %s", target.hops, without_credentials(self.url), exc)
        return None

    async def with_state_shots(
        self, outcomes: Iterable[Outcome], state: str, *, scroll: bool = True
    ) -> list[Outcome]:
        """``outcomes`` with a :meth:`state_shot` on the first failed or undecided ones (as
        many as the check may take): for a check that collects its outcomes while it holds
        a state, before it puts the page back."""
        shot_ones: list[Outcome] = []
        for outcome in outcomes:
            if outcome.verdict != "passed" and self._shots_left > 0:
                shot = await self.state_shot(outcome.target, state, scroll=scroll)
                outcome = replace(outcome, shot=shot) if shot is not None else outcome
            shot_ones.append(outcome)
        return shot_ones

    # ------------------------------------------------------------------ input

    async def press(self, combo: str) -> None:
        """A real key press (``Tab``, ``Shift+Tab``, ``Escape``, ``a``)."""
        with trio.fail_after(self._timeout()):
            await press(self.page.session, combo)

    async def press_each(self, combos: Iterable[str]) -> None:
        """Real key presses, one combo after another, as :meth:`press` makes them but written
        in one batch: one round trip for the lot instead of two a key (the browser keeps their
        order, so the page sees the same events). For many presses between two reads."""
        events = [params for combo in combos for params in press_events(combo)]
        async with self.page.session.batch(timeout=self._timeout()) as batch:
            replies = [batch.send("Input.dispatchKeyEvent", params) for params in events]
        for reply in replies:
            reply.result()

    @property
    def pointer_moved(self) -> bool:
        """Whether this probe's input left the pointer anywhere but the page's top left
        corner, where the phase puts it back."""
        return self._mouse != (0.0, 0.0)

    async def move_mouse(self, x: float, y: float) -> None:
        with trio.fail_after(self._timeout()):
            await self.page.session.send(
                "Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y, "button": "none"}
            )
        self._mouse = (x, y)

    async def click(self, x: float, y: float) -> None:
        """A real left click at (``x``, ``y``), CSS pixels of the viewport: the pointer moves
        there, presses and releases (the page sees pointer and mouse events, focus, click)."""
        await self.move_mouse(x, y)
        await self.mouse_button("mousePressed", x, y)
        await self.mouse_button("mouseReleased", x, y)

    async def mouse_button(self, kind: str, x: float, y: float) -> None:
        """The left button pressed (``mousePressed``) or released (``mouseReleased``) at
        (``x``, ``y``), the pointer there with it: a press can be held while a check reads
        what the down-event did, and let go elsewhere, as a user who slips off a control does."""
        with trio.fail_after(self._timeout()):
            await self.page.session.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left",
                 "buttons": 1 if kind == "mousePressed" else 0, "clickCount": 1},
            )
        self._mouse = (x, y)

    async def frames(self, count: int = 2) -> None:
        """Wait until the page has drawn ``count`` times since now and a 0 ms timer has run,
        or :data:`FRAME_WAIT` at most.

        Two frames after input: handlers have run and the transitions they started have
        begun. One frame after a new window size (:meth:`screen`): that frame runs the
        page's resize handlers and media-query listeners before its animation-frame
        callbacks, the last of which is ours, and the 0 ms timer lets what they scheduled
        at once run too; a second frame would only add its period to every relayout."""
        await self.call(load_script(__package__, "next_frames"), int(FRAME_WAIT * 1000), count)

    # ------------------------------------------------------------------ the screen

    @asynccontextmanager
    async def screen(self, width: int, height: int) -> AsyncIterator[None]:
        """The page laid out in a ``width`` x ``height`` CSS-pixel window (desktop rules, one
        device pixel per CSS pixel) for the block, and only read once it has the new size.

        The audit's own screen is put back after the block on every path
        (:meth:`release_screen`), but one: a block that ends normally while
        :attr:`hold_screen` is set leaves the page in this window, for the next
        :meth:`screen` to replace at once. The phase sets it when the next check lays the page
        out in a window too (:attr:`InteractiveCheck.screen <.spec.InteractiveCheck.screen>`),
        which spares the page a relayout at its own size in between, and puts the own screen
        back itself after the last one."""
        session = self.page.session
        size = load_script(__package__, "screen_size")
        if self._own_size is None:
            self._own_size = await self.call(size, 0, 0, 0)
        held = False
        try:
            await session.execute(
                emulation.set_device_metrics_override(width, height, 1, False),
                timeout=self._timeout(),
            )
            # The new size reaches the page's renderer a little later: read nothing before.
            await self.call(size, width, height, SCREEN_WAIT_MS)
            yield
            held = self.hold_screen
        finally:
            if not held:
                await self.release_screen()

    async def release_screen(self) -> None:
        """Put the audit's own screen back after :meth:`screen` (nothing to do when it is
        back already), and wait until the page has its own size again before anything reads
        it. Shielded from cancellation: the run's later steps must see the audited screen."""
        before, self._own_size = self._own_size, None
        if before is None:
            return
        session = self.page.session
        with trio.CancelScope(shield=True), trio.move_on_after(CALL_TIMEOUT):
            viewport = current_viewport(self.page)
            if viewport is None:
                await session.execute(emulation.clear_device_metrics_override())
            else:
                await session.execute(
                    emulation.set_device_metrics_override(
                        viewport.width,
                        viewport.height,
                        viewport.device_scale_factor,
                        viewport.mobile,
                    )
                )
            try:  # and the page's own size back before anything reads it
                world = await self.world()
                await evaluate(
                    session,
                    call_expression(load_script(__package__, "screen_size"), *before, SCREEN_WAIT_MS),
                    world,
                    await_promise=True,
                    timeout=CALL_TIMEOUT,
                )
            except (CDPError, JavaScriptError, trio.TooSlowError):
                pass
