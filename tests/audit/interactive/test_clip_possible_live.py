"""The read that spares a11y-zoom-clipped-text its relayout (``js/clip_possible.js``): it must
say "may clip" wherever some window size could hide overflow, however the style is written,
and "cannot" only where nothing can; and the check it guards still fails a clip that only a
media query for narrow windows makes."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from cdpdriver.scripts import call_expression, load_script
from tests.audit.checks.support import audit_pages, outcome, page
from tests.support.site import Response

RULE = "a11y-zoom-clipped-text"
POEM = (
    "Once upon a midnight dreary, while I pondered, weak and weary, over many a quaint and curious volume "
    "of forgotten lore, while I nodded, nearly napping, suddenly there came a tapping."
)
PLAIN = f"<main><h1>Poem</h1><p>{POEM}</p><ul><li><a href='/next'>Next</a></li></ul></main>"
NARROW_ONLY = "@media (max-width: 700px) { .teaser { overflow: hidden; height: 1.5em } }"


def css(body: str) -> Response:
    return Response(body, content_type="text/css")


async def test_clip_possible_reads_every_way_a_style_can_hide_overflow(browser, site):
    site.route("/clip/imported.css", css(".teaser { overflow-y: clip }"))
    site.route("/clip/plain.css", css("p { color: #222 } @media print { p { color: black } }"))
    site.route("/clip/import.css", css("@import url('/clip/imported.css');"))
    cross = site.cross_site_url("/clip/plain.css")  # unreadable from the page: it may hide anything
    cases = {
        "nothing": (f"<link rel=stylesheet href='/clip/plain.css'><style>p {{ overflow: visible }}</style>{PLAIN}", False),
        "scrolls": (f"<style>pre {{ overflow: auto }}</style>{PLAIN}", False),
        "rule": (f"<style>.teaser {{ overflow: hidden }}</style>{PLAIN}", True),
        "narrow media query": (f"<style>{NARROW_ONLY}</style>{PLAIN}", True),
        "layer and supports": (
            "<style>@layer base { @supports (display: grid) { p { overflow-x: clip } } }</style>" + PLAIN, True),
        "nested rule": (f"<style>main {{ & p {{ overflow: hidden auto }} }}</style>{PLAIN}", True),
        "variable": (f"<style>p {{ overflow: var(--cut) }}</style>{PLAIN}", True),
        "import": (f"<link rel=stylesheet href='/clip/import.css'>{PLAIN}", True),
        "inline": (f"<main><h1>Poem</h1><p style='overflow: hidden'>{POEM}</p></main>", True),
        "cross-origin sheet": (f"<link rel=stylesheet href='{cross}'>{PLAIN}", True),
        "marquee": (f"<main><h1>News</h1><marquee>{POEM}</marquee></main>", True),
        "host rule": (
            f"<main><h1>Poem</h1><x-card>{POEM}</x-card></main><script>customElements.define('x-card', class "
            "extends HTMLElement { constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = "
            "'<style>:host { display: block; overflow: hidden; height: 1em }</style><slot></slot>'; } });</script>",
            True),
        "closed shadow root": (
            f"<main><h1>Poem</h1><x-box>{POEM}</x-box></main><script>customElements.define('x-box', class "
            "extends HTMLElement { constructor() { super(); this.attachShadow({mode: 'closed'}); } });</script>",
            True),
    }
    script = call_expression(load_script("audit.interactive", "clip_possible"))
    found = {}
    async with browser.page() as tab:
        for name, (body, _) in cases.items():
            await tab.navigate(site.route(f"/clip/{name.replace(' ', '-')}.html", page(body)))  # to load
            found[name] = await tab.evaluate(script)
    assert found == {name: expected for name, (_, expected) in cases.items()}


@pytest.fixture
def only_this_check(monkeypatch):
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


@pytest.mark.usefixtures("only_this_check")
async def test_a_clip_only_narrow_windows_make_is_still_found(browser, site):
    results = await audit_pages(browser, site, "interactive/zoom-clip-media", {
        "fail": page(f"<style>{NARROW_ONLY}</style><main><h1>Poem</h1><div class='teaser'>{POEM}</div></main>"),
        "inapplicable": page(PLAIN),
    })
    [finding] = outcome(results["fail"], RULE).findings
    assert finding.selector == "html > body > main > div"
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
