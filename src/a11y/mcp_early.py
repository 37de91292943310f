"""The opening of a stdio conversation, answered while the MCP SDK is still being imported.

An agent spawns the server, opens the conversation and usually lists the tools, and waits
for both replies before it does anything else. Importing the SDK's server takes about half a
second, most of the start-up an agent waits for, yet neither reply needs it: both are fixed
by this process's configuration (the server's name, version, capabilities and instructions;
the tool list generated into ``tools/tool_list.json``) and by the SDK's rules for the
protocol era and version, which are simple and mirrored here. The opening is ``initialize``
in the handshake era (2025-11-25 and earlier, what most agents speak) and ``server/discover``
or any request in the per-request envelope from 2026-07-28 on (what the SDK's own client
sends).

So the stdio server starts the SDK import on a worker thread at once, reads stdin itself, and
answers the opening request, ``tools/list`` and ``ping`` from the start. At the first message
it cannot answer (a tool call, usually), it waits for the SDK and hands it the conversation:
the opening request (and the ``initialized`` notification) are replayed to it first, so the
SDK picks the same era and holds the same session state as if it had answered them; its
reply to the replayed request is dropped, after being compared with the early one; then
stdin follows in order. Anything not plainly well formed is left to the SDK, which answers it
as it always has.

Tests compare every early reply with the SDK's own for the same request, and the protocol
revisions mirrored here with the SDK's.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

import trio

log = logging.getLogger(__name__)

# The SDK's protocol revisions (mcp_types.version), oldest first: importing them would import
# the whole of mcp_types. tests/tools/test_mcp_early.py keeps them equal to the SDK's.
HANDSHAKE_PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_PROTOCOL_VERSIONS = ("2026-07-28",)

# The reserved _meta keys of the 2026-07-28 per-request envelope.
_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
_CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
_CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
_SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

_INBOX_LINES = 64  # lines read ahead of the server; stdin's pipe holds the rest


#: The capabilities the server announces, as the SDK derives them from what it serves: tools and
#: the files tools wrote as resources (a11y.mcp_files); from 2026-07-28 on, the tasks extension
#: too (a11y.mcp_tasks: the handshake era's capabilities have no extensions).
_CAPABILITIES: dict[str, Any] = {"resources": {"subscribe": False, "listChanged": False},
                                 "tools": {"listChanged": False}}
_MODERN_CAPABILITIES: dict[str, Any] = {**_CAPABILITIES, "extensions": {"io.modelcontextprotocol/tasks": {}}}


@dataclass(frozen=True)
class ServerFacts:
    """What the SDK puts in the replies answered early, known without importing it."""

    name: str
    version: str
    instructions: str
    listing: Callable[[], list[dict[str, Any]]]  # the tools/list entries, read when first asked

    def initialize_result(self, requested: str) -> dict[str, Any]:
        """The reply to ``initialize``: the SDK accepts a handshake revision it knows and
        otherwise offers its newest."""
        negotiated = requested if requested in HANDSHAKE_PROTOCOL_VERSIONS else HANDSHAKE_PROTOCOL_VERSIONS[-1]
        return {"capabilities": _CAPABILITIES, "instructions": self.instructions,
                "protocolVersion": negotiated, "serverInfo": {"name": self.name, "version": self.version}}

    def discover_result(self) -> dict[str, Any]:
        """The reply to ``server/discover`` (2026-07-28 and later)."""
        return self._modern({"capabilities": _MODERN_CAPABILITIES, "instructions": self.instructions,
                             "supportedVersions": list(MODERN_PROTOCOL_VERSIONS)})

    def tools_result(self, *, modern: bool) -> dict[str, Any]:
        tools = {"tools": self.listing()}
        return self._modern(tools) if modern else tools

    def _modern(self, result: dict[str, Any]) -> dict[str, Any]:
        """A result in the per-request era: cache hints and the server named in ``_meta``."""
        return {**result, "cacheScope": "private", "resultType": "complete", "ttlMs": 0,
                "_meta": {_SERVER_INFO_KEY: {"name": self.name, "version": self.version}}}


@dataclass
class Handshake:
    """The conversation's opening, answered early. The client's first request decides the
    protocol era (the SDK's rule): ``initialize`` opens a session of the handshake era, a
    request in the 2026-07-28 envelope a stateless one. That first request, and in the
    handshake era the ``initialized`` notification, are what the SDK must be shown again."""

    replay: list[str] = field(default_factory=list)
    opening_id: int | str | None = None
    opening_result: dict[str, Any] | None = None
    modern: bool = False

    def reply_to(self, line: str, facts: ServerFacts) -> dict[str, Any] | None:
        """The early reply to one line ({} for a notification that needs none); None when
        the SDK has to answer it, and so everything after it."""
        message = _parse(line)
        if message is None or ("id" in message and not _has_id(message)):
            return None
        method, params = message.get("method"), message.get("params")
        if self.opening_id is None:
            return self._open(line, message, method, params, facts) if "id" in message else None
        if not self.modern and method == "notifications/initialized" and "id" not in message \
                and len(self.replay) == 1 and not params:
            self.replay.append(line)
            return {}
        if "id" not in message:
            return None
        if self.modern and _enveloped(params):
            if method == "server/discover":
                return _response(message["id"], facts.discover_result())
            if method == "tools/list":
                return _response(message["id"], facts.tools_result(modern=True))
        if not self.modern and not params and method in ("ping", "tools/list"):
            return _response(message["id"], facts.tools_result(modern=False) if method == "tools/list" else {})
        return None

    def _open(
        self, line: str, message: dict[str, Any], method: Any, params: Any, facts: ServerFacts
    ) -> dict[str, Any] | None:
        """The reply to the opening request (``message`` has an id), if answered early."""
        if method == "initialize" and _well_formed_initialize(params):
            result = facts.initialize_result(params["protocolVersion"])
        elif method == "server/discover" and _enveloped(params):
            result, self.modern = facts.discover_result(), True
        elif method == "tools/list" and _enveloped(params):
            result, self.modern = facts.tools_result(modern=True), True
        else:
            return None
        self.opening_id, self.opening_result = message["id"], result
        self.replay.append(line)
        return _response(message["id"], result)


def _parse(line: str) -> dict[str, Any] | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) and message.get("jsonrpc") == "2.0" else None


def _has_id(message: dict[str, Any]) -> bool:
    msg_id = message.get("id")
    return isinstance(msg_id, str) or (isinstance(msg_id, int) and not isinstance(msg_id, bool))


def _client(info: Any, capabilities: Any) -> bool:
    """Client info and capabilities of the plain shapes the SDK models."""
    return (isinstance(info, dict) and isinstance(info.get("name"), str) and isinstance(info.get("version"), str)
            and isinstance(capabilities, dict) and all(isinstance(v, dict) for v in capabilities.values()))


def _well_formed_initialize(params: Any) -> bool:
    """Plainly valid ``initialize`` params; anything else is the SDK's to judge."""
    return (isinstance(params, dict) and isinstance(params.get("protocolVersion"), str)
            and _client(params.get("clientInfo"), params.get("capabilities")))


def _enveloped(params: Any) -> bool:
    """Params holding only a complete 2026-07-28 envelope at a revision the SDK serves."""
    if not isinstance(params, dict) or set(params) != {"_meta"} or not isinstance(params["_meta"], dict):
        return False
    meta = params["_meta"]
    return (meta.get(_VERSION_KEY) in MODERN_PROTOCOL_VERSIONS
            and _client(meta.get(_CLIENT_INFO_KEY), meta.get(_CLIENT_CAPABILITIES_KEY)))


def _response(msg_id: int | str | None, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "result": result}


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

    async def send(self, message: dict[str, Any]) -> None:
        await self.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")

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


async def answer_handshake(inbox: Inbox, wire: Wire, facts: ServerFacts) -> bool:
    """Answer what can be answered early; True when the SDK is needed, with the inbox set to
    replay the handshake and the line that needs it, False at the end of stdin."""
    handshake = Handshake()
    while (line := await inbox.receive()) is not None:
        reply = handshake.reply_to(line, facts)
        if reply is None:
            inbox.replay_first([*handshake.replay, line])
            if handshake.opening_id is not None:
                wire.drop_reply(handshake.opening_id, handshake.opening_result)
            return True
        if reply:
            await wire.send(reply)
    return False


@dataclass
class StdioWire:
    """The wire's file descriptors, moved off 0 and 1 for the session: children and stray
    prints then read end-of-file and write to stderr, never into the protocol stream. Where
    the descriptors cannot be moved, the process's own stdin and stdout serve as they are."""

    inbound: IO[bytes]
    outbound: IO[bytes]
    _saved: tuple[int, int] | None

    @classmethod
    def claim(cls) -> StdioWire:
        try:
            wire_in, wire_out = os.dup(0), os.dup(1)
        except OSError:
            return cls(sys.stdin.buffer, sys.stdout.buffer, None)
        try:
            null = os.open(os.devnull, os.O_RDONLY)
            try:
                os.dup2(null, 0)
            finally:
                os.close(null)
            os.dup2(2, 1)
        except OSError:
            log.debug("stdin and stdout stay where they are", exc_info=True)
        return cls(os.fdopen(wire_in, "rb"), os.fdopen(wire_out, "wb"), (wire_in, wire_out))

    def restore(self) -> None:
        if self._saved is not None:
            os.dup2(self._saved[0], 0)
            os.dup2(self._saved[1], 1)
