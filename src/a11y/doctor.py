"""``a11y doctor``: prove the browser starts and the axe bundle loads, say where each is."""

from __future__ import annotations

import argparse
import sys

import trio


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")  # stdout-ok: doctor is a terminal command, not the MCP stream


async def _check_browser() -> tuple[bool, str]:
    from cdpdriver import CDPError, find_chromium, launch

    try:
        path = find_chromium()
    except CDPError as exc:
        return False, (f"browser: MISSING — {exc}\n  remedy: apt-get install chromium "
                       "(or bash scripts/install.sh), or point CHROME_PATH at a Chromium binary")
    try:
        with trio.fail_after(30):
            async with launch() as browser:
                version = browser.version
        return True, f"browser: {version.product if version else '?'} (protocol {version.protocol_version if version else '?'}) at {path}"
    except (CDPError, trio.TooSlowError) as exc:
        return False, f"browser: FAILED to start {path} — {exc}\n  remedy: install Debian's chromium (apt-get install chromium) or set CHROME_PATH"


def _check_axe() -> tuple[bool, str]:
    from audit.axe_bundle import AxeBundleMissing, load_bundle

    try:
        bundle = load_bundle()
    except AxeBundleMissing as exc:
        return False, f"axe-core: MISSING — {exc}\n  remedy: bash scripts/install.sh (fetches the pinned bundle)"
    return True, f"axe-core: {bundle.version} at {bundle.path}"


def run(args: argparse.Namespace) -> int:
    from . import __version__

    _say(f"a11y {__version__} (Python {sys.version.split()[0]})")
    browser_ok, browser_line = trio.run(_check_browser)
    axe_ok, axe_line = _check_axe()
    _say(browser_line)
    _say(axe_line)
    ok = browser_ok and axe_ok
    _say("all good" if ok else "problems found: see the remedies above")
    return 0 if ok else 1
