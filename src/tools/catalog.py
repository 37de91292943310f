"""Import every namespace module so the registry is complete, then describe it.

Namespace modules live in ``tools/namespaces/`` and are discovered, so adding
a namespace never means editing a shared list. They import only declarations
and models (handlers import what they need when they run), so loading the
whole registry is cheap.

Describing the tools is cheaper still: ``tool_list.json`` holds every tool's
tools/list entry (name, description, input and output schema), generated from
the registry by ``scripts/gen_tool_docs.py``, so ``tools/list`` and
``--list-tools`` build no model and no schema at start (that costs about a third
of a second; a test keeps the file equal to the registry). A call still loads
the registry, whose models validate it. Each entry carries the tool's MCP
annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint), derived
from the ``effect`` its declaration names (``tools.registry.EFFECTS``).

The order is fixed and documented (docs/tools.md): the spec catalog's, namespace by
namespace in alphabetical order, then by name (:func:`listing_order`). Every listing
(tools/list over stdio and HTTP, in either protocol era, with or without the
``context`` argument, under any profile, and ``--list-tools``) keeps it, so a client
that caches or diffs the list, or a model prompted with it, sees the same bytes
each time; a selection is the same order with tools left out.

Profiles are named selections for ``--profile``: an agent that only fills forms
should not pay, on every session, for the tokens of 169 tool descriptions.
Every profile but ``all`` is ``core`` plus its own tools.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .registry import Tool

LISTING = Path(__file__).with_name("tool_list.json")

_loaded = False


@dataclass(frozen=True)
class Profile:
    description: str
    namespaces: frozenset[str] = frozenset()
    tools: frozenset[str] = frozenset()


def _profile(description: str, namespaces: str = "", tools: str = "") -> Profile:
    return Profile(description, frozenset(namespaces.split()), frozenset(tools.split()))


CORE = _profile(
    "drive a page: navigate, see it, act on elements, wait, run a script",
    namespaces="browser dialog tab",
    tools="""page_navigate page_go_back page_reload page_screenshot page_inspect page_get_url
             page_get_title page_scroll page_set_viewport accessibility_snapshot element_click
             element_fill element_fill_form element_type element_press element_select element_check
             element_uncheck element_hover element_get_text element_get_value element_is_visible
             element_screenshot input_keyboard_press wait_for_selector wait_for_text wait_for_url
             wait_for_load js_evaluate console_get_messages batch_execute""",
)
PROFILES: dict[str, Profile] = {
    "core": CORE,
    "forms": _profile("core + every element, input and frame tool", namespaces="element input frame"),
    "network": _profile("core + requests, mocking, HTTP and throttling", namespaces="network http",
                        tools="cdp_get_response_body cdp_emulate_network cdp_clear_network_emulation"),
    "storage": _profile("core + cookies, web storage and saved states", namespaces="storage state"),
    "testing": _profile("core + assertions, recording and workflows", namespaces="test record workflow human"),
    "devtools": _profile("core + console, performance, coverage, tracing, video and the other cdp_ tools",
                         namespaces="cdp console trace video js config"),
    "all": _profile("all 169 tools (the default)"),
}


def listing_order(name: str) -> tuple[str, str]:
    """The sort key of every listing: namespace, then name (the spec catalog's order)."""
    return name.split("_", 1)[0], name


def load() -> list[Tool]:
    """Every declared tool, in :func:`listing_order`."""
    from . import namespaces
    from .registry import REGISTRY

    global _loaded
    if not _loaded:
        for module in sorted(m.name for m in pkgutil.iter_modules(namespaces.__path__)):
            importlib.import_module(f"{namespaces.__name__}.{module}")
        _loaded = True
    return sorted(REGISTRY.values(), key=lambda t: listing_order(t.name))


@dataclass(frozen=True)
class Listed:
    """A tool as tools/list describes it, read from ``tool_list.json``."""

    name: str
    description: str
    annotations: dict[str, bool]
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]

    @property
    def namespace(self) -> str:
        return self.name.split("_", 1)[0]

    def entry(self) -> dict[str, Any]:
        """The tools/list entry, keyed as MCP spells it."""
        return {"name": self.name, "description": self.description, "annotations": self.annotations,
                "inputSchema": self.input_schema, "outputSchema": self.output_schema}


def listing_of(tools: list[Tool]) -> list[dict[str, Any]]:
    """The tools/list entries of declared tools: what ``tool_list.json`` must hold."""
    return [Listed(t.name, t.description, t.annotations, t.input_schema, t.output_schema).entry() for t in tools]


def listing_text(tools: list[Tool]) -> str:
    """``tool_list.json`` as ``scripts/gen_tool_docs.py`` writes it."""
    return json.dumps(listing_of(tools), indent=1, ensure_ascii=False) + "\n"


@cache
def _listed() -> list[Listed]:
    entries = json.loads(LISTING.read_text(encoding="utf-8"))
    return sorted((Listed(e["name"], e["description"], e["annotations"], e["inputSchema"], e["outputSchema"])
                   for e in entries), key=lambda t: listing_order(t.name))


def selection(profiles: set[str] | None, namespaces_filter: set[str] | None,
              names: set[str] | None) -> tuple[set[str] | None, set[str] | None]:
    """The namespaces and tool names that ``--profile`` / ``--namespaces`` / ``--tools`` add up to.

    ``None`` for both means every tool: nothing was asked for, or the ``all`` profile was.
    """
    unknown = (profiles or set()) - set(PROFILES)
    if unknown:
        raise ValueError(f"unknown profile {', '.join(sorted(unknown))}; choose from {', '.join(PROFILES)}")
    if profiles and "all" in profiles:
        return None, None
    chosen_namespaces, chosen_tools = set(namespaces_filter or ()), set(names or ())
    for name in profiles or ():
        for profile in (CORE, PROFILES[name]):
            chosen_namespaces |= profile.namespaces
            chosen_tools |= profile.tools
    if not profiles and namespaces_filter is None and names is None:
        return None, None
    return chosen_namespaces or None, chosen_tools or None


class _Named(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def namespace(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def annotations(self) -> dict[str, bool]: ...


def _chosen(tools: list[Any], namespaces_filter: set[str] | None, names: set[str] | None) -> list[Any]:
    if namespaces_filter is None and names is None:
        return tools
    return [t for t in tools if (names and t.name in names) or (namespaces_filter and t.namespace in namespaces_filter)]


def selected(namespaces_filter: set[str] | None = None, names: set[str] | None = None) -> list[Tool]:
    """The declared tools a server exposes under ``--namespaces`` / ``--tools``."""
    return _chosen(load(), namespaces_filter, names)


def listed(namespaces_filter: set[str] | None = None, names: set[str] | None = None) -> list[Listed]:
    """The same tools as :func:`selected`, as ``tool_list.json`` describes them (no import)."""
    return _chosen(_listed(), namespaces_filter, names)


def catalog(tools: list[_Named]) -> dict[str, Any]:
    """``--list-tools`` output: tools (with their MCP annotations), per-namespace counts, total."""
    categories: dict[str, int] = {}
    for t in tools:
        categories[t.namespace] = categories.get(t.namespace, 0) + 1
    return {
        "tools": [{"name": t.name, "description": t.description, "category": t.namespace,
                   "annotations": t.annotations} for t in tools],
        "categories": dict(sorted(categories.items())),
        "total": len(tools),
    }


__all__ = ["LISTING", "PROFILES", "Listed", "catalog", "listed", "listing_of", "listing_order", "listing_text", "load",
           "selected", "selection"]
