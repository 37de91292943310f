"""Page-side JavaScript lives in ``.js`` files beside the Python that sends it.

Each package keeps its scripts in a ``js/`` folder (``src/audit/js/``, ``src/tools/js/``,
…), shipped as package data and linted by ESLint in the test suite. A file holds exactly
one of two things, said in its first comment:

- a function expression (``function (el, options) { … }``), sent as the
  ``functionDeclaration`` of ``Runtime.callFunctionOn`` or called with JSON arguments by
  :func:`call_expression`;
- a whole script (an init script for ``Page.addScriptToEvaluateOnNewDocument``, or an
  expression whose value is wanted), sent as it is.

Files are read once per process; the Python side names each script by its file.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_script(package: str, name: str) -> str:
    """The source of ``<package>/js/<name>`` (``name`` with or without ``.js``), read once."""
    filename = name if name.endswith(".js") else f"{name}.js"
    return resources.files(package).joinpath("js", filename).read_text(encoding="utf-8").strip()


def call_expression(function_source: str, *args: Any) -> str:
    """An expression calling a function expression with JSON-encoded arguments.

    For ``Runtime.evaluate`` where ``callFunctionOn`` cannot be used (no object to call
    on, e.g. in a fresh execution context); arguments must be JSON-serialisable.
    """
    encoded = ", ".join(json.dumps(arg) for arg in args)
    return f"({function_source})({encoded})"
