"""Import every namespace module so the registry is complete, then describe it.

Namespace modules live in ``tools/namespaces/`` and are discovered, so adding
a namespace never means editing a shared list.
"""

from __future__ import annotations

import importlib
import pkgutil

from . import namespaces
from .registry import REGISTRY, Tool, catalog

_loaded = False


def load() -> list[Tool]:
    """Every declared tool, sorted by name."""
    global _loaded
    if not _loaded:
        for module in sorted(m.name for m in pkgutil.iter_modules(namespaces.__path__)):
            importlib.import_module(f"{namespaces.__name__}.{module}")
        _loaded = True
    return sorted(REGISTRY.values(), key=lambda t: t.name)


def selected(namespaces_filter: set[str] | None = None, names: set[str] | None = None) -> list[Tool]:
    """The tools a server exposes under ``--namespaces`` / ``--tools``."""
    tools = load()
    if namespaces_filter is None and names is None:
        return tools
    return [t for t in tools if (names and t.name in names) or (namespaces_filter and t.namespace in namespaces_filter)]


__all__ = ["catalog", "load", "selected"]
