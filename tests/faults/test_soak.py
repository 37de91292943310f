"""A short soak in CI (the full one is ``scripts/bench/soak.py``): audits through the service
and MCP tool calls side by side leave no target, renderer, descriptor or memory behind.

The soak has a browser of its own: the session's shared one also serves the tests that other
workers run at the same time, so its renderers and memory say nothing about this work (a
run failed when another worker's pages grew the shared browser by 19 % during the soak)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from tests.support.chrome import SharedChromium

SOAK_PATH = Path(__file__).resolve().parents[2] / "scripts" / "bench" / "soak.py"


def _soak_module():
    spec = importlib.util.spec_from_file_location("a11y_soak", SOAK_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


async def test_a_short_soak_leaves_nothing_behind(site, tmp_path):
    soak = _soak_module()
    for path, body in soak.soak_site_routes().items():
        site.route(path, body)
    chromium = SharedChromium()  # this test's alone (see the module's docstring)
    try:
        before, after = await soak.soak(
            chromium.ws_url, site.url("").rstrip("/"), audits=16, tool_calls=120, output_dir=tmp_path,
            measure=lambda: soak.snapshot(chromium.process.pid, chromium.http_url), warm_up=0.25,
        )
    finally:
        chromium.stop()
    assert after.page_targets <= before.page_targets, (before, after)
    assert after.renderers <= before.renderers, (before, after)
    assert after.fds <= before.fds + 2, (before, after)
    growth = before.growth(after)
    assert growth["rss_kb"] < 0.10, (before, after)
    assert growth["browser_private_kb"] < 0.10, (before, after)
