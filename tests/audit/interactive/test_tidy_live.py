"""The phase's tidying of the pointer: a check that hovered an element leaves nothing hovered
behind it (the pointer goes back to the page's top left corner), and a phase whose checks never
moved the pointer sends no mouse event at all, so it hovers nothing either (a mouse event waits
for the page's next frame, which every page of a crawl would pay for)."""

from __future__ import annotations

from dataclasses import replace

from audit import interactive
from audit.interactive import interact
from audit.interactive.probe import Probe
from tests.audit.checks.support import page as html_page
from tests.audit.support import open_page

#: A corner box where the pointer is put back, and a trigger whose tip shows on hover only.
PAGE = html_page(
    "<style>body { margin: 0; } #corner { position: absolute; left: 0; top: 0; width: 40px; height: 40px; }"
    " #trigger { position: absolute; left: 200px; top: 200px; width: 80px; height: 30px; }"
    " #tip { display: none; } #trigger:hover + #tip { display: block; }</style>"
    '<div id="corner">Top</div><button id="trigger" type="button">Help</button><p id="tip">Ask the baker</p>'
)
HOVERED = "[...document.querySelectorAll(':hover')].map((el) => el.id).filter(Boolean)"


def _check(run) -> interactive.InteractiveCheck:
    [template] = [c for c in interactive.selected("2.2", "AA") if c.rule_id == "a11y-hover-content"]
    return replace(template, run=run)


async def _touch_nothing(probe: Probe):
    return
    yield  # an async generator that yields no outcome


async def test_a_hovered_element_is_left_unhovered(page, site):
    url = site.route("/tidy/hovered", PAGE)
    await open_page(page, url)
    seen: list[list[str]] = []

    async def hover(probe: Probe):
        box = await probe.main_world(
            "(() => { const r = document.getElementById('trigger').getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        await probe.move_mouse(*box)
        seen.append(await probe.main_world(HOVERED))
        return
        yield  # an async generator that yields no outcome

    await interact(page, url, [_check(hover)], 60)
    assert seen == [["trigger"]]  # the check did hover it
    assert await page.evaluate(HOVERED) == ["corner"]


async def test_a_phase_that_never_moved_the_pointer_hovers_nothing(page, site):
    url = site.route("/tidy/untouched", PAGE)
    await open_page(page, url)
    await interact(page, url, [_check(_touch_nothing)], 60)
    assert await page.evaluate(HOVERED) == []
