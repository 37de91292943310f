"""Run axe-core over every frame of a page with its partial protocol, then merge the parts.

Per frame (the top document, same-origin and cross-origin iframes, out-of-process iframes and
frames inside open shadow roots) the vendored bundle is injected into an isolated world of its
own (``Page.createIsolatedWorld`` with universal access), so page scripts can neither see axe
nor patch the built-ins it relies on. In each frame ``axe.utils.getFrameContexts`` is called
immediately before ``axe.runPartial`` (they share axe's flat tree); each frame selector is
resolved with ``axe.utils.shadowSelect`` and ``DOM.describeNode`` to the child's frame id, which
is either a frame of the same session or an auto-attached out-of-process child target whose
target id equals the frame id. The partials are ordered depth-first as axe requires; a frame
that fails becomes ``null`` (its descendants are left out) and is reported as untested.

``axe.finishRun`` then runs in a clean ``about:blank`` page in a browser context of its own (a
:class:`Finisher`); finishers are kept warm per browser (:class:`FinisherPool`), since loading
axe costs more than merging a small page's results. A page without frames has nothing to
merge: there ``axe.run`` finishes in the same isolated world, which gives the same results
without serialising a partial for every node (megabytes on a large page). Large strings cross
CDP in chunks (:func:`cdpdriver.read_string`, :func:`cdpdriver.write_string`), so no single
message grows with the page. The page-side scripts are in ``audit/js/axe_*.js``.
"""

from __future__ import annotations

import functools
import json
import logging
import weakref
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import trio

from cdpdriver import (
    Browser,
    CDPError,
    JavaScriptError,
    Page,
    ProtocolError,
    Session,
    TargetClosed,
    call_function,
    call_function_remote,
    evaluate,
    isolated_world,
    read_string,
    write_string,
)
from cdpdriver.protocol import dom, runtime
from cdpdriver.scripts import call_expression, load_script

from .axe_bundle import load_bundle
from .checks import configuration_script
from .phases import PhaseClock

log = logging.getLogger(__name__)

WORLD_NAME = "a11y-axe"
BRANDING = {"application": "a11y"}
FRAME_TIMEOUT = 20.0
STEP_TIMEOUT = 30.0
#: How long a frame id may take to show up as an attached out-of-process child.
CHILD_ATTACH_WAIT = 3.0


class AxeRunError(Exception):
    """axe-core could not run in the top frame, or could not merge the results."""


@dataclass
class PartialRun:
    """The partials of every frame in depth-first order (None for a failed frame), or, for a
    page without frames, axe's finished results straight away (``results``)."""

    partials: list[str | None]
    untested_frames: list[str] = field(default_factory=list)
    results: dict[str, Any] | None = None


# --------------------------------------------------------------------------- loading axe


async def axe_world(session: Session, frame_id: str) -> int:
    """axe's isolated world in ``frame_id``, a frame ``session``'s target renders (one per
    document: a new document gets a clean one)."""
    return await isolated_world(session, frame_id, WORLD_NAME, timeout=STEP_TIMEOUT)


async def inject(session: Session, context_id: int, *, timeout: float = STEP_TIMEOUT) -> None:
    """Load and brand the bundle, and register our checks with it (:mod:`audit.checks`), with
    one evaluate."""
    await evaluate(session, _injected_source(), context_id, timeout=timeout)


@functools.cache
def _injected_source() -> str:
    """What :func:`inject` evaluates; ``;0`` keeps axe from being serialized. One string for
    the process, so the driver encodes it for the wire once (:mod:`cdpdriver.encoding`)."""
    brand = call_expression("(branding) => axe.configure({branding})", BRANDING)
    return f"{load_bundle().source};{brand};{configuration_script()};0"


# --------------------------------------------------------------------------- partial runs


@dataclass
class _Frame:
    session: Session
    world: int
    label: str
    frame_id: str


