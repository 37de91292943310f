"""Delta snapshots (scripts/bench/mcp_peers.py): what a snapshot costs when little or nothing changed.

For each server that has deltas (ours: ``since`` on ``accessibility_snapshot`` and ``snapshot:
"delta"`` on the tools that change the page; agent-browser: ``delta: true`` on its snapshot;
playwright-mcp 0.0.83 and chrome-devtools-mcp 1.11.0 have none), on the form page: a full
snapshot, the delta of the unchanged page, and the delta after one field was filled, each in
bytes of what a client that reads structured content receives (text blocks plus structured
content, :func:`mcp_peers_tokens.result_bytes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp_peers_servers import _ab_ref, _find_refs, text_of
from mcp_peers_site import NAME
from mcp_peers_tokens import result_bytes


@dataclass
class Deltas:
    label: str
    full: int  # a full snapshot
    unchanged: int  # the delta of the unchanged page
    changed: int  # the delta after filling one field
    action: int | None = None  # ours: the fill itself with snapshot: "delta", its whole result


async def _ok(client: Any, tool: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, args)
    if result.is_error:
        raise RuntimeError(f"{tool}: {text_of(result)[:300]}")
    return result


async def a11y_deltas(client: Any, url: str) -> Deltas:
    await _ok(client, "page_navigate", {"url": url})
    full = await _ok(client, "accessibility_snapshot", {})
    unchanged = await _ok(client, "accessibility_snapshot", {"since": "last"})
    refs = _find_refs(full.structured_content["tree"])
    await _ok(client, "element_fill", {"selector": refs["name"], "value": NAME})
    changed = await _ok(client, "accessibility_snapshot", {"since": "last"})
    action = await _ok(
        client,
        "element_fill",
        {"selector": refs["email"], "value": "x@example.org", "snapshot": "delta"},
    )
    return Deltas(
        "a11y",
        result_bytes(full),
        result_bytes(unchanged),
        result_bytes(changed),
        result_bytes(action),
    )


async def agent_browser_deltas(client: Any, url: str) -> Deltas:
    """Its first delta snapshot is a full one (the baseline), which renumbers the references."""
    await _ok(client, "agent_browser_open", {"url": url})
    full = await _ok(client, "agent_browser_snapshot", {})
    baseline = await _ok(client, "agent_browser_snapshot", {"delta": True})
    unchanged = await _ok(client, "agent_browser_snapshot", {"delta": True})
    ref = _baseline_ref(baseline) or _ab_ref(text_of(baseline), "textbox", "Name")
    await _ok(client, "agent_browser_fill", {"selector": f"@{ref}", "text": NAME})
    changed = await _ok(client, "agent_browser_snapshot", {"delta": True})
    return Deltas(
        "agent-browser", result_bytes(full), result_bytes(unchanged), result_bytes(changed)
    )


def _baseline_ref(result: Any) -> str | None:
    """The Name field's reference in a full delta snapshot's structured content."""
    data = result.structured_content or {}
    snapshot = ((data.get("response") or {}).get("data") or {}).get("snapshot") or {}
    return next(
        (
            ref
            for ref, node in (snapshot.get("refs") or {}).items()
            if node.get("role") == "textbox" and node.get("name") == "Name"
        ),
        None,
    )
