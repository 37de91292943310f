"""``a11y --version``: the package's version with the axe-core and browser versions it runs.

A bug report needs all three: the findings are axe-core's and ours, the page is Chromium's.
Neither the bundle nor the browser is loaded for it: the bundle's banner is read from its
first bytes, and the browser is asked with its own ``--version`` (a short-lived child).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__

#: Upper bound on ``chromium --version``, against a wrapper script that hangs.
BROWSER_VERSION_TIMEOUT_S = 15.0


def axe_version() -> str:
    """The bundled axe-core's version, or why there is none."""
    from audit.axe_bundle import AxeBundleMissing, find_bundle

    try:
        path = find_bundle()
        with path.open(encoding="utf-8") as fh:
            banner = fh.read(500)
    except (AxeBundleMissing, OSError):
        return "missing (see `a11y doctor`)"
    match = re.search(r"axe v(\d+\.\d+\.\d+)", banner)
    return match.group(1) if match else "unknown"


def browser_version() -> str:
    """What the browser the audits would launch says of itself, or why it cannot."""
    from cdpdriver import CDPError, find_chromium

    try:
        path = find_chromium()
    except CDPError:
        return "missing (see `a11y doctor`)"
    try:
        done = subprocess.run(
            [path, "--version"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=BROWSER_VERSION_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unknown ({path}: {exc})"
    said = done.stdout.strip()
    return said if done.returncode == 0 and said else f"unknown ({path} --version failed)"


def version_text() -> str:
    """``a11y X (axe-core Y, Chromium Z)``."""
    return f"a11y {__version__} (axe-core {axe_version()}; browser {browser_version()})"


class VersionAction(argparse.Action):
    """``--version`` that looks the versions up only when asked, then exits like argparse's."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str = argparse.SUPPRESS,
        default: str = argparse.SUPPRESS,
        help: str | None = None,
    ) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> NoReturn:
        sys.stdout.write(version_text() + "\n")  # stdout-ok: a terminal command, not the MCP stream
        parser.exit()
