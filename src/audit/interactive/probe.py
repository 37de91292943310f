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

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import trio

from cdpdriver import Page, evaluate, evaluate_remote, isolated_world
from cdpdriver.keys import press
from cdpdriver.protocol import dom_debugger, emulation, runtime
from cdpdriver.scripts import call_expression, load_script

from ..viewports import current_viewport

WORLD_NAME = "a11y-interact"
#: One page-side call or input event at most; a page that takes longer is not answering.
CALL_TIMEOUT = 5.0
#: How long a wait for the page's next frames may take: a page that draws nothing (hidden,
#: or its main thread busy) still moves on.
FRAME_WAIT = 0.25


class Probe:
    """One page's interaction surface for the checks of one phase (see the module docstring)."""

    def __init__(self, page: Page, url: str, deadline: float) -> None:
        self.page = page
        self.url = url
        self.deadline = deadline
        self._world: int | None = None
        self._loader = page.document_loader_id
        self._mouse = (0.0, 0.0)

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
            world = await isolated_world(self.page.session, self.page.main_frame_id, WORLD_NAME, timeout=self._timeout())
            await evaluate(self.page.session, load_script(__package__, "probe_library"), world, timeout=self._timeout())
            self._world = world
        return self._world

    async def call(self, function: str, *args: Any) -> Any:
        """Call a function expression (a page-side script, ``load_script(...)``) with JSON
        ``args`` in the interaction world; a returned promise is awaited."""
        world = await self.world()
        expression = call_expression(function, *args)
        return await evaluate(self.page.session, expression, world, await_promise=True, timeout=self._timeout())

    async def main_world(self, expression: str) -> Any:
        """Evaluate in the page's own world: for what only the page's scripts can see (its
        globals), never for judging."""
        return await evaluate(self.page.session, expression, await_promise=True, timeout=self._timeout())

    async def listener_types(self) -> set[str]:
        """The event types the page listens for anywhere: the window, the document and every
        element below it, through shadow roots and frames (inline handlers included)."""
        world = await self.world()
        found: set[str] = set()
        for expression, depth in (("window", 1), ("document", -1)):
            handle = await evaluate_remote(self.page.session, expression, world, by_value=False, timeout=self._timeout())
            object_id = runtime.RemoteObjectId(str(handle.object_id))
            listeners = await self.page.session.execute(
                dom_debugger.get_event_listeners(object_id, depth=depth, pierce=True), timeout=self._timeout()
            )
            found.update(listener.type for listener in listeners)
        return found

    # ------------------------------------------------------------------ input

    async def press(self, combo: str) -> None:
        """A real key press (``Tab``, ``Shift+Tab``, ``Escape``, ``a``)."""
        with trio.fail_after(self._timeout()):
            await press(self.page.session, combo)

    async def move_mouse(self, x: float, y: float) -> None:
        with trio.fail_after(self._timeout()):
            await self.page.session.send(
                "Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y, "button": "none"}
            )
        self._mouse = (x, y)

    async def frames(self) -> None:
        """Wait until the page has drawn twice since now (handlers, transitions started and
        timers of 0 ms have run), or :data:`FRAME_WAIT` at most."""
        await self.call(load_script(__package__, "next_frames"), int(FRAME_WAIT * 1000))

    # ------------------------------------------------------------------ the screen

    @asynccontextmanager
    async def screen(self, width: int, height: int) -> AsyncIterator[None]:
        """The page laid out in a ``width`` x ``height`` CSS-pixel window (desktop rules, one
        device pixel per CSS pixel) for the block; the audit's own screen is put back on
        every path."""
        session = self.page.session
        await session.execute(emulation.set_device_metrics_override(width, height, 1, False), timeout=self._timeout())
        try:
            yield
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(CALL_TIMEOUT):
                viewport = current_viewport(self.page)
                if viewport is None:
                    await session.execute(emulation.clear_device_metrics_override())
                else:
                    await session.execute(emulation.set_device_metrics_override(
                        viewport.width, viewport.height, viewport.device_scale_factor, viewport.mobile
                    ))
