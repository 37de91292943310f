"""What a tool call acts on: the browser, the tabs and the current tab, files, per-namespace state.

The browser lives in a task of the server's nursery, started on first use
(or by ``browser_launch``) and stopped by ``browser_quit`` or when it dies;
a dead browser is forgotten so the next call relaunches it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import trio

from cdpdriver import Batch, Browser, CDPError, LaunchOptions, Page, Session, connect, launch

from .downloads import Downloads
from .errors import ToolError
from .registry import Observer, Outcome, Tool
from .server_config import ServerConfig
from .tab import Tab

log = logging.getLogger("tools")
T = TypeVar("T")
# Queues the commands a new tab needs before its first document runs (routes, offline mode,
# recorders); it must not await anything, so every new tab is set up in one round trip.
TabSetup = Callable[[Tab, Batch], None]
SETUP_TIMEOUT = 10.0


class ToolSession:
    def __init__(self, config: ServerConfig, nursery: trio.Nursery) -> None:
        self.config = config
        self.log = log
        self._nursery = nursery
        self.browser: Browser | None = None
        self.headless = config.headless
        self.tabs: list[Tab] = []
        self.current = 0
        self.context_id: str | None = None
        self.init_scripts: list[str] = list(config.init_scripts)
        self.observers: list[Observer] = []
        # Queued for every tab as it opens (popups included, while still paused).
        self.tab_setups: list[TabSetup] = []
        self._adopting: set[str] = set()  # popups being set up: their own popups are ours too
        self.downloads = Downloads(config.output_dir.expanduser().resolve())
        self.call_lock = trio.Lock()
        self._state: dict[str, Any] = {}
        self._stop = trio.Event()
        self._stopped = trio.Event()
        self._starting = trio.Lock()

    # -- exposure and observers ------------------------------------------------------

    def exposes(self, name: str) -> bool:
        if self.config.tools is not None and name in self.config.tools:
            return True
        if self.config.namespaces is not None:
            return name.split("_", 1)[0] in self.config.namespaces
        return self.config.tools is None

    def notify(self, tool: Tool, outcome: Outcome) -> None:
        for observer in list(self.observers):
            try:
                observer(tool, outcome.arguments, outcome)
            except Exception:
                log.exception("observer failed for %s", tool.name)

    def state(self, key: str, factory: Callable[[], T]) -> T:
        """Per-namespace state, created on first use (routes, recordings, test results…)."""
        if key not in self._state:
            self._state[key] = factory()
        return self._state[key]

    # -- browser lifecycle -------------------------------------------------------------

    @property
    def browser_launched(self) -> bool:
        return self.browser is not None and self.browser.is_connected

    async def ensure_browser(self) -> Browser:
        async with self._starting:
            if self.browser is not None and not self.browser.is_connected:
                await self.forget_dead_browser()
            if self.browser is None:
                self.browser = await self._nursery.start(self._own_browser)
            return self.browser

    async def launch(self, headless: bool | None = None) -> Browser:
        if headless is not None and headless != self.headless and self.browser_launched:
            await self.quit()
        if headless is not None:
            self.headless = headless
        return await self.ensure_browser()

    async def _own_browser(self, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """The task that owns the browser: it lives until quit or until the browser dies."""
        self._stop, self._stopped = trio.Event(), trio.Event()
        stopped = self._stopped
        try:
            if self.config.browser_url:
                manager = connect(self.config.browser_url)
            else:
                manager = launch(LaunchOptions(
                    headless=self.headless, extensions=self.config.extensions,
                    timeout=self.config.launch_timeout,
                ))
            async with manager as browser:
                if self.config.isolated or self.config.browser_url:
                    self.context_id = await browser.create_context() if self.config.isolated else None
                async with trio.open_nursery() as watchers:
                    await watchers.start(self.downloads.watch, browser)
                    await self._allow_downloads(browser)
                    await watchers.start(self._watch_popups, browser)
                    task_status.started(browser)
                    with trio.CancelScope() as scope:
                        watchers.start_soon(_cancel_when, browser.connection.closed, scope)
                        await self._stop.wait()
                    watchers.cancel_scope.cancel()
                for tab in self.tabs:
                    tab.close()
                if self.context_id and browser.is_connected:
                    await browser.dispose_context(self.context_id)
        finally:
            self.tabs.clear()
            self.current = 0
            self.context_id = None
            stopped.set()

    async def _allow_downloads(self, browser: Browser) -> None:
        try:
            await self.downloads.allow(browser, self.context_id)
        except CDPError as exc:  # the browser's own default applies: downloads are not saved
            log.warning("downloads cannot be saved in the output directory: %s", exc)

    async def _watch_popups(self, browser: Browser, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Pages our tabs open join the tab list, set up before their first document runs.

        Every page that starts in the browser is auto-attached, paused: a popup of one of our
        tabs is adopted on that session and resumed once its set-up is sent; any other page is
        resumed and let go. Attachments that wait for nothing are pages that existed before
        (let go) or our own ``attach_page`` (kept); ready once the former are known.
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
                nursery.start_soon(_let_go, browser, attached)
            return
        if info.get("openerId") in {t.id for t in self.tabs} | self._adopting:
            self._adopting.add(info["targetId"])
            nursery.start_soon(self._adopt_popup, browser, attached)
        else:
            nursery.start_soon(_let_go, browser, attached)

    async def _adopt_popup(self, browser: Browser, attached: dict[str, Any]) -> None:
        target_id = attached["targetInfo"]["targetId"]
        session = Session(browser.connection, attached["sessionId"], target_id)
        try:
            await self._adopt(Page(browser, session, context_id=self.context_id), paused=True)
        except CDPError as exc:
            log.debug("could not adopt popup %s: %s", target_id, exc)
            await _let_go(browser, attached)
        finally:
            self._adopting.discard(target_id)

    async def quit(self) -> bool:
        """Close the browser; False when none was running."""
        if self.browser is None:
            return False
        self._stop.set()
        with trio.move_on_after(15):
            await self._stopped.wait()
        self.browser = None
        return True

    async def forget_dead_browser(self) -> None:
        """After a crash: let the owner task finish so the next call starts afresh."""
        if self.browser is not None and not self.browser.is_connected:
            self._stop.set()
            with trio.move_on_after(10):
                await self._stopped.wait()
            self.browser = None

    # -- tabs ----------------------------------------------------------------------------

    async def tab(self) -> Tab:
        """The current tab, opening the browser and a first tab when needed."""
        await self.ensure_browser()
        self.tabs = [t for t in self.tabs if not t.page.is_closed]
        if not self.tabs:
            await self.new_tab()
        self.current = min(self.current, len(self.tabs) - 1)
        return self.tabs[self.current]

    async def new_tab(self, url: str = "about:blank") -> Tab:
        browser = await self.ensure_browser()
        page = await browser.new_page("about:blank", context_id=self.context_id)
        tab = await self._adopt(page)
        self.current = self.tabs.index(tab)
        if url != "about:blank":
            await page.navigate(url)
        return tab

    async def _adopt(self, page: Page, *, paused: bool = False) -> Tab:
        """Set the tab up in one batch: recording, init scripts and every ``tab_setups`` entry.

        A popup arrives ``paused`` (waiting for the debugger) with nothing sent yet, and may
        answer nothing until it runs: the page's own set-up goes first in the batch and
        ``Runtime.runIfWaitingForDebugger`` last, so all of it applies from its first document.
        Only the tab's own set-up must succeed.
        """
        tab = Tab(page)
        async with page.session.batch(timeout=SETUP_TIMEOUT) as batch:
            own = page.queue_setup(batch) if paused else []
            own += tab.queue_start(self._nursery, self.init_scripts, batch)
            for setup in list(self.tab_setups):
                try:
                    setup(tab, batch)
                except Exception:  # one broken setup must not keep the tab from opening
                    log.exception("tab setup %r failed", setup)
            if paused:
                own.append(batch.send("Runtime.runIfWaitingForDebugger"))
        try:
            for reply in own:
                reply.result()  # raises the tab's own failure
        except CDPError:
            tab.close()
            raise
        for reply in batch.replies:
            if reply.error is not None:
                log.debug("tab %s: %s failed: %s", tab.id, reply.method, reply.error)
        self.tabs.append(tab)
        return tab

    async def close_tab(self, tab: Tab) -> None:
        tab.close()
        await tab.page.close()
        if tab in self.tabs:
            index = self.tabs.index(tab)
            self.tabs.remove(tab)
            if self.current >= index and self.current > 0:
                self.current -= 1

    def find_tab(self, index: int | None = None, tab_id: str | None = None) -> Tab:
        if tab_id is not None:
            for tab in self.tabs:
                if tab.id == tab_id:
                    return tab
            raise ToolError("not_found", f"no tab with id {tab_id!r}; call tab_list")
        if index is None:
            raise ToolError("invalid_arguments", "give index or id")
        if not 0 <= index < len(self.tabs):
            raise ToolError("not_found", f"no tab at index {index}; there are {len(self.tabs)} tabs (call tab_list)")
        return self.tabs[index]

    # -- files ---------------------------------------------------------------------------

    @property
    def output_root(self) -> Path:
        root = self.config.output_dir.expanduser().resolve()
        root.mkdir(parents=True, exist_ok=True)
        return root

    def output_path(self, path: str | None, default_name: str) -> Path:
        """A file path inside the output directory; anything that escapes it is refused."""
        root = self.output_root
        candidate = Path(path).expanduser() if path else Path(default_name)
        full = (candidate if candidate.is_absolute() else root / candidate).resolve()
        if full != root and root not in full.parents:
            raise ToolError(
                "invalid_path",
                f"{path!r} is outside the output directory {root}; use a relative path inside it",
            )
        if full == root or full.is_dir():
            raise ToolError("invalid_path", f"{path!r} is a directory; give a file name")
        full.parent.mkdir(parents=True, exist_ok=True)
        return full


async def _let_go(browser: Browser, attached: dict[str, Any]) -> None:
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
