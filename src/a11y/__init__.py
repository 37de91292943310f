"""a11y: WCAG audits and an MCP browser tool server on a Trio CDP client.

The Python API (``from a11y import audit, audit_sync, Auditor``; docs/python-api.md) is
loaded on first use through the module's ``__getattr__``: importing ``a11y`` itself stays as
cheap as it was, so ``python -m a11y mcp`` and the pytest plugin start without the engine.
"""

from __future__ import annotations

# The one place the version is written: pyproject.toml reads it from here (setuptools'
# dynamic version), so start-up never searches the installed distributions for it.
__version__ = "0.1.0"

#: Public name -> the module that defines it, imported when the name is first used.
_LAZY_EXPORTS = {
    "audit": "a11y.api",
    "Auditor": "a11y.api",
    "AuditRequestError": "a11y.api",
    "make_request": "a11y.api",
    "audit_sync": "a11y.api_sync",
    "SyncAuditor": "a11y.api_sync",
    "AuditRequest": "audit.models",
    "AuditResult": "audit.models",
    "Finding": "audit.models",
    "AuditFailed": "audit.failures",
}

__all__ = ["__version__", *_LAZY_EXPORTS]


def __getattr__(name: str) -> object:
    module = _LAZY_EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'a11y' has no attribute {name!r}")
    from importlib import import_module  # here, not at the top: importing a11y stays free

    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_EXPORTS})
