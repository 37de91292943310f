"""Serving MCP over Streamable HTTP: whose call is this, when did a client leave, and a prompt stop.

Many clients share one server, each in a browser context of its own (:mod:`tools.contexts`).
In the 2025 protocol revisions a client is its MCP session: the SDK's transport numbers it
(``Mcp-Session-Id``) and the tool handler reads the number from the request it serves. The
2026-07-28 revision has no session, so a call there names its context (``context``) or acts
on the server's default one; only such a client is listed the ``context`` argument. A client
that ends its session (``DELETE``) has its context closed at once rather than when idle.

On SIGINT or SIGTERM the server stops accepting, ends the clients' standing GET streams at
once (they never end by themselves, so waiting for them only spends the grace), gives the
requests still open ``SHUTDOWN_GRACE`` seconds, then closes the browser.

Imported by :mod:`a11y.mcp_server` at start-up, so only the standard library at the top.
"""

from __future__ import annotations

import argparse
import logging
import signal
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import trio
    from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)

SESSION_HEADER = "mcp-session-id"
#: Seconds that open requests and streams get to finish once a stop is asked for.
SHUTDOWN_GRACE = 0.5
#: How long an idle keep-alive connection stays open. Hypercorn's default (5 s) equals the
#: idle expiry of httpx's pool (the MCP SDK's client): the two race, and a request sent on a
#: connection the server is closing is lost ("server disconnected without sending a
#: response"), which a busy machine makes likely. A server that waits longer than its clients
#: (httpx 5 s, Node 4-5 s, Go 90 s) lets the client close first, and an agent thinking for a
#: minute between calls keeps its connection.
KEEP_ALIVE_S = 120.0


def add_context_options(parser: argparse.ArgumentParser) -> None:
    """``a11y mcp``'s limits on the contexts of an HTTP server's clients (``tools.contexts``);
    unset, the ``ServerConfig`` defaults apply."""
    parser.add_argument("--max-contexts", type=_at_least_one, default=None, metavar="N",
                        help="with --http: browser contexts (one per client) open at once; "
                             "past it a new one is refused as overloaded (default 16)")
    parser.add_argument("--context-idle-timeout", type=_positive_seconds, default=None, metavar="SECONDS",
                        help="with --http: close a client's browser context after this long "
                             "without a call (default 600)")


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return value


def client_of(ctx: Any) -> str | None:
    """The MCP session a request belongs to; None without one (stdio, 2026-07-28 HTTP).

    Only a handshake-era request has a session: the SDK checks its ``Mcp-Session-Id`` there
    (an unknown one is a 404), and ignores the header in a 2026-07-28 request, so that one's
    header names nothing and is not read."""
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    headers = getattr(getattr(ctx, "request", None), "headers", None)
    if headers is None or getattr(ctx, "protocol_version", None) in MODERN_PROTOCOL_VERSIONS:
        return None
    return headers.get(SESSION_HEADER)


def lists_context_argument(ctx: Any) -> bool:
    """True for an HTTP request without an MCP session: its client names contexts itself."""
    return getattr(ctx, "request", None) is not None and client_of(ctx) is None


def ends_sessions(app: ASGIApp, client_gone: Callable[[str], None]) -> ASGIApp:
    """``app``, telling ``client_gone`` of every MCP session a client ends (``DELETE``)."""

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        await app(scope, receive, send)
        if scope["type"] == "http" and scope["method"] == "DELETE":
            session = dict(scope["headers"]).get(SESSION_HEADER.encode())
            if session:
                client_gone(session.decode("latin-1"))

    return serve


class StandingStreams:
    """``app``, running every GET in a cancel scope that :meth:`end` cancels.

    A GET is a client's standing SSE stream (server-to-client messages), which lasts as long
    as its client: left open at a stop it would hold the server for the whole grace. Ended,
    the client sees its stream close; one it opens after that ends at once."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app
        self._open: set[trio.CancelScope] = set()
        self._ended = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self._app(scope, receive, send)
            return
        import trio

        with trio.CancelScope() as stream:
            if self._ended:
                stream.cancel()
            self._open.add(stream)
            try:
                await self._app(scope, receive, send)
            finally:
                self._open.discard(stream)

    def end(self) -> None:
        """End the open streams and any opened from now on."""
        self._ended = True
        for stream in self._open:
            stream.cancel()


async def serve_http(app: ASGIApp, host: str, port: int, *,
                     shutdown: Callable[[], Any] | None = None,
                     task_status: trio.TaskStatus[list[str]] | Any = None) -> None:
    """Serve ``app`` on ``host:port`` until ``shutdown`` returns (by default: SIGINT or SIGTERM).

    Port 0 takes any free port; the address actually bound is logged and handed to
    ``task_status``."""
    import trio
    from hypercorn.config import Config
    from hypercorn.trio import serve

    config = Config()
    config.bind = [f"{host}:{port}"]
    config.accesslog = None
    config.graceful_timeout = SHUTDOWN_GRACE
    config.keep_alive_timeout = KEEP_ALIVE_S
    streams = StandingStreams(app)

    async def stopping() -> None:
        await (shutdown or _signalled)()
        streams.end()

    async with trio.open_nursery() as nursery:
        binds: list[str] = await nursery.start(partial(
            serve, streams, config, shutdown_trigger=stopping))  # type: ignore[arg-type]
        log.info("MCP Streamable HTTP on %s", ", ".join(f"{bind}/mcp" for bind in binds))
        (task_status or trio.TASK_STATUS_IGNORED).started(binds)


async def _signalled() -> None:
    """Return at the first SIGINT or SIGTERM."""
    import trio

    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for number in signals:
            log.info("%s: stopping", signal.Signals(number).name)
            return
