"""a11y-contrast-over-image (WCAG 1.4.3) through the real engine: white text on a pale photo
and on a pale gradient fails, measured on the pixels behind it; white text on a dark photo or
a dark gradient passes; text over a background half dark and half light, and text with a
shadow halo, are left for review; a page without text over images does not apply. The text
is shown again afterwards."""

from __future__ import annotations

import io
import json
import random

import pytest
import trio
from PIL import Image

from audit import engine, interactive
from audit.interactive import contrast_over_image
from audit.interactive.probe import Probe
from audit.tab_setup import set_up
from tests.audit.checks.support import audit_pages, outcome, page
from tests.audit.support import open_page
from tests.support.site import Response

RULE = "a11y-contrast-over-image"


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


def photo(low: int, high: int) -> bytes:
    """A 'photo' of speckled greys between ``low`` and ``high``."""
    rng = random.Random(low * 256 + high)
    image = Image.new("RGB", (240, 120))
    image.putdata([(v, v, min(255, v + 8)) for v in (rng.randint(low, high) for _ in range(240 * 120))])
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def hero(background: str, text_style: str = "") -> str:
    return page(
        "<style>body { margin: 0; font: 16px sans-serif } .hero { padding: 2em; color: #fff;"
        f" background: {background}; background-size: cover }} .hero h1 {{ margin: 0; {text_style} }}</style>"
        '<main><div class="hero"><h1 id="headline">Fresh bread by the harbour</h1>'
        '<p id="tagline">Open every morning from seven</p></div><p>Our bakery has served the town since 1921.</p></main>'
    )


async def test_contrast_over_image(browser, site):
    site.route("/interactive/contrast-image/pale.png", Response(photo(200, 240), content_type="image/png"))
    site.route("/interactive/contrast-image/dark.png", Response(photo(10, 60), content_type="image/png"))
    results = await audit_pages(browser, site, "interactive/contrast-image", {
        "fail-photo": hero("url(/interactive/contrast-image/pale.png)"),
        "fail-gradient": hero("linear-gradient(#e0e4ea, #f4f6f8)"),
        "pass": hero("url(/interactive/contrast-image/dark.png)"),
        "pass-gradient": hero("linear-gradient(#102030, #203040)"),
        "review": hero("repeating-linear-gradient(to right, #000 0 20px, #fff 20px 40px)"),
        "review-halo": hero("linear-gradient(#e0e4ea, #f4f6f8)", "text-shadow: 0 0 4px #000"),
        "pass-halo": hero("linear-gradient(#102030, #203040)", "text-shadow: 0 1px 1px #fff"),
        "inapplicable": page("<main><h1>Bread</h1><p>Rye keeps for days.</p></main>"),
    })
    for name in ("fail-photo", "fail-gradient"):
        fail = outcome(results[name], RULE)
        assert sorted(f.selector for f in fail.findings) == ["#headline", "#tagline"], (name, fail)
        summary = fail.findings[0].failure_summary or ""
        assert "Measured on the pixels behind it" in summary and "below the" in summary, summary
        assert (tuple(fail.findings[0].success_criteria), fail.findings[0].level) == (("1.4.3",), "AA")
    for name in ("pass", "pass-gradient"):
        passed = outcome(results[name], RULE)
        assert passed.clean and passed.tested, (name, passed)
    review = outcome(results["review"], RULE)
    assert not review.findings and {r.selector for r in review.review} == {"#headline", "#tagline"}, review
    assert "part of it reaches" in (review.review[0].failure_summary or "")
    halo = outcome(results["review-halo"], RULE)
    assert [r.selector for r in halo.review if "shadow" in (r.failure_summary or "")] == ["#headline"], halo
    assert [f.selector for f in halo.findings] == ["#tagline"], halo
    # A shadowed text that passes on the pixels alone passes.
    assert outcome(results["pass-halo"], RULE).clean and outcome(results["pass-halo"], RULE).tested
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested


async def test_the_text_is_shown_again(page, site):
    """Once measured, the text has its colour back and the page holds nothing of the check's."""
    url = site.route("/interactive/contrast-image/restored", hero("linear-gradient(#e0e4ea, #f4f6f8)"))
    await set_up(page)
    await open_page(page, url)
    probe = Probe(page, url, trio.current_time() + 60, rules=[RULE])
    outcomes = [o async for o in contrast_over_image.run(probe)]
    assert [o.verdict for o in outcomes] == ["failed", "failed"]
    state = await page.evaluate(
        "JSON.stringify([getComputedStyle(document.getElementById('headline')).color,"
        " document.querySelectorAll('[data-a11y-probe-hide-text], style[data-a11y-probe-hide-text-sheet]').length])"
    )
    assert json.loads(state) == ["rgb(255, 255, 255)", 0]
