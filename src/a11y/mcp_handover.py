"""The stdio conversation after the opening, on Trio: the SDK's stdio transport reads the
replayed opening and then the rest of stdin (:class:`Inbox`), and writes through :class:`Wire`.

:mod:`a11y.mcp_early` answers the opening on the main thread before Trio or the SDK is
imported; this module takes over where it stopped, in the same process, on the same buffered
reader and writer.
"""

from __future__ import annotations

import logging
from typing import IO, Any

import trio

from .mcp_early import _parse

log = logging.getLogger(__name__)

_INBOX_LINES = 64  # lines read ahead of the server; stdin's pipe holds the rest


class Wire:
    """The protocol's end of stdout: one line per message, written off the event loop (a
    screenshot reply is hundreds of KB, and the agent may be slow to read it). Writes the
    SDK's stdio transport makes go through :meth:`write`; until :meth:`drop_reply` is
    satisfied, the reply it names is held back instead."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out = out
        self._drop: tuple[int | str, dict[str, Any] | None] | None = None

    def drop_reply(self, msg_id: int | str, expected: dict[str, Any] | None) -> None:
        self._drop = (msg_id, expected)

    async def write(self, text: str) -> None:
        if self._drop is not None and self._is_dropped(text):
            return
        await trio.to_thread.run_sync(self._write_line, text.encode("utf-8"))

    async def flush(self) -> None:
        """Every write is flushed already."""

    def _write_line(self, data: bytes) -> None:
        self._out.write(data)
        self._out.flush()

    def _is_dropped(self, text: str) -> bool:
        assert self._drop is not None
        msg_id, expected = self._drop
        message = _parse(text)
        if message is None or message.get("id") != msg_id or "method" in message:
            return False
        self._drop = None
        if message.get("result") != expected:
            log.warning("the SDK answered the opening request differently from the early reply: %s", text.strip()[:500])
        return True


class Inbox:
    """stdin as lines, read by one task for the whole session: a read on a thread cannot be
    called back, so no line may ever depend on a cancelled read. The SDK's stdio transport
    iterates the replayed lines and then the rest of this inbox."""

    def __init__(self, source: IO[bytes]) -> None:
        self._source = source
        self._send, self._receive = trio.open_memory_channel[str](_INBOX_LINES)
        self._replay: list[str] = []

    async def read_all(self) -> None:
        async with self._send:
            while line := await trio.to_thread.run_sync(self._source.readline, abandon_on_cancel=True):
                await self._send.send(line.decode("utf-8", errors="replace"))

    async def receive(self) -> str | None:
        """The next line, None at the end of stdin."""
        try:
            return await self._receive.receive()
        except trio.EndOfChannel:
            return None

    def replay_first(self, lines: list[str]) -> None:
        self._replay = list(lines)

    def __aiter__(self) -> Inbox:
        return self

    async def __anext__(self) -> str:
        if self._replay:
            return self._replay.pop(0)
        line = await self.receive()
        if line is None:
            raise StopAsyncIteration
        return line
