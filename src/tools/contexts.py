"""The browser contexts of a server's clients: which call acts on which, how many, how long.

On stdio there is one client, so one context (the session's; ``DEFAULT_CONTEXT``) for the
server's life. Over Streamable HTTP many clients share the server's browser, each in a
browser context of its own, so none sees another's tabs, cookies, storage, routes,
recorders or downloads (each saves under ``<output>/contexts/<handle>/downloads``):

- a client with an MCP session (the 2025 protocol revisions) has one for its session;
- a client without one (2026-07-28 is stateless) holds a handle: ``browser_launch`` opens a
  context and returns it, and the client passes it as ``context`` to every call. A call that
  names none acts on the server's default context, which all such calls share: a lone
  agent needs no handle at all.

Every context is a task of the pool's nursery owning a nursery of its own (its tabs'
recorders). It ends when its client quits it (``browser_quit``), when its MCP session ends,
after ``context_idle_timeout`` seconds without a call, or with the server, and its tabs and
browser context close with it. A handle that ended or never was is an ``invalid_context``
error; a context beyond ``max_contexts``, an ``overloaded`` one. The calls of one context
run one at a time (its ``call_lock``); calls of different contexts run at once.
"""

from __future__ import annotations

import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import trio

from .browser_host import BrowserHost
from .errors import ToolError
from .server_config import ServerConfig
from .session import DEFAULT_CONTEXT, ToolSession

log = logging.getLogger("tools")
CONTEXTS_FOLDER = "contexts"
CLOSE_TIMEOUT = 5.0  # closing a context's tabs and disposing it
ENDED_KEPT = 1000  # ended handles remembered, so that using one says why it is gone


@dataclass(eq=False)
class _Context:
    handle: str
    client: str | None  # the MCP session it serves, if any
    session: ToolSession
    last_used: float
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)  # cancelled to end it
    busy: int = 0  # calls in flight or waiting for the session's lock
    activity: trio.Event = field(default_factory=trio.Event)

    def poke(self) -> None:
        """Wake the idle watch: a call began or ended."""
        self.activity.set()
        self.activity = trio.Event()


