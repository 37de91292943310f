"""``python -m a11y mcp``: the MCP tool server over stdio (default) or Streamable HTTP.

Every tool call goes through ``tools.registry.call``; this module only adapts
the registry to the MCP SDK. Nothing here writes to stdout: on stdio, stdout
is the protocol stream.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
import trio
from mcp.server.lowlevel import Server

from tools import catalog as tool_catalog
from tools.registry import call, catalog
from tools.session import ServerConfig, ToolSession

from . import __version__

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "Browser automation and accessibility testing over Chrome DevTools. Tools are named "
    "namespace_verb_target. Element tools take a CSS selector (or one semantic locator such as "
    "role+name, text, label); call page_inspect for a map of the page with usable selectors."
)


def _split(value: str | None) -> set[str] | None:
    return {v.strip() for v in value.split(",") if v.strip()} if value else None


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    scripts = [Path(p).read_text(encoding="utf-8") for p in args.init_script]
    return ServerConfig(
        headless=args.headless,
        output_dir=Path(args.output_dir),
        project=args.project,
        browser_url=args.browser_url,
        default_timeout_ms=args.timeout,
        init_scripts=scripts,
        namespaces=_split(args.namespaces),
        tools=_split(args.tools),
    )


def build_server(config: ServerConfig) -> Server[ToolSession]:
    """An MCP server whose lifespan owns one ToolSession (and so one browser)."""
    exposed = tool_catalog.selected(config.namespaces, config.tools)
    listing = [
        types.Tool(name=t.name, description=t.description, input_schema=t.input_schema,
                   output_schema=t.output_schema)
        for t in exposed
    ]

    @asynccontextmanager
    async def lifespan(_: Server[ToolSession]) -> AsyncIterator[ToolSession]:
        async with trio.open_nursery() as nursery:
            session = ToolSession(config, nursery)
            try:
                yield session
            finally:
                with trio.CancelScope(shield=True):
                    await session.quit()
                nursery.cancel_scope.cancel()

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listing)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        session: ToolSession = ctx.lifespan_context
        async with session.call_lock:
            outcome = await call(session, params.name, params.arguments)
        text = json.dumps(outcome.data, ensure_ascii=False, separators=(",", ":"))
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=outcome.data if outcome.ok else None,
            is_error=not outcome.ok,
        )

    return Server(
        "a11y",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def _serve_stdio(server: Server[ToolSession]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


async def _serve_http(server: Server[ToolSession], host: str, port: int) -> None:
    from hypercorn.config import Config
    from hypercorn.trio import serve

    app = server.streamable_http_app(host=host)
    config = Config()
    config.bind = [f"{host}:{port}"]
    config.accesslog = None
    log.info("MCP Streamable HTTP on http://%s:%d/mcp", host, port)
    await serve(app, config)


def run(args: argparse.Namespace) -> int:
    if args.list_tools:
        config = config_from_args(args)
        data = catalog(tool_catalog.selected(config.namespaces, config.tools))
        sys.stdout.write(json.dumps(data, indent=2) + "\n")  # stdout-ok: --list-tools is not the MCP stream
        return 0
    config = config_from_args(args)
    server = build_server(config)
    try:
        if args.http:
            trio.run(_serve_http, server, args.host, args.port)
        else:
            trio.run(_serve_stdio, server)
    except KeyboardInterrupt:
        pass
    return 0
