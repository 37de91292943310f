"""The one browser of a tool server, shared by the sessions of its clients.

A server has one browser: launched (or attached, ``browser_url``) in a task of the
server's nursery on first use, relaunched on the next use after it dies. Each tool session
works in a browser context (its own, or on stdio the browser's default one) and registers
here while it has one, because the browser reports some things once, on its own session,
for every context: a page that a tab opened (a popup, adopted paused so it is set up
before its first document runs) goes to the session whose tab opened it, and a download to
the session whose frame began it (:class:`tools.downloads.DownloadRouter`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

import trio

from cdpdriver import Browser, CDPError, LaunchOptions, connect, launch

from .downloads import DownloadOwner, DownloadRouter
from .guard.requests import BrowserGuard
from .guard.tabs import launch_args
from .server_config import ServerConfig

if TYPE_CHECKING:
    from .guard.calls import CallGuard

log = logging.getLogger("tools")
SETUP_TIMEOUT = 10.0
QUIT_TIMEOUT = 15.0


class HostedSession(DownloadOwner, Protocol):
    """What the host needs of a tool session that works in its browser."""

    context_id: str | None
    guard: CallGuard | None  # its share of the guard rails (tools.guard)

    def claim_popup(self, opener_id: str, target_id: str) -> bool:
        """True (and the page is expected) when ``opener_id`` is one of the session's tabs."""
        ...

    async def adopt_popup(self, browser: Browser, attached: dict[str, Any]) -> None: ...

    def owns_context(self) -> bool:
        """True when the session created its context (so it is disposed with the session)."""
        ...

    def forget_browser(self) -> None:
        """The browser ended: drop the tabs and the context, which ended with it."""
        ...