class PartialRunner:
    """``axe.runPartial`` in every frame of one page, children concurrently."""

    def __init__(
        self,
        page: Page,
        options: Mapping[str, Any],
        *,
        frame_timeout: float = FRAME_TIMEOUT,
        run_timeout: float = 300.0,
        clock: PhaseClock | None = None,
    ) -> None:
        self.page = page
        self.options = dict(options)
        self.frame_timeout = frame_timeout
        self.run_timeout = run_timeout
        self.untested: list[str] = []
        #: Every frame axe ran in, by frame id: where the findings' elements can be looked up.
        self.frames: dict[str, _Frame] = {}
        self._top: _Frame | None = None
        self._clock = clock or PhaseClock()

    async def prepare(self) -> None:
        """Load axe into the top frame ahead of :meth:`run` (e.g. while the page settles).

        Best effort: if the page navigates meanwhile, or anything fails, ``run`` starts over.
        """
        try:
            self._top = await self._inject_top()
        except CDPError as exc:
            log.debug("early injection failed: %s", exc)

    async def run(self) -> PartialRun:
        """Partials of the whole frame tree; a failure in the top frame raises AxeRunError."""
        try:
            if self._top is not None:
                try:
                    return await self._run_top(self._top)
                except (JavaScriptError, ProtocolError) as exc:  # e.g. the page navigated itself
                    log.debug("early-injected world unusable, injecting again: %s", exc)
            self.untested = []
            return await self._run_top(await self._inject_top())
        except (JavaScriptError, ProtocolError) as exc:
            raise AxeRunError(f"axe-core could not run in the page: {exc}") from exc

    async def _inject_top(self) -> _Frame:
        """axe loaded into a new world of the top frame (the ``inject`` phase)."""
        with self._clock.phase("inject"):
            session = self.page.session
            world = await axe_world(session, self.page.main_frame_id)
            await inject(session, world)
            return _Frame(session, world, "top frame", self.page.main_frame_id)

    async def _run_top(self, top: _Frame) -> PartialRun:
        """The top frame: with no frame to merge, ``axe.run`` finishes in place, which spares
        the partial of every node (megabytes on a large page) and the merge; otherwise the
        partial protocol over the whole tree."""
        partials = await self._run_frame(top, None, self.run_timeout, finish_alone=True)
        if partials is None:
            text = await read_string(top.session, top.world, "__a11yResult", timeout=self.run_timeout)
            return PartialRun([], self.untested, json.loads(text))
        return PartialRun(partials, self.untested)

    async def _run_frame(
        self,
        frame: _Frame,
        context: Mapping[str, Any] | None,
        timeout: float,
        *,
        finish_alone: bool = False,
    ) -> list[str | None] | None:
        """[this frame's partial, *each child's partials] in depth-first order (axe loaded);
        ``context`` is the frame context axe gave for it, None for the whole document.

        With ``finish_alone`` a frame that has no child frames runs ``axe.run`` instead, into
        ``__a11yResult``, and None is returned."""
        self.frames[frame.frame_id] = frame
        frame_contexts = await call_function(
            frame.session,
            load_script("audit", "axe_run_frame"),
            context,
            self.options,
            finish_alone,
            context_id=frame.world,
            timeout=timeout,  # axe builds its tree of the whole document before it answers
        )
        if frame_contexts is None:
            return None
        if finish_alone:  # frames to merge: have a finisher ready by the time they are done
            finisher_pool(self.page.browser).prewarm_in_background()
        children: list[list[str | None]] = [[None] for _ in frame_contexts]
        async with trio.open_nursery() as nursery:
            for index, spec in enumerate(frame_contexts):
                nursery.start_soon(self._child, frame, spec, children, index)
            own = await read_string(frame.session, frame.world, "__a11yPartial", timeout=timeout)
        return [own, *(p for child in children for p in child)]

    async def _child(
        self, parent: _Frame, spec: Mapping[str, Any], out: list[list[str | None]], index: int
    ) -> None:
        """Run one child frame (and its descendants) into ``out[index]``; [None] on failure."""
        selector = spec.get("frameSelector")
        element: str | None = None
        reason = ""
        with trio.move_on_after(self.frame_timeout) as scope:
            try:
                element = await self._select(parent, selector)
                child = await self._enter(parent, element)
                await inject(child.session, child.world)
                out[index] = await self._run_frame(
                    child, spec.get("frameContext") or {}, self.frame_timeout
                ) or [None]  # (never None: only the top frame may finish alone)
                return
            except (CDPError, AxeRunError) as exc:
                reason = str(exc)
        if scope.cancelled_caught:
            reason = f"no answer within {self.frame_timeout:g} s"
        label = await self._frame_url(parent, element) or json.dumps(selector)
        log.info("frame %s was not tested: %s", label, reason)
        self.untested.append(label)

    async def frame_at(self, hops: Sequence[Any]) -> _Frame | None:
        """The frame axe ran in that the frame hops of a result's target lead to (each hop
        axe's selector of a frame element in the frame before it); None when one no longer
        does. Raises ``AxeRunError`` or ``CDPError`` when a hop cannot be followed."""
        frame = self.frames.get(self.page.main_frame_id)
        for hop in hops:
            if frame is None:
                return None
            element = await self._select(frame, hop)
            node = await frame.session.execute(
                dom.describe_node(object_id=runtime.RemoteObjectId(element)), timeout=STEP_TIMEOUT
            )
            frame = self.frames.get(str(node.frame_id or ""))
        return frame

    async def _select(self, parent: _Frame, selector: Any) -> str:
        """Object id of the frame element ``selector`` names in the parent's world."""
        element = await call_function_remote(
            parent.session,
            "function (selector) { return axe.utils.shadowSelect(selector); }",
            selector,
            context_id=parent.world,
            by_value=False,
            object_group="a11y-frames",
            timeout=STEP_TIMEOUT,
        )
        if element.object_id is None:
            raise AxeRunError(f"frame element {selector!r} not found")
        return str(element.object_id)

    async def _enter(self, parent: _Frame, element: str) -> _Frame:
        """An isolated world in the frame ``element`` hosts, on whichever session renders it."""
        node = await parent.session.execute(
            dom.describe_node(object_id=runtime.RemoteObjectId(element)), timeout=STEP_TIMEOUT
        )
        frame_id = str(node.frame_id or "")
        if not frame_id:
            raise AxeRunError("the frame element has no document")
        with trio.move_on_after(CHILD_ATTACH_WAIT):
            while True:
                session = self._child_session(frame_id)
                if session is not None:
                    return _Frame(session, await axe_world(session, frame_id), frame_id, frame_id)
                try:  # an in-process frame lives on the parent's session
                    world = await axe_world(parent.session, frame_id)
                    return _Frame(parent.session, world, frame_id, frame_id)
                except ProtocolError:
                    await trio.sleep(0.02)  # an out-of-process frame not attached yet
        raise AxeRunError(f"frame {frame_id} is neither local nor an attached child target")

    def _child_session(self, frame_id: str) -> Session | None:
        for child in list(self.page.children.values()):
            if child.type == "iframe" and child.session.target_id == frame_id:
                return child.session
        return None

    async def _frame_url(self, parent: _Frame, element: str | None) -> str:
        """The failed frame's address as its element states it (for ``untestedFrames``)."""
        if element is None:
            return ""
        with trio.move_on_after(2):
            try:
                url = await call_function(
                    parent.session,
                    "function () { return this.src || (this.hasAttribute('srcdoc')"
                    " ? 'about:srcdoc' : 'about:blank'); }",
                    object_id=element,
                    timeout=2,
                )
                return str(url or "")
            except CDPError:
                pass
        return ""


