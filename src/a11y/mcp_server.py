"""``python -m a11y mcp``: the MCP tool server over stdio (default) or Streamable HTTP.

Every tool call goes through ``tools.registry.call``; this module only adapts
the registry to the MCP SDK. Nothing here writes to stdout: on stdio, stdout
is the protocol stream.

Start-up is on the agent's clock, so nothing is imported or built before it is
needed: ``--list-tools`` never imports the SDK, and neither it nor ``tools/list``
imports the registry or builds a schema (both read ``tools/tool_list.json``); a
stdio server answers the opening of the conversation while the SDK, and then the
tools, load on a worker thread (:mod:`a11y.mcp_early`); the browser starts on the
first tool that needs it.

Over stdio the server has one client and so one browser context. Over Streamable HTTP it
serves many at once, each in a browser context of its own in the one browser
(:mod:`tools.contexts`, :mod:`a11y.mcp_http`): the instructions say how a client without an
MCP session names its context, and the tools listed to such a client take ``context``.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tools import catalog as tool_catalog
from tools.server_config import ServerConfig

from . import __version__, mcp_files, mcp_guard
from .mcp_early import INSTRUCTIONS
from .mcp_http import client_of, lists_context_argument
from .result_budget import dumps, reads_structured, text_for

if TYPE_CHECKING:
    import threading

    import mcp_types as types
    import trio
    from mcp.server.lowlevel import Server
    from starlette.types import ASGIApp

    from tools.contexts import ContextPool
    from tools.guard.policy import GuardConfig
    from tools.registry import Outcome
    from tools.session import ProgressSink

    from .mcp_early import Handshake, ServerFacts, StdioWire

log = logging.getLogger(__name__)
_T = TypeVar("_T")


# Added for a Streamable HTTP server, which serves many clients at once (tools.contexts).
HTTP_INSTRUCTIONS = """
- Clients of this server each work in a browser context of their own (tabs, cookies, storage, \
routes, recordings, downloads); with an MCP session you have one. Without one (protocol 2026-07-28), \
browser_launch opens one and returns its handle: pass it as context to every call (calls without \
context share the server's default context). browser_quit closes your context only. A context idle \
for {idle:g} s closes (then invalid_context); past {limit} contexts a new one is overloaded."""

# Tools that open a context of their own when called over stateless HTTP without one.
OPENS_CONTEXT = frozenset({"browser_launch"})


def _split(value: str | None) -> set[str] | None:
    return {v.strip() for v in value.split(",") if v.strip()} if value else None


def _exposed(args: argparse.Namespace) -> tuple[set[str] | None, set[str] | None]:
    return tool_catalog.selection(_split(args.profile), _split(args.namespaces), _split(args.tools))


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    scripts = [Path(p).read_text(encoding="utf-8") for p in args.init_script]
    namespaces, tools = _exposed(args)
    return ServerConfig(
        headless=args.headless,
        output_dir=Path(args.output_dir),
        project=args.project,
        browser_url=args.browser_url,
        default_timeout_ms=args.timeout,
        init_scripts=scripts,
        namespaces=namespaces,
        tools=tools,
        guard=mcp_guard.guard_from_args(args),
        **({"max_result_chars": args.max_result_size} if args.max_result_size else {}),
        structured_only=getattr(args, "structured_only", False),
        **_context_limits(args),
    )


def _context_limits(args: argparse.Namespace) -> dict[str, Any]:
    """``--max-contexts`` and ``--context-idle-timeout`` (HTTP), when the command line has them."""
    limits = {"max_contexts": getattr(args, "max_contexts", None),
              "context_idle_timeout": getattr(args, "context_idle_timeout", None)}
    return {key: value for key, value in limits.items() if value is not None}


class _LazyContexts:
    """The server's browser contexts (a :class:`tools.contexts.ContextPool`), made on the first
    tool call: the handshake and ``tools/list`` then never import the registry, the session or
    the driver. A stdio server loads them in the background once the SDK is in
    (``tools_loaded``), so an agent that thinks before its first call does not wait for them."""

    def __init__(self, config: ServerConfig, shared: bool, tools_loaded: trio.Event | None) -> None:
        self._config = config
        self._shared = shared
        self._tools_loaded = tools_loaded
        self._nursery: trio.Nursery | None = None
        self.pool: ContextPool | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[_LazyContexts]:
        """For the server's lifespan: it owns the nursery of the browser and every context, and
        closes the browser when it ends."""
        import trio

        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            try:
                yield self
            finally:
                if self.pool is not None:
                    with trio.CancelScope(shield=True):
                        await self.pool.aclose()
                nursery.cancel_scope.cancel()

    async def get(self) -> ContextPool:
        if self.pool is None:
            if self._tools_loaded is not None:
                await self._tools_loaded.wait()  # never import them on two threads at once
            from tools.contexts import ContextPool

            if self._nursery is None:
                raise RuntimeError("the server is not running")
            tool_catalog.load()
            self.pool = ContextPool(self._config, self._nursery, shared=self._shared)
        return self.pool

    def client_gone(self, client: str) -> None:
        """An MCP session ended (Streamable HTTP): its browser context closes."""
        if self.pool is not None:
            self.pool.client_gone(client)


def build_server(config: ServerConfig, tools_loaded: trio.Event | None = None) -> Server[_LazyContexts]:
    """An MCP server with one client, so one browser context (stdio, in-process)."""
    return _build(config, tools_loaded, shared=False)[0]


def build_http_app(config: ServerConfig, host: str) -> ASGIApp:
    """The Streamable HTTP app: many clients, each in a browser context of its own."""
    from .mcp_http import ends_sessions

    server, contexts = _build(config, None, shared=True)
    return ends_sessions(server.streamable_http_app(host=host), contexts.client_gone)


def _build(config: ServerConfig, tools_loaded: trio.Event | None, *,
           shared: bool) -> tuple[Server[_LazyContexts], _LazyContexts]:
    """An MCP server whose lifespan owns the browser and its clients' contexts."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from . import mcp_tasks

    def tool_entry(t: tool_catalog.Listed, with_context: bool) -> types.Tool:
        from tools.schema import with_context as plus_context

        schema = plus_context(t.input_schema) if with_context else t.input_schema
        return types.Tool(name=t.name, description=t.description, input_schema=schema, output_schema=t.output_schema,
                          annotations=types.ToolAnnotations.model_validate(t.annotations))

    @cache
    def listing(with_context: bool) -> list[types.Tool]:
        return [tool_entry(t, with_context) for t in tool_catalog.listed(config.namespaces, config.tools)]

    contexts = _LazyContexts(config, shared, tools_loaded)
    tasks = mcp_tasks.Tasks()

    @asynccontextmanager
    async def lifespan(_: Server[_LazyContexts]) -> AsyncIterator[_LazyContexts]:
        with mcp_guard.redacting_logs(config.guard):
            async with contexts.running(), tasks.running():
                yield contexts

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listing(shared and lists_context_argument(ctx)))

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult | dict[str, Any]:
        """A long tool (its declaration says so) runs as a task for a client that declared the
        tasks extension, and reports progress when asked (:mod:`a11y.mcp_tasks`); not under
        ``--confirm-actions``, whose questions come in answer to the call itself."""
        from tools.registry import REGISTRY

        pool = await ctx.lifespan_context.get()
        spec = REGISTRY.get(params.name)
        asks_first = config.guard is not None and config.guard.confirm_actions
        if spec is not None and spec.long and not asks_first and mcp_tasks.declared(ctx):
            return tasks.start(client_of(ctx), lambda progress: run_call(ctx, params, pool, progress))
        return await run_call(ctx, params, pool, mcp_tasks.progress_sender(ctx) if spec and spec.long else None)

    async def run_call(ctx: Any, params: types.CallToolRequestParams, pool: ContextPool,
                       progress: ProgressSink | None) -> types.CallToolResult:
        """One tool call in its client's context; the files it wrote are linked after its result
        (:mod:`a11y.mcp_files`)."""
        from tools.errors import ToolError
        from tools.registry import Outcome, call
        from tools.schema import CONTEXT_ARGUMENT

        args = dict(params.arguments or {})
        handle = args.pop(CONTEXT_ARGUMENT, None)
        files: list[Path] = []
        try:
            if handle is not None and not isinstance(handle, str):
                raise ToolError("invalid_arguments", "context: give the handle browser_launch returned, a string")
            async with pool.use(client=client_of(ctx), handle=handle, opens=params.name in OPENS_CONTEXT) as session:
                session.call_files, session.progress, handle = files, progress, session.handle
                try:
                    if config.guard is None:
                        outcome = await call(session, params.name, args)
                    else:  # the guard rails: a11y.mcp_guard
                        args = mcp_guard.strip_markers(args, config.guard)
                        guarded = await mcp_guard.guarded_call(session, ctx, params, params.name, args, config.guard)
                        if not isinstance(guarded, Outcome):
                            return guarded  # type: ignore[return-value]  # input_required: questions first
                        outcome = guarded
                finally:
                    session.call_files = session.progress = None
        except ToolError as error:  # no such context, or no room for another
            outcome = Outcome(params.name, False, error.body(), 0.0, args)
        result = _result(outcome, config.max_result_chars, config.guard,
                         structured_only=reads_structured(ctx, config.structured_only))
        if files:
            result.content.extend(mcp_files.links(pool, handle, files))
        return result

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return mcp_files.listing(await ctx.lifespan_context.get(), client_of(ctx))

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        result = mcp_files.read(await ctx.lifespan_context.get(), client_of(ctx), str(params.uri))
        return mcp_guard.redacted_resource(result, config.guard)  # a HAR or a report is a result too

    instructions = INSTRUCTIONS + mcp_guard.instructions(config.guard)
    if shared:
        instructions += HTTP_INSTRUCTIONS.format(idle=config.context_idle_timeout, limit=config.max_contexts)
    server = Server(
        "a11y",
        version=__version__,
        instructions=instructions,
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )
    tasks.serve(server)
    return server, contexts


def _result(outcome: Outcome, max_chars: int, guard: GuardConfig | None = None, *,
            structured_only: bool = False) -> types.CallToolResult:
    """The data as structured content, within the result budget, and as text (the JSON when
    small, a note and a preview when large; one line pointing at the structured content for a
    client that reads it, ``structured_only``: :mod:`a11y.result_budget`); pictures as image
    blocks after it. An error has no structured content, so its text is the JSON."""
    import mcp_types as types

    data, original_size = mcp_guard.shaped_data(outcome.data, outcome.tool, guard, max_chars)
    text = dumps(data)
    images = [types.ImageContent(type="image", data=image.base64(), mime_type=image.mime_type)
              for image in outcome.images]
    meta = None if original_size is None else {"a11y/truncated": True, "a11y/originalChars": original_size}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text_for(data, text, original_size,
                                                              structured_only=structured_only and outcome.ok)),
                 *images],
        structured_content=data if outcome.ok else None,
        is_error=not outcome.ok,
        _meta=meta,
    )


def server_facts(config: ServerConfig) -> ServerFacts:
    """What the stdio server answers before the SDK is in, for this configuration."""
    from .mcp_early import ServerFacts

    return ServerFacts("a11y", __version__, INSTRUCTIONS + mcp_guard.instructions(config.guard),
                       lambda: listing_entries(config))


def listing_entries(config: ServerConfig) -> list[dict[str, Any]]:
    """The tools/list entries this configuration exposes, read from ``tools/tool_list.json``."""
    return [t.entry() for t in tool_catalog.listed(config.namespaces, config.tools)]


def carry_on_stdio(config: ServerConfig, stdio: StdioWire, replay: list[str], handshake: Handshake,
                   tools_ready: threading.Event) -> int:
    """Hand the conversation :mod:`a11y.mcp_stdio` opened to the SDK, on this (the main)
    thread, and serve until stdin ends; the exit status."""
    import trio

    try:
        trio.run(_serve_stdio, config, stdio, replay, handshake, tools_ready)
    except KeyboardInterrupt:
        pass
    finally:
        _exiting()
    return 0


async def _serve_stdio(config: ServerConfig, stdio: StdioWire, replay: list[str], handshake: Handshake,
                       tools_ready: threading.Event) -> None:
    """The SDK's stdio transport reads the replayed opening, then the rest of stdin; its reply
    to a replayed request answered early is dropped (:mod:`a11y.mcp_handover`)."""
    import trio
    from mcp.server.stdio import stdio_server

    from .mcp_handover import Inbox, Wire

    inbox, wire = Inbox(stdio.inbound), Wire(stdio.outbound)
    inbox.replay_first(replay)
    if handshake.opening_id is not None:
        wire.drop_reply(handshake.opening_id, handshake.opening_result)
    tools_loaded = trio.Event()

    async def when_tools_loaded() -> None:  # the worker thread sets tools_ready on every path
        await trio.to_thread.run_sync(tools_ready.wait, abandon_on_cancel=True)
        tools_loaded.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(inbox.read_all)
        nursery.start_soon(when_tools_loaded)
        server = _quietly(build_server, config, tools_loaded)
        async with stdio_server(stdin=inbox, stdout=wire) as (read, write):  # type: ignore[arg-type]
            await server.run(read, write, server.create_initialization_options())
        nursery.cancel_scope.cancel()


def _quietly(build: Callable[..., _T], *args: Any) -> _T:
    """Run an import-heavy step with the cyclic garbage collector off, then freeze what it
    made: creating the SDK's hundreds of pydantic models sets off a collection every few
    hundred objects, each one scanning everything made so far (about a tenth of the
    start-up), and frozen objects are never scanned again, so later collections, during
    tool calls, are shorter too."""
    gc.disable()
    try:
        return build(*args)
    finally:
        gc.freeze()
        gc.enable()


def import_sdk() -> None:
    """Import the SDK's stdio server only (:mod:`a11y.mcp_sdk`), and Trio with the handover;
    runs on the worker thread (:mod:`a11y.mcp_stdio`) while the handshake is answered."""
    from .mcp_sdk import import_stdio_server

    _quietly(import_stdio_server)
    from . import mcp_handover  # noqa: F401  # imports Trio


def load_tools() -> None:
    """Declare the tools and import the session and registry, on a worker thread after the SDK
    import. A failure here is left for the first tool call to meet and report."""
    try:
        _quietly(_import_tools)
    except Exception:
        log.debug("loading the tools in the background failed", exc_info=True)


def _import_tools() -> None:
    import tools.session  # noqa: F401

    tool_catalog.load()  # imports the registry and every namespace


def configure(args: argparse.Namespace) -> ServerConfig | int:
    """The server's configuration from the command line, or the exit status after one line on
    stderr saying what is wrong (an unknown profile, a bad guard-rail flag: no traceback)."""
    try:
        return config_from_args(args)
    except ValueError as exc:
        sys.stderr.write(f"a11y mcp: {exc}\n")
        return 2


def run(args: argparse.Namespace) -> int:
    if args.list_tools:
        try:
            exposed = _exposed(args)
        except ValueError as exc:  # an unknown profile: one line, not a traceback
            sys.stderr.write(f"a11y mcp: {exc}\n")
            return 2
        data = tool_catalog.catalog(tool_catalog.listed(*exposed))
        sys.stdout.write(json.dumps(data, indent=2) + "\n")  # stdout-ok: --list-tools is not the MCP stream
        return 0
    config = configure(args)
    if isinstance(config, int):
        return config
    if not args.http:
        from .mcp_stdio import Loader, serve

        return serve(Loader(lambda: config), INSTRUCTIONS + mcp_guard.instructions(config.guard))
    import trio

    try:
        from .mcp_http import serve_http

        trio.run(serve_http, _quietly(build_http_app, config, args.host), args.host, args.port)
    except KeyboardInterrupt:
        pass
    finally:
        _exiting()
    return 0


def _exiting() -> None:
    """The server has stopped and the process is about to end: freeze every object, so the
    interpreter's last garbage collection at exit scans none of them. Made over the server's
    life (the SDK, the tools, the calls' results), they took it 0.7-0.9 s to scan at a load
    average of 11, most of an HTTP server's stop; the memory goes back with the process."""
    gc.freeze()