class ContextPool:
    """The contexts of one server; ``shared`` over HTTP (many clients), not on stdio."""

    def __init__(self, config: ServerConfig, nursery: trio.Nursery, *, shared: bool) -> None:
        self.config = config
        self.shared = shared
        self.host = BrowserHost(config, nursery)
        self._nursery = nursery
        self._contexts: dict[str, _Context] = {}
        self._clients: dict[str, str] = {}  # MCP session id -> handle
        self._ended: OrderedDict[str, str] = OrderedDict()  # handle -> why it ended
        self._opening = trio.Lock()
        self._closing = False

    @property
    def handles(self) -> list[str]:
        """The open contexts' handles."""
        return list(self._contexts)

    @asynccontextmanager
    async def use(self, *, client: str | None = None, handle: str | None = None,
                  opens: bool = False) -> AsyncIterator[ToolSession]:
        """The session a call acts on, held for the call (one call at a time per context).

        ``handle`` names a context (``context``); else a ``client`` (an MCP session id) has
        its own; else ``opens`` (``browser_launch`` over stateless HTTP) opens a new one; else
        the call acts on the default context. Raises ``invalid_context`` or ``overloaded``.
        """
        context = await self._find(client, handle, opens)
        context.busy += 1  # no checkpoint since it was found: the idle watch cannot end it first
        context.poke()
        try:
            async with context.session.call_lock:
                if context.session.ended:  # closed while this call waited for the one before
                    raise self._invalid(context.handle)
                yield context.session
        finally:
            context.busy -= 1
            context.last_used = trio.current_time()
            context.poke()

    def session_of(self, *, client: str | None = None,
                   handle: str | None = None) -> tuple[ToolSession | None, str]:
        """The session of an open context, found as :meth:`use` finds it but never opened nor
        held (``resources/read``), and its handle; None for a context that is not open or is
        another MCP session's."""
        if handle is None:
            handle = self._clients.get(client, "") if self.shared and client is not None else DEFAULT_CONTEXT
        context = self._contexts.get(handle)
        if context is None or (context.client is not None and context.client != client):
            return None, handle
        return context.session, handle

    def client_gone(self, client: str) -> None:
        """The MCP session ``client`` ended: its context closes now, not when idle."""
        handle = self._clients.get(client)
        if handle is not None and handle in self._contexts:
            self._end(self._contexts[handle], "its MCP session ended")

    async def aclose(self) -> None:
        """Open no more contexts and kill the browser (every context ends with it: none is
        closed by itself); the contexts' tasks end when the caller cancels the nursery."""
        self._closing = True
        await self.host.quit(at_once=True)

    # -- finding and opening --------------------------------------------------------------

    async def _find(self, client: str | None, handle: str | None, opens: bool) -> _Context:
        if handle is not None and handle != DEFAULT_CONTEXT:
            if handle not in self._contexts:
                raise self._invalid(handle)
            return self._contexts[handle]
        if self.shared and handle is None:
            if client is not None:
                return await self._open(self._clients.get(client), client)
            if opens:
                return await self._open(None)
        return await self._open(DEFAULT_CONTEXT)

    async def _open(self, handle: str | None, client: str | None = None) -> _Context:
        """The context ``handle`` (or ``client``'s), opened if it is not; a new one for None."""
        if handle is not None and handle in self._contexts:
            return self._contexts[handle]
        async with self._opening:
            if client is not None:
                handle = self._clients.get(client)
            if handle is not None and handle in self._contexts:
                return self._contexts[handle]
            if self._closing:
                raise ToolError("no_browser", "the server is shutting down")
            if self.shared and len(self._contexts) >= self.config.max_contexts:
                raise ToolError("overloaded", f"this server already serves {len(self._contexts)} browser contexts, "
                                "its limit (--max-contexts); retry later")
            context: _Context = await self._nursery.start(self._run, handle or secrets.token_hex(8), client)
            return context

    async def _run(self, handle: str, client: str | None, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """The context's task: it owns the context's nursery and closes the context when it ends."""
        async with trio.open_nursery() as nursery:
            files = self.config.output_dir.expanduser().resolve() / CONTEXTS_FOLDER / handle if self.shared else None
            session = ToolSession(self.config, nursery, self.host, shared=self.shared, handle=handle, files=files)
            context = _Context(handle, client, session, trio.current_time())
            session.on_quit = lambda: self._end(context, "browser_quit closed it")
            self._contexts[handle] = context
            if client is not None:
                self._clients[client] = handle
            log.info("browser context %s opened%s", handle, f" for MCP session {client}" if client else "")
            task_status.started(context)
            try:
                with context.scope:
                    await self._until_idle(context)
                    self._end(context, f"it was idle for {self.config.context_idle_timeout:g} s")
            finally:
                self._end(context, "the server stopped")
                with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
                    await session.close_context()
                nursery.cancel_scope.cancel()

    async def _until_idle(self, context: _Context) -> None:
        """Return once the context has had no call for the idle timeout (never on stdio)."""
        timeout = self.config.context_idle_timeout
        if not self.shared or timeout <= 0:
            await trio.sleep_forever()
        while True:
            activity = context.activity
            if context.busy:
                await activity.wait()
                continue
            deadline = context.last_used + timeout
            if trio.current_time() >= deadline:
                return
            with trio.move_on_at(deadline):
                await activity.wait()

    def _end(self, context: _Context, why: str) -> None:
        """Forget the context at once (its handle is invalid from now on) and end its task."""
        if self._contexts.get(context.handle) is context:
            del self._contexts[context.handle]
            if context.client is not None and self._clients.get(context.client) == context.handle:
                del self._clients[context.client]
            if context.handle != DEFAULT_CONTEXT:
                self._ended[context.handle] = why
                while len(self._ended) > ENDED_KEPT:
                    self._ended.popitem(last=False)
            log.info("browser context %s closed: %s", context.handle, why)
        context.session.ended = True
        context.scope.cancel()

    def _invalid(self, handle: str) -> ToolError:
        if not self.shared:
            return ToolError("invalid_context", f"no browser context {handle!r}: this server has one, "
                             f"{DEFAULT_CONTEXT!r}; leave context out")
        why = self._ended.get(handle)
        if why is not None:
            return ToolError("invalid_context", f"browser context {handle!r} is closed ({why}); "
                             "call browser_launch for a new one")
        return ToolError("invalid_context", f"no browser context {handle!r} on this server; "
                         "call browser_launch and pass the context it returns")
