"""What a tool call acts on: a browser context, its tabs and current tab, files, per-namespace state.

A session is one client's view of the server's browser (:class:`tools.browser_host.BrowserHost`,
started on first use or by ``browser_launch``): on stdio the one session works in the browser's
default context (or, ``isolated``, a context of its own) and ``browser_quit`` closes the
browser; over HTTP each client's session is ``shared``: it works in a context of its own,
``browser_quit`` closes that context only, and the browser is the server's (``tools.contexts``).
A dead browser is forgotten so the next call relaunches it, and each session opens its
context again there.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import trio

from cdpdriver import Batch, Browser, CDPError, Page, Session

from .browser_host import BrowserHost, let_go
from .downloads import Downloads
from .errors import ToolError
from .registry import Observer, Outcome, Tool
from .server_config import ServerConfig
from .tab import Tab

if TYPE_CHECKING:
    from .guard.calls import CallGuard
    from .guard.policy import GuardConfig

log = logging.getLogger("tools")
T = TypeVar("T")
# Queues the commands a new tab needs before its first document runs (routes, offline mode,
# recorders); it must not await anything, so every new tab is set up in one round trip.
TabSetup = Callable[[Tab, Batch], None]
SETUP_TIMEOUT = 10.0
WRITTEN_KEPT = 500  # files a session remembers writing (what resources/list and resources/read serve)
#: Where a long call says how far it got: (done, total or None, what it is doing).
ProgressSink = Callable[[float, float | None, str], Awaitable[None]]
#: The handle of the context a call without one acts on: the only one on stdio.
DEFAULT_CONTEXT = "default"


class ToolSession:
    def __init__(self, config: ServerConfig, nursery: trio.Nursery, host: BrowserHost | None = None, *,
                 shared: bool = False, handle: str = DEFAULT_CONTEXT, files: Path | None = None) -> None:
        """``nursery`` owns the session's tasks (its tabs' recorders); ``host`` is the server's
        browser (a browser of its own when None); a ``shared`` session works in a context of its
        own and never quits or relaunches the browser; ``files`` is where its downloads go
        (``<output>/downloads`` when None)."""
        self.config = config
        self.log = log
        self._nursery = nursery
        self.host = host if host is not None else BrowserHost(config, nursery)
        self.shared = shared
        self.handle = handle
        self.browser: Browser | None = None
        self.tabs: list[Tab] = []
        self.current = 0
        self.context_id: str | None = None
        self._created_context = False
        self.init_scripts: list[str] = list(config.init_scripts)
        self.observers: list[Observer] = []
        # Queued for every tab as it opens (popups included, while still paused).
        self.tab_setups: list[TabSetup] = []
        self._adopting: set[str] = set()  # popups being set up: their own popups are ours too
        self.downloads = Downloads(files if files is not None else config.output_dir.expanduser().resolve())
        #: The guard rails' share of this session (tools.guard); None without any.
        self.guard: CallGuard | None = None
        if config.guard is not None:
            self._guard_with(config.guard)
        self.call_lock = trio.Lock()
        #: Called once ``browser_quit`` closed a shared session's context: the session is over.
        self.on_quit: Callable[[], None] | None = None
        self.ended = False
        self._state: dict[str, Any] = {}
        self._starting = trio.Lock()
        #: Files written through ``output_path``: during one call (a list the MCP server sets, so
        #: the result can link them) and the session's last ones, which ``resources/read`` serves.
        self.call_files: list[Path] | None = None
        self.written: OrderedDict[Path, None] = OrderedDict()
        #: Where a long call reports progress (the MCP server sets it for a call that asked).
        self.progress: ProgressSink | None = None
        self.downloads.saved = self._wrote

    def _guard_with(self, rules: GuardConfig) -> None:
        """Check calls, set up tabs and gate downloads by the guard rails (tools.guard)."""
        from .guard.calls import CallGuard
        from .guard.confirm import gate_downloads
        from .guard.tabs import tab_setup

        self.guard = CallGuard(rules)
        setup = tab_setup(self, rules)
        if setup is not None:
            self.tab_setups.append(setup)
        if rules.confirm_actions:
            self.downloads.gate = gate_downloads(self)

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

    # -- browser and context lifecycle ------------------------------------------------

    @property
    def headless(self) -> bool:
        return self.host.headless

    @property
    def browser_launched(self) -> bool:
        return self.browser is not None and self.browser.is_connected

    async def ensure_browser(self) -> Browser:
        """The browser, with this session's context open in it (both started when needed)."""
        browser = self.browser
        if browser is not None and browser is self.host.browser and browser.is_connected:
            return browser
        async with self._starting:
            browser = await self.host.ensure()
            if self.browser is not browser:
                await self._open_context(browser)
            return browser

    async def _open_context(self, browser: Browser) -> None:
        """Work in ``browser`` from now on: in a context of our own when shared or isolated."""
        self.forget_browser()
        own = self.shared or self.config.isolated or self.host.guards_contexts
        context_id = await self.host.create_context(browser) if own else None
        self.browser, self.context_id, self._created_context = browser, context_id, context_id is not None
        self.host.register(self)
        try:
            await self.downloads.allow(browser, context_id)
        except CDPError as exc:  # the browser's own default applies: downloads are not saved
            log.warning("downloads cannot be saved in the output directory: %s", exc)

    async def launch(self, headless: bool | None = None) -> Browser:
        """The browser for ``browser_launch``; a shared browser keeps the server's mode."""
        if not self.shared:
            await self.host.relaunch(headless)
        return await self.ensure_browser()

    async def quit(self) -> bool:
        """``browser_quit``: close the browser, or a shared session's context only; False when
        there was nothing to close."""
        if not self.shared:
            return await self.host.quit()
        had = self.browser is not None
        await self.close_context()
        self.ended = True
        if self.on_quit is not None:
            self.on_quit()
        return had

    async def close_context(self) -> None:
        """Close this session's tabs and the context it created; the browser stays."""
        browser, context_id, created = self.browser, self.context_id, self._created_context
        self.host.unregister(self)
        self.forget_browser()
        if browser is not None and created and context_id and browser.is_connected:
            await browser.dispose_context(context_id)

    def forget_browser(self) -> None:
        """Drop the tabs and the context: the browser ended, or the session leaves it."""
        for tab in self.tabs:
            tab.close()
        self.tabs.clear()
        self._adopting.clear()
        self.current = 0
        self.browser, self.context_id, self._created_context = None, None, False

    def owns_context(self) -> bool:
        return self._created_context

    async def forget_dead_browser(self) -> None:
        """After a crash: let the browser's owner task finish so the next call starts afresh."""
        await self.host.forget_dead()

    # -- what the browser reports: popups and downloads -----------------------------------

    def claim_popup(self, opener_id: str, target_id: str) -> bool:
        if opener_id in {t.id for t in self.tabs} | self._adopting:
            self._adopting.add(target_id)
            return True
        return False

    async def adopt_popup(self, browser: Browser, attached: dict[str, Any]) -> None:
        target_id = attached["targetInfo"]["targetId"]
        session = Session(browser.connection, attached["sessionId"], target_id)
        try:
            await self._adopt(Page(browser, session, context_id=self.context_id), paused=True)
        except (CDPError, RuntimeError) as exc:  # RuntimeError: the session closed meanwhile
            log.debug("could not adopt popup %s: %s", target_id, exc)
            await let_go(browser, attached)
        finally:
            self._adopting.discard(target_id)

    def owns_frame(self, frame_id: str) -> bool:
        """True when ``frame_id`` is a frame of one of this session's tabs."""
        for tab in self.tabs:
            if frame_id == tab.id or frame_id in tab.contexts:
                return True
            if any(child.session.target_id == frame_id for child in tab.page.children.values()):
                return True
        return False

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
        self._wrote(full)
        return full

    def _wrote(self, path: Path) -> None:
        """Note a file a call writes (through ``output_path``) or a download saved."""
        if self.call_files is not None:
            self.call_files.append(path)
        self.written[path] = None
        self.written.move_to_end(path)
        while len(self.written) > WRITTEN_KEPT:
            self.written.popitem(last=False)

    async def report(self, done: float, total: float | None, message: str) -> None:
        """Say how far a long call got (a phase, a page): sent as MCP progress, or kept as the
        status of the task the call runs as, when the client asked; otherwise nothing."""
        if self.progress is not None:
            await self.progress(done, total, message)
