"""Whether a new window size can run the page's own scripts (:mod:`audit.interactive.new_size`),
read through real Chromium: each way a script can answer a new size is seen (the window's resize
listeners by the debugger, the rest by the readiness tracker), style sheets alone and a media
query read once are not, and a tracker that came after the page's first script cannot tell. Only
a page that may answer is given the frame that runs its answer."""

from __future__ import annotations

import pytest
import trio

from audit.interactive import new_size
from audit.interactive.probe import Probe
from audit.readiness import settle
from tests.audit.checks.support import page as html_page
from tests.audit.support import open_page

TEXT = "<main><h1>News</h1><p>Our harbour bakery opens a second shop this spring.</p></main>"
NARROW_CSS = "<style>@media (max-width: 600px) { main { font-size: 14px; } }</style>"


def _scripted(script: str, body: str = TEXT) -> str:
    return html_page(f"{body}<script>{script}</script>", head=NARROW_CSS)


#: name -> (page, what the tracker lists, whether the page may answer a new size)
CASES = {
    "style-sheets-only": (html_page(TEXT, head=NARROW_CSS), [], False),
    "query-read-once": (_scripted("document.body.dataset.wide = matchMedia('(min-width: 600px)').matches"), [], False),
    "resize-listener": (_scripted("addEventListener('resize', () => { document.title = innerWidth; })"), [], True),
    "onresize-attribute": (html_page(TEXT).replace("<body>", '<body onresize="document.title = innerWidth">'), [], True),
    "media-query-listener": (
        _scripted("matchMedia('(min-width: 600px)').addEventListener('change', () => {})"), ["media-query"], True),
    "media-query-handler": (
        _scripted("matchMedia('(min-width: 600px)').onchange = () => {}"), ["media-query"], True),
    "legacy-media-query-listener": (
        _scripted("matchMedia('(min-width: 600px)').addListener(() => {})"), ["media-query"], True),
    "resize-observer": (
        _scripted("new ResizeObserver(() => {}).observe(document.body)"), ["resize-observer"], True),
    "visual-viewport": (
        _scripted("visualViewport.addEventListener('resize', () => {})"), ["visual-viewport"], True),
    "frame": (html_page(f'{TEXT}<iframe title="Map" srcdoc="<p>A map</p>"></iframe>'), ["frame"], True),
}


@pytest.mark.parametrize("name", list(CASES))
async def test_what_a_new_size_can_run(page, site, name):
    html, watchers, reacts = CASES[name]
    url = site.route(f"/interactive/new-size/{name}", html)
    await open_page(page, url)
    probe = Probe(page, url, trio.current_time() + 30)
    assert await probe.main_world(new_size.SIZE_WATCHERS) == watchers
    assert await new_size.reacts_to_size(probe) is reacts


async def test_a_tracker_installed_after_the_first_script_cannot_tell(page, site):
    url = site.route("/interactive/new-size/late", html_page(TEXT, head=NARROW_CSS))
    await page.navigate(url, wait_until="load")  # no init script: settle installs the tracker late
    await settle(page)
    probe = Probe(page, url, trio.current_time() + 30)
    assert await probe.main_world(new_size.SIZE_WATCHERS) is None
    assert await new_size.reacts_to_size(probe) is True


async def test_only_a_page_that_may_answer_gets_a_frame(page, site, monkeypatch):
    waited: list[int] = []
    real_frames = Probe.frames

    async def counted(self, count=2):
        waited.append(count)
        await real_frames(self, count)

    monkeypatch.setattr(Probe, "frames", counted)
    for name, expected in (("style-sheets-only", []), ("resize-observer", [1])):
        waited.clear()
        url = site.route(f"/interactive/new-size/screen-{name}", CASES[name][0])
        await open_page(page, url)
        probe = Probe(page, url, trio.current_time() + 30)
        async with probe.screen(320, 256):
            await new_size.after_new_size(probe)
            assert await probe.main_world("innerWidth") == 320
        assert waited == expected, name
