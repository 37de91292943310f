"""Launch a browser or connect to one; contexts and pages on one connection.

``launch`` and ``connect`` are async context managers that own a nursery:
the reader task, the process watcher and every page's helper task live in it,
so nothing outlives the ``async with`` block and the browser process is killed
on every exit path.
"""

from __future__ import annotations

import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import trio

from .connection import Command, Connection
from .errors import BrowserClosed, BrowserLaunchError, CDPError
from .groups import single_exception
from .launcher import BrowserProcess, LaunchOptions, start_chromium
from .page import Page
from .protocol import browser as browser_domain
from .protocol import target as target_domain
from .session import Session
from .transport import PipeTransport, Transport, WebSocketTransport

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BrowserVersion:
    product: str
    protocol_version: str
    revision: str
    user_agent: str
    js_version: str

    @property
    def major(self) -> int:
        try:
            return int(self.product.split("/", 1)[1].split(".", 1)[0])
        except (IndexError, ValueError):
            return 0


class Browser:
    """A connected browser. Create it with ``launch()`` or ``connect()``."""

    def __init__(
        self,
        connection: Connection,
        nursery: trio.Nursery,
        process: BrowserProcess | None = None,
    ) -> None:
        self.connection = connection
        self.session = Session(connection, None)
        self.process = process
        self._nursery = nursery
        self.version: BrowserVersion | None = None

    @property
    def is_connected(self) -> bool:
        return self.connection.is_open

    @property
    def is_headless(self) -> bool:
        """True for a headless browser, whose extra tabs no one sees (judged by its user agent)."""
        return self.version is not None and "Headless" in self.version.user_agent

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    async def _read_version(self, timeout: float | None = None) -> BrowserVersion:
        """The first command: proves the connection works and records the build."""
        result = await self.session.execute(browser_domain.get_version(), timeout=timeout)
        self.version = BrowserVersion(
            product=result.product,
            protocol_version=result.protocol_version,
            revision=result.revision,
            user_agent=result.user_agent,
            js_version=result.js_version,
        )
        return self.version

    # -- contexts and pages ------------------------------------------------

    async def create_context(
        self, *, proxy_server: str | None = None, proxy_bypass_list: str | None = None
    ) -> str:
        """A fresh incognito-like context: its own cookies, storage and cache; with
        ``proxy_server``, every connection of the context goes through that proxy."""
        return str(
            await self.session.execute(
                target_domain.create_browser_context(
                    dispose_on_detach=True,
                    proxy_server=proxy_server,
                    proxy_bypass_list=proxy_bypass_list,
                )
            )
        )

    async def dispose_context(self, context_id: str) -> None:
        """Dispose a context; tolerant of a browser that is already gone."""
        with trio.CancelScope(shield=True), trio.move_on_after(10):
            try:
                await self.session.execute(
                    target_domain.dispose_browser_context(context_id)
                )
            except CDPError as exc:
                log.debug("dispose of context %s failed: %s", context_id, exc)

    @asynccontextmanager
    async def context(self) -> AsyncIterator[BrowserContext]:
        """A browser context disposed on exit, errors and cancellation included."""
        context_id = await self.create_context()
        try:
            yield BrowserContext(self, context_id)
        finally:
            await self.dispose_context(context_id)

    async def new_page(
        self,
        url: str = "about:blank",
        *,
        context_id: str | None = None,
        auto_attach: bool = True,
        setup: Sequence[Command[Any]] = (),
        track_network: bool = False,
        new_window: bool = False,
    ) -> Page:
        """Open a tab and attach a flat session to it. ``setup`` (commands for the tab) and,
        with ``track_network``, the counting of its requests (:meth:`Page.track_network`)
        go out with the page's own set-up, one round trip for all; a failure is raised.

        ``new_window`` opens it in a window of its own. Tabs of one window share it, and only
        the front one is visible: the others are hidden documents, which draw no frames (a
        screenshot of one waits for a frame) and run no animation frames. A page that must
        behave as a person sees it, while others are open beside it, needs its own window."""
        target_id = await self.session.execute(
            target_domain.create_target(
                url=url,
                browser_context_id=context_id if context_id else None,
                new_window=new_window or None,
            )
        )
        return await self.attach_page(
            str(target_id), context_id=context_id, auto_attach=auto_attach, setup=setup,
            track_network=track_network,
        )

    async def attach_page(
        self, target_id: str, *, context_id: str | None = None, auto_attach: bool = True,
        setup: Sequence[Command[Any]] = (), track_network: bool = False,
    ) -> Page:
        """Attach to an existing page target (e.g. a popup the page opened); ``setup`` and
        ``track_network`` as for :meth:`new_page`."""
        session_id = await self.session.execute(
            target_domain.attach_to_target(target_id, flatten=True)
        )
        session = Session(self.connection, str(session_id), target_id)
        page = Page(self, session, context_id=context_id)
        try:
            await page._initialize(auto_attach=auto_attach, setup=setup, track_network=track_network)
        except BaseException:
            with trio.CancelScope(shield=True):
                await page.close()
            raise
        return page

    @asynccontextmanager
    async def page(self, url: str = "about:blank", *, isolated: bool = True) -> AsyncIterator[Page]:
        """A page (in its own context when ``isolated``) closed on exit."""
        if isolated:
            async with self.context() as ctx, ctx.page(url) as page:
                yield page
        else:
            page = await self.new_page(url)
            try:
                yield page
            finally:
                await page.close()

    async def targets(self) -> list[Any]:
        return list(await self.session.execute(target_domain.get_targets()))

    def start_task(self, fn: Any, *args: Any) -> None:
        """Run a helper task in the browser's nursery (it ends when the browser does)."""
        self._nursery.start_soon(fn, *args)

    async def start_service(self, fn: Any, *args: Any) -> Any:
        """Start a long-lived helper in the browser's nursery and wait until it reports ready
        (``task_status.started``); it ends when the browser does."""
        return await self._nursery.start(fn, *args)

    async def kill(self) -> None:
        """End a launched browser now (SIGKILL to its process group), for an owner that is
        stopping: a graceful close (``Browser.close``, then Chromium's shutdown on SIGTERM)
        took 0.3-1.8 s with 8 contexts open under load and saves nothing, the profile being
        temporary. The ``launch`` block's exit then finds it gone. A connected browser is
        not ours to kill: nothing happens."""
        if self.process is not None:
            await self.process.terminate(gently=False)

    async def close(self) -> None:
        """Ask the browser to close; the owning ``launch`` block kills it regardless."""
        if self.connection.is_open:
            with trio.CancelScope(shield=True), trio.move_on_after(2):
                try:
                    await self.session.execute(browser_domain.close())
                except CDPError:
                    pass