# --------------------------------------------------------------------------- finishRun


class Finisher:
    """A blank page with axe loaded, where ``axe.finishRun`` merges one audit's partials."""

    def __init__(self, page: Page, world: int) -> None:
        self.page = page
        self.world = world
        self.broken = False

    async def finish(
        self, partials: list[str | None], options: Mapping[str, Any], *, timeout: float
    ) -> dict[str, Any]:
        """``axe.finishRun(partials, options)``: the standard axe results object."""
        session = self.page.session
        try:
            await write_string(
                session, self.world, "__a11yIn", "[" + ",".join(p or "null" for p in partials) + "]"
            )
            await call_function(
                session,
                load_script("audit", "axe_finish_run"),
                dict(options),
                context_id=self.world,
                timeout=STEP_TIMEOUT,
            )
            text = await read_string(session, self.world, "__a11yResult", timeout=timeout)
        except JavaScriptError as exc:
            raise AxeRunError(f"axe.finishRun failed: {exc}") from exc
        except BaseException:
            self.broken = True  # a half-written input or a dead page: never reuse it
            raise
        finally:
            if not self.broken:
                await self._forget()
        return json.loads(text)

    async def _forget(self) -> None:
        """Drop this audit's strings so the next lease starts from a clean page."""
        try:
            with trio.CancelScope(shield=True), trio.fail_after(5):
                await evaluate(
                    self.page.session,
                    "delete globalThis.__a11yIn; delete globalThis.__a11yResult;"
                    " delete globalThis.__a11yResultText; 0",
                    self.world,
                )
        except (CDPError, trio.TooSlowError):
            self.broken = True


