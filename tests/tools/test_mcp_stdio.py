"""``python -m a11y mcp`` answers the opening on the standard library alone (a11y.mcp_stdio):
which command lines take that way, what it has loaded when it answers, and how a command line
the worker finds wrong still ends as the ordinary way would end it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from a11y.mcp_stdio import plain_stdio

CLIENT = {"name": "agent", "version": "1.0"}
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": CLIENT}}) + "\n"
INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n"
TOOLS_LIST = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}) + "\n"
#: What the early path must not have imported when it answers: each costs start-up time.
HEAVY = ("trio", "mcp", "mcp_types", "pydantic", "tools", "cdpdriver", "argparse", "logging", "dataclasses",
         "typing", "a11y.cli", "a11y.mcp_server")


@pytest.mark.parametrize("argv", [
    ["mcp"],
    ["mcp", "--headless", "--profile", "core", "--output-dir", "/tmp/out"],
    ["mcp", "--timeout=300", "--max-result-size", "20000", "--structured-only", "--tools", "config_get"],
])
def test_a_plain_stdio_command_line_is_served_early(argv):
    assert plain_stdio(argv)


@pytest.mark.parametrize("argv", [
    ["mcp", "--http"],
    ["mcp", "--list-tools"],
    ["mcp", "-h"],
    ["mcp", "--prof", "core"],  # an abbreviation argparse would take: the parser decides
    ["mcp", "--timeout", "soon"],
    ["mcp", "--max-result-size", "5000"],  # below the smallest budget: the parser's error
    ["mcp", "--output-dir"],  # no value
    ["mcp", "--output-dir", "--headless"],
    ["mcp", "--block-file-urls"],  # a guard rail adds to the instructions
    ["mcp", "--init-script", "x.js"],  # read at start: a missing file fails there
])
def test_anything_else_goes_the_ordinary_way(argv):
    assert not plain_stdio(argv)


@pytest.mark.parametrize("argv", [[], ["audit", "https://example.org"], ["-v", "mcp"], ["doctor"]])
def test_other_commands_are_not_this_paths(argv):
    assert not plain_stdio(argv)


def test_the_early_path_loads_only_the_standard_library():
    """What ``python -m a11y`` has imported when the main thread starts reading stdin, beyond
    what a bare interpreter has: the early modules, json and threading, none of the heavy ones."""
    probe = ("import json, sys; before = set(sys.modules); import a11y.mcp_stdio; "
             "print(json.dumps(sorted(set(sys.modules) - before)))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True,
                                       timeout=60).stdout)
    assert "a11y.mcp_early" in loaded
    heavy = [name for name in loaded if name.split(".")[0] in HEAVY or name in HEAVY]
    assert heavy == []


def _spawn(tmp_path: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "a11y", "mcp", "--output-dir", str(tmp_path), *extra],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _replies(stdout: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def test_an_unknown_profile_ends_with_status_2_before_the_tool_list(tmp_path):
    """The opening is answered before the parser has seen the profile; the tool list is not:
    the server says what is wrong in one line and ends with 2, as the ordinary way does."""
    server = _spawn(tmp_path, "--profile", "nosuch")
    stdout, stderr = server.communicate((INITIALIZE + INITIALIZED + TOOLS_LIST).encode(), timeout=60)
    assert server.returncode == 2
    assert [reply["id"] for reply in _replies(stdout)] == [1]
    assert b"a11y mcp:" in stderr and b"nosuch" in stderr and b"Traceback" not in stderr


def test_an_unknown_profile_ends_with_status_2_when_stdin_ends_first(tmp_path):
    server = _spawn(tmp_path, "--profile", "nosuch")
    stdout, stderr = server.communicate(b"", timeout=60)
    assert (server.returncode, stdout) == (2, b"")
    assert b"nosuch" in stderr


def test_a_known_profile_lists_its_tools_and_ends_with_0(tmp_path):
    server = _spawn(tmp_path, "--profile", "core")
    stdout, stderr = server.communicate((INITIALIZE + INITIALIZED + TOOLS_LIST).encode(), timeout=60)
    replies = _replies(stdout)
    assert server.returncode == 0, stderr.decode()
    assert [reply["id"] for reply in replies] == [1, 2]
    assert any(tool["name"] == "page_navigate" for tool in replies[1]["result"]["tools"])
    assert b"Traceback" not in stderr and b"FATAL" not in stderr, stderr.decode()


def test_a_guard_rail_goes_the_ordinary_way_and_is_in_the_instructions(tmp_path):
    """Through a11y.cli, with the configuration made first: the same early replies, with what
    the rail adds to the instructions, and the SDK carries on."""
    call = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                       "params": {"name": "config_get", "arguments": {}}}) + "\n"
    server = _spawn(tmp_path, "--block-file-urls")
    assert server.stdin is not None and server.stdout is not None
    try:  # stdin stays open until the call is answered: at its end the SDK drops open requests
        server.stdin.write((INITIALIZE + INITIALIZED + TOOLS_LIST + call).encode())
        server.stdin.flush()
        replies = {reply["id"]: reply for reply in (json.loads(server.stdout.readline()) for _ in range(3))}
    finally:
        _, stderr = server.communicate(timeout=60)
    assert server.returncode == 0, stderr.decode()
    assert set(replies) == {1, 2, 3}
    assert "file: URLs" in replies[1]["result"]["instructions"]
    assert replies[3]["result"]["structuredContent"]["output_dir"] == str(tmp_path)
