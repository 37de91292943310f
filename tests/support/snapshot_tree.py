"""Reading the accessibility snapshot's compact tree in tests (accessibility_snapshot's
``tree``): the MCP tests look nodes up by role and name."""

from __future__ import annotations

from typing import Any


def find_node(node: Any, role: str, name: str | None = None) -> dict[str, Any] | None:
    """The first node, depth first, with ``role`` (and ``name``, when given), or None."""
    if isinstance(node, dict):
        if node.get("role") == role and (name is None or node.get("name") == name):
            return node
        for child in node.get("children", []):
            found = find_node(child, role, name)
            if found:
                return found
    return None