class FinisherPool:
    """Finishers kept warm for one browser.

    Loading axe into a blank page costs more CPU than auditing a small page, so each finisher
    is made once and reused; a lease gives one audit a finisher to itself, and a finisher that
    failed is closed instead of returned. The pages live in a browser context of their own,
    created with the pool, so no audited page shares anything with them; they close with the
    browser. There are never more than ``size`` finishers, leased, idle and being made
    together: a prewarm while every finisher is leased would otherwise add one each time.
    """

    def __init__(self, browser: Browser, size: int = 2) -> None:
        self.browser = browser
        self.size = size
        self._slots = trio.Semaphore(size)
        self._idle: list[Finisher] = []
        self._alive = 0  # finishers leased, idle or being made
        self._warming: trio.Event | None = None
        self._context_lock = trio.Lock()
        self._context_id: str | None = None

    def prewarm_in_background(self) -> None:
        """Start :meth:`prewarm` in the browser's nursery, so that no caller's cancellation
        can waste a half-made finisher."""
        if self._wants_one() and self.browser.is_connected:
            self.browser.start_task(self.prewarm)

    def _wants_one(self) -> bool:
        """No finisher idle, none being made, and room for one more."""
        return not self._idle and self._warming is None and self._alive < self.size

    async def prewarm(self) -> None:
        """Have one finisher ready before the next lease needs it (best effort)."""
        if not self._wants_one():
            return
        self._warming = trio.Event()
        try:
            self._idle.append(await self._create())
        except Exception as exc:  # noqa: BLE001 - the lease will try again and report it
            log.debug("could not prepare a finisher ahead of time: %s", exc)
        finally:
            self._warming.set()
            self._warming = None

    @asynccontextmanager
    async def lease(self) -> AsyncIterator[Finisher]:
        """A finisher for this caller alone until the block exits."""
        async with self._slots:
            while not self._idle and self._warming is not None:
                await self._warming.wait()
            finisher = self._idle.pop() if self._idle else await self._create()
            try:
                yield finisher
            finally:
                if finisher.broken or finisher.page.is_closed:
                    self._alive -= 1
                    await finisher.page.close()
                else:
                    self._idle.append(finisher)

    async def _create(self) -> Finisher:
        """A fresh blank page in the pool's context with axe injected and configured (counted
        in ``_alive`` from the start, and no longer if making it fails)."""
        self._alive += 1
        try:
            context_id = await self._context()
            # Shielded so that a target the browser created is always recorded for closing.
            with trio.CancelScope(shield=True), trio.fail_after(STEP_TIMEOUT):
                page = await self.browser.new_page(context_id=context_id, auto_attach=False)
            try:
                with trio.fail_after(STEP_TIMEOUT):
                    world = await axe_world(page.session, page.main_frame_id)
                    await inject(page.session, world)
            except BaseException:
                await page.close()
                raise
        except BaseException:
            self._alive -= 1
            raise
        return Finisher(page, world)

    async def _context(self) -> str:
        async with self._context_lock:
            if self._context_id is None:
                with trio.CancelScope(shield=True), trio.fail_after(STEP_TIMEOUT):
                    self._context_id = await self.browser.create_context()
            return self._context_id


_POOLS: weakref.WeakKeyDictionary[Browser, FinisherPool] = weakref.WeakKeyDictionary()


def finisher_pool(browser: Browser) -> FinisherPool:
    """The pool that serves ``browser`` (made on first use, gone with the browser object)."""
    pool = _POOLS.get(browser)
    if pool is None:
        pool = _POOLS[browser] = FinisherPool(browser)
    return pool


async def finish_run(
    browser: Browser, partials: list[str | None], options: Mapping[str, Any], *, timeout: float
) -> dict[str, Any]:
    """Merge the partials in a pooled finisher; a finisher whose page died is replaced once."""
    pool = finisher_pool(browser)
    for attempt in (1, 2):
        try:
            async with pool.lease() as finisher:
                return await finisher.finish(partials, options, timeout=timeout)
        except (TargetClosed, ProtocolError) as exc:
            if attempt == 2 or not browser.is_connected:
                raise AxeRunError(f"axe.finishRun failed: {exc}") from exc
            log.info("finisher page failed (%s); using a fresh one", exc)
    raise AssertionError("unreachable")
