"""Package metadata kept in one place so /health, reports and SARIF agree on the version."""

from __future__ import annotations

import importlib.metadata

FALLBACK_VERSION = "0.1.0"
TOOL_NAME = "a11y"


def package_version() -> str:
    """The installed version of the ``a11y`` distribution, or ``0.1.0`` when run from a
    source tree that was never installed (metadata is looked up lazily, never at import)."""
    try:
        return importlib.metadata.version("a11y")
    except importlib.metadata.PackageNotFoundError:
        return FALLBACK_VERSION