class BrowserHost:
    """The browser, its lifecycle, and the routing of what it reports to the sessions."""

    def __init__(self, config: ServerConfig, nursery: trio.Nursery) -> None:
        self.config = config
        self.headless = config.headless
        self.browser: Browser | None = None
        self._nursery = nursery
        self._sessions: list[HostedSession] = []
        self._downloads = DownloadRouter(lambda: self._sessions)
        self._stop = trio.Event()
        self._stopped = trio.Event()
        self._starting = trio.Lock()
        self._at_once = False  # the stop asked for kills a launched browser (quit)
        #: The guard rails of the running browser (tools.guard.requests), when the server has any.
        self.browser_guard: BrowserGuard | None = None

    @property
    def guards_contexts(self) -> bool:
        """True when every session must work in a context of its own, made through the guard's proxy."""
        return self.config.guard is not None and self.config.guard.origins_ruled

    async def create_context(self, browser: Browser) -> str:
        """A browser context for a session; under origin rules its connections go through the proxy."""
        options = self.browser_guard.context_options() if self.browser_guard is not None else {}
        return await browser.create_context(**options)

    @property
    def launched(self) -> bool:
        return self.browser is not None and self.browser.is_connected

    def register(self, session: HostedSession) -> None:
        if session not in self._sessions:
            self._sessions.append(session)

    def unregister(self, session: HostedSession) -> None:
        if session in self._sessions:
            self._sessions.remove(session)

    async def ensure(self) -> Browser:
        """The running browser, started (or attached) when there is none."""
        async with self._starting:
            if self.browser is not None and not self.browser.is_connected:
                await self.forget_dead()
            if self.browser is None:
                self.browser = await self._nursery.start(self._own_browser)
            return self.browser

    async def relaunch(self, headless: bool | None) -> Browser:
        """The browser in the mode asked for: a running one in the other mode is closed first."""
        if headless is not None and headless != self.headless and self.launched:
            await self.quit()
        if headless is not None:
            self.headless = headless
        return await self.ensure()

    async def quit(self, *, at_once: bool = False) -> bool:
        """Close the browser (every session's tabs and contexts with it); False when none ran.

        ``at_once`` (the server is stopping) kills a launched browser rather than closing it
        gracefully (:meth:`cdpdriver.Browser.kill`): most of an HTTP server's stop otherwise."""
        if self.browser is None:
            return False
        self._at_once = at_once
        self._stop.set()
        with trio.move_on_after(QUIT_TIMEOUT):
            await self._stopped.wait()
        self.browser = None
        return True

    async def forget_dead(self) -> None:
        """After a crash: let the owner task finish so the next call starts afresh."""
        if self.browser is not None and not self.browser.is_connected:
            self._stop.set()
            with trio.move_on_after(SETUP_TIMEOUT):
                await self._stopped.wait()
            self.browser = None

    async def _own_browser(self, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """The task that owns the browser: it lives until quit or until the browser dies."""
        self._stop, self._stopped, self._at_once = trio.Event(), trio.Event(), False
        stopped = self._stopped
        try:
            if self.config.browser_url:
                manager = connect(self.config.browser_url)
            else:
                manager = launch(LaunchOptions(
                    headless=self.headless, extensions=self.config.extensions,
                    timeout=self.config.launch_timeout, args=launch_args(self.config.guard),
                ))
            async with manager as browser:
                async with trio.open_nursery() as watchers:
                    if self.config.guard is not None and self.config.guard.intercepts:
                        guard = BrowserGuard(self.config.guard, lambda: self._sessions)
                        await watchers.start(guard.run, browser)
                        self.browser_guard = guard
                    await watchers.start(self._downloads.watch, browser)
                    await watchers.start(self._watch_popups, browser)
                    task_status.started(browser)
                    with trio.CancelScope() as scope:
                        watchers.start_soon(_cancel_when, browser.connection.closed, scope)
                        await self._stop.wait()
                    watchers.cancel_scope.cancel()
                if self._at_once:
                    await browser.kill()
                if self.config.browser_url and browser.is_connected:  # a launched one dies with its contexts
                    async with trio.open_nursery() as disposals:  # each bounded in dispose_context
                        for session in list(self._sessions):
                            if session.owns_context() and session.context_id:
                                disposals.start_soon(browser.dispose_context, session.context_id)
        finally:
            self.browser_guard = None
            for session in list(self._sessions):
                session.forget_browser()
            self._sessions.clear()
            stopped.set()

    async def _watch_popups(self, browser: Browser, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Pages our tabs open join their session's tab list, set up before their first document runs.

        Every page that starts in the browser is auto-attached, paused: a popup of a session's
        tab is adopted by that session and resumed once its set-up is sent; any other page is
        resumed and let go. Attachments that wait for nothing are pages that existed before
        (let go) or a session's own ``attach_page`` (kept); ready once the former are known.
        """
        with browser.session.listen("Target.attachedToTarget", raw=True) as events:
            await browser.session.send("Target.setAutoAttach", {
                "autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True,
                "filter": [{"type": "page"}]})
            async with trio.open_nursery() as nursery:
                while True:  # the pages that existed: attached before the reply came
                    try:
                        event = events.receive_nowait()
                    except trio.WouldBlock:
                        break
                    self._on_attached(browser, event.params, True, nursery)
                task_status.started()
                async for event in events:
                    self._on_attached(browser, event.params, False, nursery)

    def _on_attached(self, browser: Browser, attached: dict[str, Any], existed: bool,
                     nursery: trio.Nursery) -> None:
        info = attached.get("targetInfo") or {}
        log.debug("page %s attached (opener %s, waiting %s)", info.get("targetId"), info.get("openerId"),
                  attached.get("waitingForDebugger"))
        if not attached.get("waitingForDebugger"):
            if existed:
                nursery.start_soon(let_go, browser, attached)
            return
        opener, target = str(info.get("openerId") or ""), str(info.get("targetId") or "")
        owner = next((s for s in self._sessions if opener and s.claim_popup(opener, target)), None)
        if owner is not None:
            nursery.start_soon(owner.adopt_popup, browser, attached)
        else:
            nursery.start_soon(let_go, browser, attached)


async def let_go(browser: Browser, attached: dict[str, Any]) -> None:
    """Resume a page we were auto-attached to and detach from it: it is not ours."""
    session_id = attached.get("sessionId")
    with trio.move_on_after(SETUP_TIMEOUT):
        try:
            if attached.get("waitingForDebugger"):
                await browser.connection.send("Runtime.runIfWaitingForDebugger", session_id=session_id)
            await browser.session.send("Target.detachFromTarget", {"sessionId": session_id})
        except CDPError as exc:  # it closed meanwhile
            log.debug("could not let go of %s: %s", session_id, exc)


async def _cancel_when(event: trio.Event, scope: trio.CancelScope) -> None:
    await event.wait()
    scope.cancel()
