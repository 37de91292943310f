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

So the stdio server (:mod:`a11y.mcp_stdio`) starts the heavy imports (Trio, the SDK, the
tools) on a worker thread at once, reads stdin itself on the main thread, with nothing but
this module and the standard library loaded, and answers the opening request, ``tools/list``
and ``ping`` from the start. At the first message it cannot answer (a tool call, usually), it
waits for the SDK and hands it the conversation (:mod:`a11y.mcp_handover`): the opening
request (and the ``initialized`` notification) are replayed to it first, so the SDK picks the
same era and holds the same session state as if it had answered them; its reply to the
replayed request is dropped, after being compared with the early one; then stdin follows in
order. Anything not plainly well formed is left to the SDK, which answers it as it always has.

Tests compare every early reply with the SDK's own for the same request, and the protocol
revisions mirrored here with the SDK's.
"""

from __future__ import annotations

import json
import os
import sys

# This module runs before anything else is imported (a11y.mcp_stdio), so it uses the few
# standard modules the interpreter has loaded anyway plus json: no typing, dataclasses or
# logging at import time (each costs milliseconds of the start-up an agent waits for).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any

# The SDK's protocol revisions (mcp_types.version), oldest first: importing them would import
# the whole of mcp_types. tests/tools/test_mcp_early.py keeps them equal to the SDK's.
HANDSHAKE_PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_PROTOCOL_VERSIONS = ("2026-07-28",)

# The reserved _meta keys of the 2026-07-28 per-request envelope.
_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
_CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
_CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
_SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"



# Sent once per session: what every tool shares, so no tool description has to repeat it. Here, not
# in a11y.mcp_server, because the reply to ``initialize`` carries it before that module is imported.
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
- Deltas: both answer with a snapshot_id; since ("last" or an id) returns only what changed (unchanged: true, or added/removed/changed/moved nodes by ref, focus, and ancestors placing them), or a full one with document_changed after navigation. Tools that change the page take snapshot ("delta" or "full") and return it after the action. Screenshots take if_changed (true, or a fraction of pixels): {changed: false} and no image when nothing visible changed.
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


#: The capabilities the server announces, as the SDK derives them from what it serves: tools and
#: the files tools wrote as resources (a11y.mcp_files); from 2026-07-28 on, the tasks extension
#: too (a11y.mcp_tasks: the handshake era's capabilities have no extensions).
_CAPABILITIES: dict[str, Any] = {"resources": {"subscribe": False, "listChanged": False},
                                 "tools": {"listChanged": False}}
_MODERN_CAPABILITIES: dict[str, Any] = {**_CAPABILITIES, "extensions": {"io.modelcontextprotocol/tasks": {}}}


class ServerFacts:
    """What the SDK puts in the replies answered early, known without importing it."""

    __slots__ = ("name", "version", "instructions", "listing")

    def __init__(self, name: str, version: str, instructions: str,
                 listing: Callable[[], list[dict[str, Any]]]) -> None:
        self.name, self.version, self.instructions = name, version, instructions
        self.listing = listing  # the tools/list entries, read when first asked

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


class Handshake:
    """The conversation's opening, answered early. The client's first request decides the
    protocol era (the SDK's rule): ``initialize`` opens a session of the handshake era, a
    request in the 2026-07-28 envelope a stateless one. That first request, and in the
    handshake era the ``initialized`` notification, are what the SDK must be shown again."""

    def __init__(self) -> None:
        self.replay: list[str] = []
        self.opening_id: int | str | None = None
        self.opening_result: dict[str, Any] | None = None
        self.modern = False

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


def encode(message: dict[str, Any]) -> bytes:
    """One message as the wire carries it: compact JSON on one line, as the SDK writes it."""
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def answer_opening(inbound: IO[bytes], outbound: IO[bytes], handshake: Handshake, facts: ServerFacts) -> str | None:
    """Answer what can be answered early, reading stdin on this thread while the imports run
    on another; the first line the SDK must answer (the handshake's lines are in
    ``handshake.replay``), or None at the end of stdin. Reads one line at a time from the
    buffered reader the SDK's transport goes on reading, so no byte is read twice or lost."""
    while line := inbound.readline():
        text = line.decode("utf-8", errors="replace")
        reply = handshake.reply_to(text, facts)
        if reply is None:
            return text
        if reply:
            outbound.write(encode(reply))
            outbound.flush()
    return None


class StdioWire:
    """The wire's file descriptors, moved off 0 and 1 for the session: children and stray
    prints then read end-of-file and write to stderr, never into the protocol stream. Where
    the descriptors cannot be moved, the process's own stdin and stdout serve as they are."""

    def __init__(self, inbound: IO[bytes], outbound: IO[bytes], saved: tuple[int, int] | None) -> None:
        self.inbound, self.outbound, self._saved = inbound, outbound, saved

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
            import logging

            logging.getLogger(__name__).debug("stdin and stdout stay where they are", exc_info=True)
        return cls(os.fdopen(wire_in, "rb"), os.fdopen(wire_out, "wb"), (wire_in, wire_out))

    def restore(self) -> None:
        if self._saved is not None:
            os.dup2(self._saved[0], 0)
            os.dup2(self._saved[1], 1)
