"""The handshake answered before the SDK is imported (a11y.mcp_early) says exactly what the
SDK would, in both protocol eras, and hands the SDK a conversation it can carry on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import mcp_types.version
import pytest
import trio
from mcp import Client, StdioServerParameters
from mcp.server.stdio import stdio_server

from a11y import mcp_early
from a11y.mcp_early import Handshake
from a11y.mcp_server import build_server, server_facts
from tools.session import ServerConfig

CLIENT = {"name": "agent", "version": "1.0"}
ENVELOPE = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientInfo": CLIENT,
                      "io.modelcontextprotocol/clientCapabilities": {}}}


def _request(msg_id: int, method: str, params: dict[str, Any] | None = None) -> str:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message) + "\n"


def _initialize(version: str) -> str:
    return _request(1, "initialize", {"protocolVersion": version, "capabilities": {"roots": {}},
                                      "clientInfo": CLIENT})


INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n"

CONVERSATIONS = {
    "handshake era": [_initialize("2025-06-18"), INITIALIZED, _request(2, "tools/list"), _request(3, "ping")],
    "oldest revision": [_initialize("2024-11-05"), INITIALIZED, _request(2, "tools/list", {})],
    "unknown revision": [_initialize("1999-01-01"), _request(2, "tools/list")],
    "per-request era": [_request(1, "server/discover", ENVELOPE), _request(2, "tools/list", ENVELOPE),
                        _request(3, "server/discover", ENVELOPE)],
    "per-request era, tools first": [_request(1, "tools/list", ENVELOPE)],
}


class _Lines:
    """stdin for the SDK's stdio transport: the lines, then the end once every request has its
    reply (the SDK answers requests concurrently and drops the unanswered ones at the end)."""

    def __init__(self, lines: list[str], replied: trio.Event) -> None:
        self._lines, self._replied = list(lines), replied

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        if not self._lines:
            with trio.fail_after(10):
                await self._replied.wait()
            raise StopAsyncIteration
        return self._lines.pop(0)


class _Written:
    def __init__(self, expected: int) -> None:
        self.messages: list[dict[str, Any]] = []
        self.expected, self.replied = expected, trio.Event()

    async def write(self, text: str) -> None:
        self.messages.append(json.loads(text))
        if len(self.messages) == self.expected:
            self.replied.set()

    async def flush(self) -> None:
        pass


async def _sdk_replies(config: ServerConfig, lines: list[str]) -> dict[Any, dict[str, Any]]:
    server = build_server(config)
    out = _Written(sum('"id"' in line for line in lines))
    async with stdio_server(stdin=_Lines(lines, out.replied), stdout=out) as (read, write):  # type: ignore[arg-type]
        await server.run(read, write, server.create_initialization_options())
    return {m["id"]: m for m in out.messages}


def test_mirrored_protocol_revisions_are_the_sdks():
    assert mcp_early.HANDSHAKE_PROTOCOL_VERSIONS == mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS
    assert mcp_early.MODERN_PROTOCOL_VERSIONS == mcp_types.version.MODERN_PROTOCOL_VERSIONS


@pytest.mark.parametrize("name", list(CONVERSATIONS))
@pytest.mark.parametrize("tools", [None, {"config_get", "page_navigate"}])
async def test_early_replies_are_the_sdks(tmp_path, name, tools):
    config = ServerConfig(output_dir=tmp_path, tools=tools)
    lines = CONVERSATIONS[name]
    handshake, facts = Handshake(), server_facts(config)
    early = [handshake.reply_to(line, facts) for line in lines]
    assert all(reply is not None for reply in early), early  # the whole conversation is answered early
    sdk = await _sdk_replies(config, lines)
    answered = [reply for reply in early if reply]
    assert answered and len(answered) == len(sdk)
    for reply in answered:
        assert reply == sdk[reply["id"]]
    assert handshake.replay == [lines[0], *([INITIALIZED] if INITIALIZED in lines else [])]


@pytest.mark.parametrize("line", [
    "not json\n",
    _request(1, "initialize", {"protocolVersion": 2025, "capabilities": {}, "clientInfo": CLIENT}),
    _request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {"roots": 1},
                               "clientInfo": CLIENT}),
    _request(1, "tools/list"),  # a request before the handshake
    _request(1, "tools/call", {"name": "config_get", "arguments": {}}),
    _request(1, "server/discover", {"_meta": {**ENVELOPE["_meta"],
                                              "io.modelcontextprotocol/protocolVersion": "2027-01-01"}}),
    _request(1, "tools/list", {**ENVELOPE, "cursor": "x"}),
    json.dumps({"jsonrpc": "2.0", "id": True, "method": "initialize", "params": {}}) + "\n",
])
def test_anything_unusual_is_left_to_the_sdk(tmp_path, line):
    assert Handshake().reply_to(line, server_facts(ServerConfig(output_dir=tmp_path))) is None


def test_after_the_opening_only_its_own_eras_requests_are_answered(tmp_path):
    facts = server_facts(ServerConfig(output_dir=tmp_path))
    legacy = Handshake()
    assert legacy.reply_to(_initialize("2025-06-18"), facts)
    assert legacy.reply_to(_request(2, "server/discover", ENVELOPE), facts) is None
    assert legacy.reply_to(_initialize("2025-06-18"), facts) is None  # a second initialize
    modern = Handshake()
    assert modern.reply_to(_request(1, "server/discover", ENVELOPE), facts)
    assert modern.reply_to(_initialize("2025-06-18"), facts) is None
    assert modern.reply_to(INITIALIZED, facts) is None


def _spawn(tmp_path: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "a11y", "mcp", "--output-dir", str(tmp_path), *extra],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _exchange(server: subprocess.Popen[bytes], lines: list[str], replies: int) -> list[dict[str, Any]]:
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write("".join(lines).encode())
    server.stdin.flush()
    return [json.loads(server.stdout.readline()) for _ in range(replies)]


def test_the_sdk_carries_on_a_handshake_answered_early(tmp_path):
    """Handshake era over real stdio: the SDK takes over at the first tool call, its reply to the
    replayed initialize is dropped (and matched the early one: no warning), and the session it
    holds is the one the client opened."""
    server = _spawn(tmp_path)
    try:
        opened = _exchange(server, [_initialize("2025-03-26")], 1)
        assert opened[0]["result"]["protocolVersion"] == "2025-03-26"
        replies = _exchange(server, [INITIALIZED, _request(2, "tools/list"),
                                     _request(3, "tools/call", {"name": "config_get", "arguments": {}}),
                                     _request(4, "tools/list")], 3)
        by_id = {reply["id"]: reply for reply in replies}
        assert set(by_id) == {2, 3, 4}
        assert by_id[3]["result"]["structuredContent"]["output_dir"] == str(tmp_path)
        assert by_id[2]["result"] == by_id[4]["result"]  # early and the SDK's own listing agree
    finally:
        _, stderr = server.communicate(timeout=30)  # closes stdin: the server ends
    assert server.returncode == 0
    assert b"differently" not in stderr and b"Traceback" not in stderr, stderr.decode()


def test_malformed_input_first_gets_the_sdks_error(tmp_path):
    server = _spawn(tmp_path)
    try:
        reply = _exchange(server, ["{not json\n", _initialize("2025-06-18")], 1)
        assert reply[0]["id"] == 1 and reply[0]["result"]["serverInfo"]["name"] == "a11y"
    finally:
        server.communicate(timeout=30)


async def test_the_python_client_starts_a_stateless_session_answered_early(tmp_path):
    """The SDK's own client opens the 2026-07-28 era with server/discover; a tool call after the
    early replies reaches the SDK."""
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "a11y", "mcp", "--output-dir", str(tmp_path)])
    async with Client(params) as client:
        listed = await client.list_tools()
        assert len(listed.tools) == 169
        result = await client.call_tool("config_get", {})
        assert result.structured_content["output_dir"] == str(tmp_path)
