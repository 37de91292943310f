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

from . import __version__
from .result_budget import dumps, fit, text_for

if TYPE_CHECKING:
    import mcp_types as types
    import trio
    from mcp.server.lowlevel import Server

    from tools.registry import Outcome
    from tools.session import ToolSession

    from .mcp_early import ServerFacts

log = logging.getLogger(__name__)
_T = TypeVar("_T")

# Sent once per session: what every tool shares, so no tool description has to repeat it.
INSTRUCTIONS = """\
Browser automation and accessibility testing over Chrome DevTools. Tools are named \
namespace_verb_target; the browser starts headless on first use.
- Tools act on the current tab (tab_select, page_new); element, js and wait tools on its \
current frame (frame_select). storage_local_* and storage_session_* act on the current page's origin.
- Elements: give selector (CSS; 'a >>> b' finds b in the shadow root or same-origin iframe of a) or \
exactly one of role (with optional name: accessible name), text, label, placeholder, testid, alt, title, \
xpath. page_inspect lists the page's controls with selectors. Element tools wait up to timeout_ms \
for the element to be ready (visible, stable, enabled as the action needs).
- References: accessibility_snapshot and page_inspect give controls a ref (e12), usable wherever a \
selector is, until the element leaves the page or the tab navigates (then stale_reference: snapshot \
again). Their max_chars bounds the result; a truncated one gives next_offset to pass as offset.
- Downloads are saved under the output directory; element_click and page_navigate list them.
- Units: times and timeout_ms in milliseconds, x/y and sizes in CSS pixels of the viewport, \
bytes for data. A limit or max_* of 0 means no limit.
- Keys: names such as Enter, Tab, ArrowDown, a, F5, combos joined with + (Control+Shift+K).
- URL patterns: a glob over the whole URL (* wildcards), /regex/flags, or else a substring.
- path arguments are files inside the server's output directory.
- test_assert_* and test_verify_* wait up to timeout_ms; a failed check is passed: false \
(recorded for test_get_report), not an error.
- Images (screenshots) come as image content; a failure is a result with isError and \
{error: {code, message}}."""


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
        **({"max_result_chars": args.max_result_size} if args.max_result_size else {}),
    )


class _LazySession:
    """The server's one ToolSession, made on the first tool call: the handshake and
    ``tools/list`` then never import the registry, the session or the driver. A stdio
    server loads them in the background once the SDK is in (``tools_loaded``), so an agent
    that thinks before its first call does not wait for them."""

    def __init__(self, config: ServerConfig, nursery: trio.Nursery, tools_loaded: trio.Event | None) -> None:
        self._config = config
        self._nursery = nursery
        self._tools_loaded = tools_loaded
        self.session: ToolSession | None = None

    async def get(self) -> ToolSession:
        if self.session is None:
            if self._tools_loaded is not None:
                await self._tools_loaded.wait()  # never import them on two threads at once
            from tools.session import ToolSession

            tool_catalog.load()
            self.session = ToolSession(self._config, self._nursery)
        return self.session


def build_server(config: ServerConfig, tools_loaded: trio.Event | None = None) -> Server[_LazySession]:
    """An MCP server whose lifespan owns one ToolSession (and so one browser)."""
    import mcp_types as types
    import trio
    from mcp.server.lowlevel import Server

    @cache
    def listing() -> list[types.Tool]:
        return [
            types.Tool(name=t.name, description=t.description, input_schema=t.input_schema,
                       output_schema=t.output_schema)
            for t in tool_catalog.listed(config.namespaces, config.tools)
        ]

    @asynccontextmanager
    async def lifespan(_: Server[_LazySession]) -> AsyncIterator[_LazySession]:
        async with trio.open_nursery() as nursery:
            sessions = _LazySession(config, nursery, tools_loaded)
            try:
                yield sessions
            finally:
                if sessions.session is not None:
                    with trio.CancelScope(shield=True):
                        await sessions.session.quit()
                nursery.cancel_scope.cancel()

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listing())

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        from tools.registry import call

        session = await ctx.lifespan_context.get()
        async with session.call_lock:
            outcome = await call(session, params.name, params.arguments)
        return _result(outcome, config.max_result_chars)

    return Server(
        "a11y",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _result(outcome: Outcome, max_chars: int) -> types.CallToolResult:
    """The data as structured content, within the result budget, and as text (the JSON when
    small, a note and a preview when large: :mod:`a11y.result_budget`); pictures as image
    blocks after it."""
    import mcp_types as types

    data, original_size = fit(outcome.data, max_chars)
    text = dumps(data)
    images = [types.ImageContent(type="image", data=image.base64(), mime_type=image.mime_type)
              for image in outcome.images]
    meta = None if original_size is None else {"a11y/truncated": True, "a11y/originalChars": original_size}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text_for(data, text, original_size)), *images],
        structured_content=data if outcome.ok else None,
        is_error=not outcome.ok,
        _meta=meta,
    )


