"""a11y-image-of-text through the real engine: images whose pixels are set text (read by
tesseract) fail, decorative ones and CSS backgrounds too, short texts are left to review, logos
and pictures without text pass, sprites and inline SVG text do not count."""

from __future__ import annotations

import dataclasses

import pytest

from audit import engine, interactive
from audit.interactive import image_of_text
from tests.audit.checks import support
from tests.audit.checks.support import audit_pages, outcome, page
from tests.support.site import Response

RULE = "a11y-image-of-text"


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase, with time for tesseract on a busy machine
    (a reading it has no time for decides nothing, which is not what is tested here)."""
    monkeypatch.setattr(
        engine,
        "selected_interactive",
        lambda version, level: [
            check for check in interactive.selected(version, level) if check.rule_id == RULE
        ],
    )
    monkeypatch.setattr(
        support, "LIMITS", dataclasses.replace(support.LIMITS, interaction_budget=10.0)
    )


def svg(width: int, height: int, body: str) -> Response:
    return Response(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">{body}</svg>',
        content_type="image/svg+xml",
    )


def text(x: int, y: int, size: int, words: str, fill: str = "#111") -> str:
    return f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="{size}" fill="{fill}">{words}</text>'


def images(site) -> None:
    site.route(
        "/iot/sale.svg",
        svg(
            640,
            160,
            '<rect width="640" height="160" fill="#fff"/>'
            + text(20, 70, 36, "Summer sale this week")
            + text(20, 125, 36, "every loaf half price"),
        ),
    )
    site.route(
        "/iot/order.svg",
        svg(
            180,
            50,
            '<rect width="180" height="50" rx="8" fill="#0645ad"/>'
            + text(22, 34, 26, "Order now", "#fff"),
        ),
    )
    site.route(
        "/iot/logo.svg",
        svg(
            320,
            80,
            '<rect width="320" height="80" fill="#fff"/>' + text(10, 52, 34, "Harbour Bakery"),
        ),
    )
    site.route(
        "/iot/sunset.svg",
        svg(
            400,
            200,
            '<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">'
            '<stop offset="0" stop-color="#f93"/><stop offset="1" stop-color="#339"/></linearGradient></defs>'
            '<rect width="400" height="200" fill="url(#g)"/><circle cx="200" cy="140" r="50" fill="#fd5"/>',
        ),
    )


async def test_image_of_text(browser, site):
    images(site)
    cross = site.cross_site_url("/iot/sale.svg")
    results = await audit_pages(
        browser,
        site,
        "interactive/image-of-text",
        {
            "fail": page(
                '<main><h1>News</h1><img id="sale" src="/iot/sale.svg" alt="Summer sale this week: every loaf '
                'half price" width="640" height="160"></main>'
            ),
            # The same picture from another origin: read from its file's bytes.
            "fail-cross-origin": page(
                f'<main><h1>News</h1><img id="sale" src="{cross}" alt="Summer sale" width="640" '
                'height="160"></main>'
            ),
            "review": page(
                '<main><form action="/order"><input id="order" type="image" src="/iot/order.svg" '
                'alt="Order now" width="180" height="50"></form></main>'
            ),
            # alt="" hides the text from assistive technologies; sighted users still see an image of it.
            "fail-decorative": page(
                '<main><h1>News</h1><img id="sale" src="/iot/sale.svg" alt="" width="640" height="160"></main>'
            ),
            "fail-background": page(
                '<main><h1>News</h1><div id="sale" style="background-image: url(/iot/sale.svg); '
                'width: 640px; height: 160px"></div></main>'
            ),
            # A logo and a picture without text.
            "pass": page(
                '<header><a href="/"><img src="/iot/logo.svg" alt="Harbour Bakery" width="320" height="80"></a></header>'
                '<main><h1>News</h1><img src="/iot/sunset.svg" alt="Sunset over the harbour" width="400" height="200"></main>'
            ),
            # A sprite (its file drawn at an offset) and inline SVG text, which is real text.
            "inapplicable": page(
                '<main><h1>News</h1><div style="background: url(/iot/sale.svg) -20px -10px; width: 640px; '
                'height: 160px"></div><svg width="300" height="40">'
                + text(0, 30, 24, "Summer sale this week")
                + "</svg></main>"
            ),
        },
    )
    for name in ("fail", "fail-cross-origin", "fail-decorative", "fail-background"):
        [finding] = outcome(results[name], RULE).findings
        assert (finding.source, finding.success_criteria, finding.level) == (
            "a11y",
            ["1.4.5", "1.4.9"],
            "AA",
        ), name
        assert finding.selector == "#sale" and finding.act_rules == ["0va7u6"], name
        assert finding.failure_summary.startswith(
            'Image of text: OCR reads "Summer sale this week every loaf half price"'
        ), name
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#order"]
    assert 'OCR reads "Order now" in this image button' in review.review[0].failure_summary
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested


def test_unsure_word_the_text_beside_repeats_is_a_question():
    """Ornate lettering tesseract is unsure of, repeating the text beside the image, is left to
    review; the same unsure word with nothing beside it, on a photograph or in a logo is not."""
    reading = image_of_text.Reading(
        words=(), tokens=1, unsure=(image_of_text.Word("Welcome", 36.0),)
    )
    image = {
        "kind": "decorative image",
        "name": "",
        "logo": False,
        "figure": False,
        "context": "Welcome to our website",
    }
    decided = image_of_text.verdict(image, reading, 0.6)
    assert decided is not None and decided[0] == "cantTell" and '"Welcome"' in decided[1]
    assert image_of_text.verdict({**image, "context": "Opening hours"}, reading, 0.6) is None
    assert image_of_text.verdict(image, reading, 0.1) is None
    assert image_of_text.verdict({**image, "logo": True}, reading, 0.6) is None
