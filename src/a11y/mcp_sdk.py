"""The MCP SDK's stdio server, imported without what a stdio server never uses.

``import mcp.server.lowlevel`` first runs ``mcp/__init__.py`` and ``mcp/server/__init__.py``,
which re-export the SDK's public names and so import the client (its sessions, the
in-process transport, OAuth) and the high-level ``MCPServer`` (resources, prompts,
templates) with their HTTP stacks: about a seventh of the server's start-up, which an agent
waits for, and nothing a stdio server uses. The server modules import their siblings by
full path and never read those two packages' namespaces, so a process that imports nothing
else of the SDK can give both packages bare namespaces instead.

That is checked, not assumed: when the SDK is already imported (tests, an embedding
program), or the bare import fails (an SDK release whose server reads its package
namespace), the SDK is imported the usual way; the stdio tests start the server as an agent
does, through this path.

The SDK defines some 700 pydantic models (every message of three protocol revisions), and
pydantic builds each one's validator as its class is created; a server uses a few dozen. So
the import runs with pydantic's default ``defer_build`` on, and each model is built the
first time it validates or serialises (a few milliseconds once per message kind): another
seventh of the start-up. pydantic offers that default only through its internal config
defaults, so they are checked first and left alone when they do not look as expected.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import logging
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_SERVER_MODULES = ("mcp.server.lowlevel", "mcp.server.stdio")


def import_stdio_server() -> None:
    """Import the low-level server and the stdio transport, as cheaply as is safe."""
    if "mcp" in sys.modules:
        _import_server_modules()
        return
    with _models_built_on_first_use():
        if _bare_packages():
            try:
                _import_server_modules()
                return
            except ImportError as exc:
                log.debug("the SDK's server needs its package namespaces (%s); importing them", exc)
                for name in [n for n in sys.modules if n == "mcp" or n.startswith("mcp.")]:
                    del sys.modules[name]
        _import_server_modules()


@contextmanager
def _models_built_on_first_use() -> Iterator[None]:
    """pydantic models created in the block build their validators when first used."""
    defaults = _pydantic_config_defaults()
    if defaults is None:
        yield
        return
    defaults["defer_build"] = True
    try:
        yield
    finally:
        defaults["defer_build"] = False


def _pydantic_config_defaults() -> dict[str, Any] | None:
    """pydantic's default model config, if it is the dict this module expects."""
    try:
        from pydantic._internal import _config
    except ImportError:
        return None
    defaults = getattr(_config, "config_defaults", None)
    return defaults if isinstance(defaults, dict) and defaults.get("defer_build") is False else None


def _bare_packages() -> bool:
    """Register ``mcp`` and ``mcp.server`` as bare packages; False when the SDK is not found."""
    spec = importlib.util.find_spec("mcp")  # finds, without running, mcp/__init__.py
    if spec is None or not spec.submodule_search_locations:
        return False
    root = Path(next(iter(spec.submodule_search_locations)))
    for name, path in (("mcp", root), ("mcp.server", root / "server")):
        package_spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
        package_spec.submodule_search_locations = [str(path)]
        package = types.ModuleType(name)
        package.__spec__ = package_spec
        package.__path__ = [str(path)]
        package.__package__ = name
        sys.modules[name] = package
    sys.modules["mcp"].server = sys.modules["mcp.server"]  # type: ignore[attr-defined]
    return True


def _import_server_modules() -> None:
    for name in _SERVER_MODULES:
        importlib.import_module(name)
