"""How a browser that runs audits is launched (the service's, a worker's, the CLI's).

Each audit request gets a browser context of its own, disposed after it (:mod:`audit.tabs`),
and the CLI's browser closes after its one audit. Chromium's spare renderer, started for the
context that last navigated, is then killed unused with its context: one renderer start per
audit for nothing, a tenth of a small page's CPU. So audit browsers run without it; the
tools' browser, whose tabs live long and cross sites, keeps it.
"""

from __future__ import annotations

from cdpdriver import LaunchOptions


def audit_launch_options() -> LaunchOptions:
    """Launch options for a browser that runs audits (see the module docstring)."""
    return LaunchOptions(spare_renderer=False)