def server_facts(config: ServerConfig) -> ServerFacts:
    """What the stdio server answers before the SDK is in, for this configuration."""
    from .mcp_early import ServerFacts

    return ServerFacts("a11y", __version__, INSTRUCTIONS,
                       lambda: [t.entry() for t in tool_catalog.listed(config.namespaces, config.tools)])


async def _serve_stdio(config: ServerConfig) -> None:
    """Serve on stdin and stdout, answering the handshake while the SDK imports
    (:mod:`a11y.mcp_early`): the SDK takes over at the first message that needs it."""
    import trio

    from .mcp_early import Inbox, StdioWire, Wire, answer_handshake

    facts = server_facts(config)
    stdio = StdioWire.claim()
    try:
        inbox, wire = Inbox(stdio.inbound), Wire(stdio.outbound)
        async with trio.open_nursery() as nursery:
            sdk_imported, tools_loaded = trio.Event(), trio.Event()

            async def load_in_background() -> None:
                await trio.to_thread.run_sync(_import_sdk, abandon_on_cancel=True)
                sdk_imported.set()
                await trio.to_thread.run_sync(_load_tools, abandon_on_cancel=True)
                tools_loaded.set()

            nursery.start_soon(inbox.read_all)
            nursery.start_soon(load_in_background)
            if await answer_handshake(inbox, wire, facts):
                await sdk_imported.wait()
                from mcp.server.stdio import stdio_server

                server = _quietly(build_server, config, tools_loaded)
                async with stdio_server(stdin=inbox, stdout=wire) as (read, write):  # type: ignore[arg-type]
                    await server.run(read, write, server.create_initialization_options())
            nursery.cancel_scope.cancel()
    finally:
        stdio.restore()


async def _serve_http(server: Server[_LazySession], host: str, port: int) -> None:
    from hypercorn.config import Config
    from hypercorn.trio import serve

    app = server.streamable_http_app(host=host)
    config = Config()
    config.bind = [f"{host}:{port}"]
    config.accesslog = None
    log.info("MCP Streamable HTTP on http://%s:%d/mcp", host, port)
    await serve(app, config)


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


def _import_sdk() -> None:
    """Import the SDK's stdio server only (:mod:`a11y.mcp_sdk`); runs on a worker thread
    while the handshake is answered."""
    from .mcp_sdk import import_stdio_server

    _quietly(import_stdio_server)


def _load_tools() -> None:
    """Declare the tools and import the session and registry, on a worker thread after the SDK
    import. A failure here is left for the first tool call to meet and report."""
    try:
        _quietly(_import_tools)
    except Exception:
        log.debug("loading the tools in the background failed", exc_info=True)


def _import_tools() -> None:
    import tools.session  # noqa: F401

    tool_catalog.load()  # imports the registry and every namespace


def run(args: argparse.Namespace) -> int:
    try:
        exposed = _exposed(args)
    except ValueError as exc:  # an unknown profile: one line, not a traceback
        sys.stderr.write(f"a11y mcp: {exc}\n")
        return 2
    if args.list_tools:
        data = tool_catalog.catalog(tool_catalog.listed(*exposed))
        sys.stdout.write(json.dumps(data, indent=2) + "\n")  # stdout-ok: --list-tools is not the MCP stream
        return 0
    config = config_from_args(args)
    import trio

    try:
        if args.http:
            trio.run(_serve_http, _quietly(build_server, config), args.host, args.port)
        else:
            trio.run(_serve_stdio, config)
    except KeyboardInterrupt:
        pass
    return 0