class BrowserContext:
    """An isolated browser context and the pages opened in it."""

    def __init__(self, browser: Browser, context_id: str) -> None:
        self.browser = browser
        self.id = context_id

    async def new_page(self, url: str = "about:blank", *, auto_attach: bool = True) -> Page:
        return await self.browser.new_page(url, context_id=self.id, auto_attach=auto_attach)

    @asynccontextmanager
    async def page(self, url: str = "about:blank") -> AsyncIterator[Page]:
        page = await self.new_page(url)
        try:
            yield page
        finally:
            await page.close()


async def _watch_process(process: BrowserProcess, connection: Connection) -> None:
    """When the process exits, fail everything pending at once (crash detection)."""
    await process.process.wait()
    connection._shutdown(BrowserClosed(process.exit_message()))


@asynccontextmanager
async def _browser_scope(
    open_transport: Callable[[trio.Nursery], Awaitable[Transport]],
    process: BrowserProcess | None,
    timeout: float,
) -> AsyncIterator[Browser]:
    """The lifetime of one connected browser: a nursery owning its connection's reader, the
    process watcher and every page's helper tasks, all ended (and the connection closed)
    when the block exits, on every path."""
    with single_exception():
        async with trio.open_nursery() as nursery:
            connection = Connection(await open_transport(nursery))
            await nursery.start(connection.run_reader)
            if process is not None:
                nursery.start_soon(_watch_process, process, connection)
            browser = Browser(connection, nursery, process)
            try:
                await _first_answer(browser, process, timeout)
                yield browser
                if process is not None:
                    await browser.close()
            finally:
                # A cancelled caller has cancelled the websocket's reader task with it: no
                # reply to a close frame could be read, so the socket is dropped instead.
                handshake = trio.current_effective_deadline() != -math.inf
                with trio.CancelScope(shield=True):
                    await connection.aclose(handshake=handshake)
                nursery.cancel_scope.cancel()


async def _first_answer(browser: Browser, process: BrowserProcess | None, timeout: float) -> None:
    """Read the version; no answer is a launch error naming the exit, if the process died."""
    try:
        await browser._read_version(timeout)
    except CDPError as exc:
        if process is not None:
            # A closed pipe or socket is usually the process ending: the end of the stream can
            # be read before the exit is, so give the exit a moment to arrive and be named.
            if isinstance(exc, BrowserClosed):
                with trio.move_on_after(2):
                    await process.process.wait()
            if process.process.poll() is not None:
                raise BrowserLaunchError(process.exit_message()) from exc
        raise BrowserLaunchError(f"browser did not answer: {exc}") from exc


@asynccontextmanager
async def launch(options: LaunchOptions | None = None, **overrides: Any) -> AsyncIterator[Browser]:
    """Start Chromium and yield a connected ``Browser``; the process dies on exit.

    ``launch(headless=False, pipe=False)`` is shorthand for passing LaunchOptions.
    """
    opts = options or LaunchOptions()
    for key, value in overrides.items():
        setattr(opts, key, value)
    process = await start_chromium(opts)

    async def open_transport(nursery: trio.Nursery) -> Transport:
        if opts.pipe:
            assert process.write_fd is not None and process.read_fd is not None
            pipe = PipeTransport(process.write_fd, process.read_fd)
            process.write_fd = process.read_fd = None  # the transport owns them now
            return pipe
        return await WebSocketTransport.connect(nursery, await process.wait_for_port(opts.timeout))

    try:
        async with _browser_scope(open_transport, process, opts.timeout) as browser:
            yield browser
    finally:
        await process.terminate()


async def resolve_websocket_url(url: str, timeout: float = 10.0) -> str:
    """``http://host:port`` → its browser websocket URL via ``/json/version``."""
    if url.startswith(("ws://", "wss://")):
        return url
    import httpx  # only needed for this path

    base = url.rstrip("/")
    async with httpx.AsyncClient(timeout=timeout) as client:
        response = await client.get(f"{base}/json/version")
        response.raise_for_status()
        return str(response.json()["webSocketDebuggerUrl"])


@asynccontextmanager
async def connect(url: str, *, timeout: float = 10.0) -> AsyncIterator[Browser]:
    """Attach to a running browser (``http://host:9222`` or a ``ws://`` URL)."""
    try:
        ws_url = await resolve_websocket_url(url, timeout)
    except Exception as exc:
        raise BrowserLaunchError(f"cannot reach a browser at {url}: {exc}") from exc

    async def open_transport(nursery: trio.Nursery) -> Transport:
        return await WebSocketTransport.connect(nursery, ws_url)

    async with _browser_scope(open_transport, None, timeout) as browser:
        yield browser
