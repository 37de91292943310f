"""The phase's windows (``InteractiveCheck.screen``): the checks that lay the page out in a window
of their own run widest first, the page goes from one window straight to the next, and its own
size comes back once after the last one, or from the phase's tidying when the window was held
for a check that never took it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from audit import interactive
from audit.interactive import interact
from audit.interactive import probe as probe_module
from tests.audit.checks.support import page as html_page
from tests.audit.support import open_page

TEXT = "Our harbour bakery opens a second shop this spring, with a bigger oven and longer hours."
#: Too wide at 320 px (a11y-reflow) and a box of fixed size that cuts its text at 640 x 512
#: (a11y-zoom-clipped-text): one finding each.
BOTH = html_page(
    "<style>body { font: 16px/1.5 sans-serif; margin: 8px; } .box { width: 600px; height: 3em; overflow: hidden; }"
    f'</style><main><h1>News</h1><div class="hero" style="width: 700px"><p>{TEXT}</p></div>'
    f'<div class="box" id="cut"><p>{TEXT} {TEXT} {TEXT} {TEXT} {TEXT}</p></div></main>'
)
OWN_SIZE = "[innerWidth, innerHeight]"


@pytest.fixture
def overrides(monkeypatch):
    """Every window size the probe sets (None: the page's own screen put back), in order."""
    sizes: list[tuple[int, int] | None] = []
    set_size, clear = (
        probe_module.emulation.set_device_metrics_override,
        probe_module.emulation.clear_device_metrics_override,
    )

    def counted_set(width, height, *args, **kwargs):
        sizes.append((width, height))
        return set_size(width, height, *args, **kwargs)

    def counted_clear():
        sizes.append(None)
        return clear()

    monkeypatch.setattr(probe_module.emulation, "set_device_metrics_override", counted_set)
    monkeypatch.setattr(probe_module.emulation, "clear_device_metrics_override", counted_clear)
    return sizes


def _checks(*rule_ids: str) -> list[interactive.InteractiveCheck]:
    return [c for c in interactive.selected("2.2", "AA") if c.rule_id in rule_ids]


async def test_windows_run_widest_first_and_the_own_size_comes_back_once(page, site, overrides):
    url = site.route("/screens/both", BOTH)
    await open_page(page, url)
    own = await page.evaluate(OWN_SIZE)
    report = await interact(page, url, _checks("a11y-reflow", "a11y-zoom-clipped-text"), 60)

    failed = {rule["id"]: rule["nodes"] for rule in report.results["violations"]}
    assert set(failed) == {"a11y-reflow", "a11y-zoom-clipped-text"}, report.info
    assert "div.hero" in failed["a11y-reflow"][0]["failureSummary"]
    assert failed["a11y-zoom-clipped-text"][0]["target"] == ["#cut"]
    # 640 x 512, then straight on to 320 x 256, then the page's own screen: no relayout at its
    # own size in between.
    assert overrides[:2] == [(640, 512), (320, 256)] and len(overrides) == 3, overrides
    assert await page.evaluate(OWN_SIZE) == own


async def test_a_window_held_for_a_check_that_never_takes_it_is_put_back(page, site, overrides):
    """The window the zoom check leaves for a following one goes when the phase ends, even if
    that check never asks for a window of its own."""

    async def idle(probe):
        return
        yield

    [zoom] = _checks("a11y-zoom-clipped-text")
    other = replace(zoom, rule_id="a11y-test-idle-window", run=idle, screen=(320, 256))
    url = site.route("/screens/held", BOTH)
    await open_page(page, url)
    own = await page.evaluate(OWN_SIZE)
    report = await interact(page, url, [other, zoom], 60)

    assert report.info.ran == ["a11y-zoom-clipped-text", "a11y-test-idle-window"], report.info
    assert overrides[0] == (640, 512) and len(overrides) == 2, overrides
    assert await page.evaluate(OWN_SIZE) == own
