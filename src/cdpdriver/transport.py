"""Byte transports to the browser: a websocket or the debugging pipe.

Both carry one JSON message per frame. The connection above only needs
``send`` and ``receive``; ``receive`` raises ``ConnectionClosed`` at EOF so a
reader loop can never spin on an empty read.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Protocol

import trio

from .errors import BrowserClosed, ConnectionClosed

if TYPE_CHECKING:  # imported when a websocket is opened: a pipe (a launched browser) never needs
    import trio_websocket  # it, and importing it (wsproto, h11) is a third of a cold start's imports

# Screenshots of large pages, PDFs and trace chunks exceed trio-websocket's
# 1 MiB default by far; a too-big frame would close the socket for everyone.
MAX_MESSAGE_BYTES = 512 * 1024 * 1024


class Transport(Protocol):
    async def send(self, message: str) -> None: ...

    async def receive(self) -> str | bytes: ...

    async def aclose(self, *, handshake: bool = True) -> None: ...


class WebSocketTransport:
    """CDP over the browser's websocket endpoint."""

    def __init__(self, ws: trio_websocket.WebSocketConnection) -> None:
        self._ws = ws

    @classmethod
    async def connect(cls, nursery: trio.Nursery, url: str) -> WebSocketTransport:
        import trio_websocket

        ws = await trio_websocket.connect_websocket_url(
            nursery,
            url,
            max_message_size=MAX_MESSAGE_BYTES,
            message_queue_size=1024,
        )
        return cls(ws)

    async def send(self, message: str) -> None:
        import trio_websocket  # imported by connect already: a dictionary look-up

        try:
            await self._ws.send_message(message)
        except trio_websocket.ConnectionClosed as exc:
            raise BrowserClosed(f"websocket closed: {exc.reason}") from None

    async def receive(self) -> str | bytes:
        import trio_websocket

        try:
            return await self._ws.get_message()
        except trio_websocket.ConnectionClosed as exc:
            raise BrowserClosed(f"websocket closed: {exc.reason}") from None

    async def aclose(self, *, handshake: bool = True) -> None:
        """Close politely (a close frame, then the peer's answer) or, without
        ``handshake``, drop the socket: trio-websocket closes its stream when its close is
        cancelled, and the scope here is cancelled before the close begins."""
        with trio.CancelScope() as scope:
            if not handshake:
                scope.cancel()
            await self._ws.aclose()


class PipeTransport:
    """CDP over ``--remote-debugging-pipe``: NUL-terminated JSON on fds 3 and 4.

    Needs no port (no other local user can attach) and has no frame limit.
    """

    _CHUNK = 1 << 20

    def __init__(self, write_fd: int, read_fd: int) -> None:
        self._out = trio.lowlevel.FdStream(write_fd)
        self._in = trio.lowlevel.FdStream(read_fd)
        self._send_lock = trio.Lock()
        self._buffer = bytearray()
        self._messages: deque[bytes] = deque()

    async def send(self, message: str) -> None:
        data = message.encode() + b"\0"
        async with self._send_lock:
            try:
                await self._out.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                raise BrowserClosed(f"debugging pipe closed: {exc}") from None

    async def receive(self) -> bytes:
        while not self._messages:
            try:
                chunk = await self._in.receive_some(self._CHUNK)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                raise BrowserClosed(f"debugging pipe closed: {exc}") from None
            if not chunk:
                raise BrowserClosed("browser closed the debugging pipe")
            self._split(chunk)
        return self._messages.popleft()

    def _split(self, chunk: bytes) -> None:
        """Append ``chunk``; every complete NUL-terminated message moves to the queue."""
        start = 0
        while (end := chunk.find(b"\0", start)) != -1:
            if self._buffer:
                self._buffer += chunk[start:end]
                self._messages.append(bytes(self._buffer))
                self._buffer.clear()
            else:
                self._messages.append(chunk[start:end])
            start = end + 1
        self._buffer += chunk[start:]

    async def aclose(self, *, handshake: bool = True) -> None:
        for stream in (self._out, self._in):
            try:
                await stream.aclose()
            except (OSError, trio.ClosedResourceError):
                pass


__all__ = ["MAX_MESSAGE_BYTES", "ConnectionClosed", "PipeTransport", "Transport", "WebSocketTransport"]
