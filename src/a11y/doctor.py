"""``a11y doctor``: prove the browser starts and the axe bundle loads, say where each is.

Its remedies fit how a11y was installed: a contributor in a source checkout is pointed at the
checkout's ``scripts/install.sh``; a user of the wheel (pipx, ``uv tool``) has no such script,
so is given the system's own command and ``CHROME_PATH``. It also warns when another
installed distribution claims one of our top-level package names (:mod:`a11y.name_conflicts`).
"""

from __future__ import annotations

import argparse
import sys

import trio

from .name_conflicts import describe, foreign_owners


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")  # stdout-ok: doctor is a terminal command, not the MCP stream


def browser_remedy() -> str:
    """How to get a browser: the system's package, or ``CHROME_PATH`` at one already there.
    Only a source checkout has ``scripts/install.sh`` to offer as well."""
    from audit.axe_bundle import in_checkout

    remedy = (
        "install Chromium — Debian: `sudo apt-get install chromium`; Ubuntu: "
        "`sudo snap install chromium` — or set CHROME_PATH to a Chromium or Chrome binary "
        "(e.g. `export CHROME_PATH=/usr/bin/google-chrome`)"
    )
    return remedy + (
        "; in this checkout `bash scripts/install.sh` does it" if in_checkout() else ""
    )


async def _check_browser() -> tuple[bool, str]:
    from cdpdriver import CDPError, find_chromium, launch

    try:
        path = find_chromium()
    except CDPError as exc:
        return False, f"browser: MISSING — {exc}\n  remedy: {browser_remedy()}"
    try:
        with trio.fail_after(30):
            async with launch() as browser:
                version = browser.version
        return (
            True,
            f"browser: {version.product if version else '?'} (protocol {version.protocol_version if version else '?'}) at {path}",
        )
    except (CDPError, trio.TooSlowError) as exc:
        return False, f"browser: FAILED to start {path} — {exc}\n  remedy: {browser_remedy()}"


def _check_axe() -> tuple[bool, str]:
    from audit.axe_bundle import AxeBundleMissing, load_bundle

    try:
        bundle = load_bundle()
    except AxeBundleMissing as exc:  # its message says what to do, fitting this installation
        return False, f"axe-core: MISSING — {exc}"
    return True, f"axe-core: {bundle.version} at {bundle.path}"


def run(args: argparse.Namespace) -> int:
    from . import __version__

    _say(f"a11y {__version__} (Python {sys.version.split()[0]})")
    browser_ok, browser_line = trio.run(_check_browser)
    axe_ok, axe_line = _check_axe()
    _say(browser_line)
    _say(axe_line)
    for line in describe(foreign_owners()):
        _say(line)
    ok = browser_ok and axe_ok
    _say("all good" if ok else "problems found: see the remedies above")
    return 0 if ok else 1
