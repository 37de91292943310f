"""Issue #25 item 4: every tool's MCP annotations, and one fixed order for tools/list.

The annotations derive from the ``effect`` each declaration names (``tools.registry.EFFECTS``).
These tests hold them, without a browser, against what the handlers show of themselves: their
names, their input fields, the guard rails' own lists of tools that run the caller's code, and
``records`` (a tool a recording keeps changes the page). ``test_annotations_live.py`` calls the
read-only ones, and a sample of the destructive ones, on a real page.

The order is the spec catalog's, namespace by namespace then by name: docs/tools.md documents
it, and every listing (stdio answered early or by the SDK, Streamable HTTP in both protocol
eras, with and without the ``context`` argument, under profiles, ``--list-tools``) keeps it.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import trio
from mcp import Client

from a11y.mcp_http import serve_http
from a11y.mcp_server import build_http_app, build_server, server_facts
from tools import catalog
from tools.guard.calls import NO_JS_TOOLS, OUTSIDE_TOOLS
from tools.registry import EFFECTS
from tools.session import ServerConfig

ROOT = Path(__file__).resolve().parents[2]
SPEC_CATALOG = ROOT.parent / "shared" / "spec" / "catalog.md"
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")

#: Verbs (the word after the namespace) of tools that only look.
READ_VERBS = {"get", "is", "list", "snapshot", "inspect", "export", "generate", "validate", "wait", "extract"}
#: Verbs of tools that remove what is kept.
DELETE_VERBS = {"clear", "delete", "uninstall", "close", "quit", "reset"}
#: Input fields that name a file the call writes (a path inside the output directory).
FILE_FIELDS = {"path", "save_to_file", "output_dir", "dir"}

#: Why a tool is destructive though its verb does not say so: it overwrites kept data of the
#: name or key it is given, or it runs code (the caller's, or any tool) that may delete.
DESTRUCTIVE_BECAUSE = {
    "storage_local_set": "overwrites the item of that key", "storage_session_set": "overwrites the item of that key",
    "storage_set_cookies": "overwrites cookies of the same name", "storage_set_state": "overwrites cookies and storage",
    "state_load": "overwrites cookies and storage", "state_save": "overwrites the saved state of that name",
    "record_start": "drops the steps of the last recording",
    "console_get_messages": "clear: true empties the buffer", "network_get_requests": "clear: true empties the buffer",
    "batch_execute": "runs any tool", "http_request": "sends any method (DELETE, PUT) with the page's cookies",
    "browser_launch": "in the other headless mode it closes the running browser, every tab with it",
}

#: The only tools whose name reads as a look that are not read-only, and why.
NOT_READ_ONLY_BECAUSE = {
    "console_get_messages": "clear", "network_get_requests": "clear",
    "cdp_get_response_body": "save_to_file writes a file", "wait_for_function": "runs the caller's code",
}


#: Tools whose verb says clear that lose nothing kept: they undo a setting of theirs, or empty
#: a field of the page as element_fill replaces its value (page state, which a reload resets).
NOT_DESTRUCTIVE_BECAUSE = {"cdp_clear_cpu_emulation": "undoes cdp_emulate_cpu",
                           "cdp_clear_network_emulation": "undoes cdp_emulate_network",
                           "element_clear": "empties a field of the page"}


def _verb(name: str) -> str:
    """The word after the namespace (wait_for_x: wait; storage_local_get: get)."""
    parts = name.split("_")
    if parts[0] == "wait":
        return "wait"
    return parts[2] if parts[:2] in (["storage", "local"], ["storage", "session"]) else parts[1]


def test_every_tool_declares_all_four_hints_consistently():
    tools = catalog.load()
    assert len(tools) == 169 and set(EFFECTS) == {t.effect for t in tools}
    for t in tools:
        hints = t.annotations
        assert tuple(hints) == HINTS and all(isinstance(v, bool) for v in hints.values()), t.name
        if hints["readOnlyHint"]:  # a look changes nothing, so it destroys nothing and repeats freely
            assert not hints["destructiveHint"] and hints["idempotentHint"] and not t.records, t.name
        if t.records:  # a recording keeps it because it changes the page
            assert not hints["readOnlyHint"], t.name
    # what tools/list sends (tool_list.json, no registry import) is what the declarations say
    assert {t.name: t.annotations for t in catalog.listed()} == {t.name: t.annotations for t in tools}


def test_annotations_follow_what_the_handlers_take_and_do():
    """The static half of the proof: each rule below reads a fact of the tool (its name, an
    input field, a list of the guard rails) that forces a hint, and every exception is named."""
    for t in catalog.load():
        hints, fields, verb = t.annotations, set(t.input_model.model_fields), _verb(t.name)
        why = f"{t.name}: {t.effect}"
        if verb in READ_VERBS:
            assert hints["readOnlyHint"] or t.name in NOT_READ_ONLY_BECAUSE, why
        if hints["readOnlyHint"]:
            assert verb in READ_VERBS, why
            assert not fields & FILE_FIELDS and "snapshot" not in fields and "clear" not in fields, why
        if fields & FILE_FIELDS or "snapshot" in fields:  # writes a file / changes the page
            assert not hints["readOnlyHint"], why
        if "clear" in fields:  # empties a buffer when asked
            assert hints["destructiveHint"], why
        if "url" in fields:  # loads or fetches it
            assert hints["openWorldHint"], why
        if verb in DELETE_VERBS:
            assert hints["destructiveHint"] or t.name in NOT_DESTRUCTIVE_BECAUSE, why
        if hints["destructiveHint"]:
            assert verb in DELETE_VERBS or t.name in DESTRUCTIVE_BECAUSE or t.name in NO_JS_TOOLS, why
        if t.name in NO_JS_TOOLS:  # runs code the caller wrote: it may delete, and reach anywhere
            assert hints["destructiveHint"] and hints["openWorldHint"], why
        if t.name in OUTSIDE_TOOLS:  # loads pages or code outside the guarded tabs
            assert hints["openWorldHint"], why
        if t.namespace in {"storage", "state", "record", "test", "trace", "video", "config", "console"}:
            assert not hints["openWorldHint"], why  # the browser's stores and the server's own records
    names = {t.name for t in catalog.load()}
    assert {*NOT_READ_ONLY_BECAUSE, *DESTRUCTIVE_BECAUSE, *NOT_DESTRUCTIVE_BECAUSE} <= names


def test_hint_counts():
    """The totals docs/tools.md states; a change of one is a decision to make on purpose."""
    tools = catalog.load()
    counts = {hint: sum(t.annotations[hint] for t in tools) for hint in HINTS}
    assert counts == {"readOnlyHint": 48, "destructiveHint": 36, "idempotentHint": 114, "openWorldHint": 37}


def documented_order() -> list[str]:
    """The tool order docs/tools.md shows, which it says every listing keeps."""
    text = (ROOT / "docs" / "tools.md").read_text(encoding="utf-8")
    assert "tools/list always lists the tools in this document's order" in text
    return re.findall(r"^### `([a-z_]+)`$", text, re.M)


def test_the_catalog_is_the_specs_169_names_in_the_documented_order():
    order = documented_order()
    assert len(order) == 169 and order == sorted(order, key=catalog.listing_order)
    assert [t.name for t in catalog.load()] == [t.name for t in catalog.listed()] == order
    assert [t["name"] for t in catalog.catalog(catalog.listed())["tools"]] == order  # --list-tools
    if SPEC_CATALOG.exists():
        spec = re.findall(r"^\| `([a-z_]+)` \|", SPEC_CATALOG.read_text(encoding="utf-8"), re.M)
        assert spec == order


@asynccontextmanager
async def _served(config: ServerConfig) -> AsyncIterator[str]:
    """The Streamable HTTP app served in this trio run (listing starts no browser)."""
    stop = trio.Event()
    async with trio.open_nursery() as nursery:
        binds = await nursery.start(partial(serve_http, build_http_app(config, "127.0.0.1"), "127.0.0.1", 0,
                                            shutdown=stop.wait))
        try:
            yield f"{binds[0]}/mcp"
        finally:
            stop.set()


async def _names(client: Client) -> tuple[list[str], list[dict]]:
    listed = (await client.list_tools()).tools
    return [t.name for t in listed], [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed]


async def test_every_listing_keeps_the_documented_order(tmp_path):
    order = documented_order()
    for profile in (None, "forms"):  # every tool, and a profile's selection (--profile forms)
        namespaces, names = catalog.selection({profile} if profile else None, None, None)
        exposed = {t.name for t in catalog.selected(namespaces, names)}
        expected = [n for n in order if n in exposed]
        assert len(expected) == (169 if profile is None else 71)
        config = ServerConfig(output_dir=tmp_path, namespaces=namespaces, tools=names)
        assert [e["name"] for e in server_facts(config).listing()] == expected  # stdio, answered early
        async with Client(build_server(config)) as client:  # stdio, the SDK
            names, entries = await _names(client)
            assert names == expected and (await _names(client))[1] == entries
        async with _served(config) as url:
            async with Client(url, mode="legacy") as client:  # 2025 era: a session, no context
                legacy, legacy_entries = await _names(client)
            async with Client(url) as client:  # 2026-07-28: stateless, every tool takes context
                modern, modern_entries = await _names(client)
                assert (await _names(client))[0] == modern
        assert legacy == modern == expected
        assert all("context" in e["inputSchema"]["properties"] for e in modern_entries)
        assert [e["annotations"] for e in legacy_entries] == [e["annotations"] for e in modern_entries]
        assert [e["annotations"] for e in entries] == [e["annotations"] for e in legacy_entries]
