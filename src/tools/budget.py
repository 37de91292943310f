"""Text budgets: a snapshot cut to ``max_chars`` characters, continued from ``offset``.

The budget is on the text an agent is sent: the output as the server writes it (compact
JSON). A snapshot is a sequence of entries (list items, or tree nodes in document order);
a page holds the entries ``offset`` up to ``next_offset``, as many as fit, so the pages of
one snapshot, put together, are the whole of it. A tree page repeats the ancestors of its
first entry as ``continued`` stubs, so every page reads as a tree from the root.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

CONTINUED = "continued"
STUB_NAME = 40  # characters of an ancestor's name repeated on a later page


def text_size(data: Any) -> int:
    """Characters of ``data`` as the MCP server sends it."""
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def largest_fitting(low: int, high: int, fits: Callable[[int], bool]) -> int:
    """The largest ``n`` in ``low..high`` for which ``fits(n)`` holds (it holds for every smaller
    ``n`` when it holds for ``n``); ``low`` when none does. ``high`` is tried first."""
    if fits(high):
        return high
    best = low
    high -= 1
    while low <= high:
        middle = (low + high) // 2
        if fits(middle):
            best, low = middle, middle + 1
        else:
            high = middle - 1
    return best


def page_end(costs: list[int], start: int, budget: int) -> int:
    """Where a page that starts at entry ``start`` ends: as many entries as their ``costs`` (an
    upper bound of each one's characters in a page) allow within ``budget``, at least one."""
    used, end = 0, start
    while end < len(costs) and (used + costs[end] <= budget or end == start):
        used += costs[end]
        end += 1
    return end


def fit(count: int, start: int, costs: list[int], budget: int, size: Callable[[int], int], max_chars: int) -> int:
    """The end of a page from ``start`` of ``count`` entries: estimated from ``costs``, checked
    with ``size(end)`` (the page's real characters), and narrowed if the estimate was off."""
    end = page_end(costs, start, budget)
    if size(end) <= max_chars or end == start + 1:
        return end
    return largest_fitting(start + 1, end, lambda e: size(e) <= max_chars)


def item_costs(items: list[Any]) -> list[int]:
    """Each list item's characters within a page (its comma included)."""
    return [text_size(item) + 1 for item in items]


def tree_entries(tree: Any) -> int:
    """Entries of a compact tree: every node and every text, in document order."""
    if not isinstance(tree, dict):
        return 1
    return 1 + sum(tree_entries(child) for child in tree.get("children", ()))


_CHILDREN = len(',"children":[]')


def tree_costs(tree: Any, start: int) -> tuple[list[int], int]:
    """Each entry's characters within a page (an upper bound: its own JSON, a comma and room for
    its children's list), and the characters of the stubs a page starting at ``start`` repeats."""
    costs: list[int] = []
    stubs = 0

    def walk(node: Any, ancestors: list[Any]) -> None:
        nonlocal stubs
        if len(costs) == start:
            stubs = sum(text_size(_stub(a)) + _CHILDREN + 1 for a in ancestors)
        if not isinstance(node, dict):
            costs.append(text_size(node) + 1)
            return
        room = _CHILDREN if node.get("children") else 0
        costs.append(text_size({k: v for k, v in node.items() if k != "children"}) + room + 1)
        for child in node.get("children", ()):
            walk(child, [*ancestors, node])

    walk(tree, [])
    return costs, stubs


def _stub(node: dict[str, Any]) -> dict[str, Any]:
    """An ancestor shown in full on an earlier page: enough to read the path to this page."""
    out: dict[str, Any] = {"role": node.get("role")}
    if node.get("name"):
        out["name"] = str(node["name"])[:STUB_NAME]
    out[CONTINUED] = True
    return out


def tree_window(tree: Any, start: int, end: int) -> Any:
    """The tree cut to entries ``start..end-1``, under stubs of their ancestors (or None)."""
    counter = [0]

    def cut(node: Any) -> Any:
        index = counter[0]
        counter[0] += 1
        if not isinstance(node, dict):
            return node if start <= index < end else None
        children = []
        for child in node.get("children", ()):
            if counter[0] >= end:
                break
            kept = cut(child)
            if kept is not None:
                children.append(kept)
        if start <= index < end:
            out = {k: v for k, v in node.items() if k != "children"}
        elif children:  # an ancestor of the page's first entry, shown in full on an earlier page
            out = _stub(node)
        else:
            return None
        if children:
            out["children"] = children
        return out

    return cut(tree)
