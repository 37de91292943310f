"""a11y-image-name-text and a11y-hidden-image-text through the real engine: the text OCR reads
in a picture (Debian's tesseract) set beside the image's name, or, for an image hidden from
assistive technologies, beside the page's text. A wordmark named for something else fails; so
does one hidden where nothing else says it; names and pages that say the words (an
abbreviation too) pass; a word on a larger picture, or one word alone, is left to review;
images in links, photographs and names that claim nothing are not judged."""

from __future__ import annotations

import dataclasses

import pytest

from audit import engine, interactive
from tests.audit.checks import support
from tests.audit.checks.support import audit_pages, outcome, page
from tests.support.site import Response

NAME = "a11y-image-name-text"
HIDDEN = "a11y-hidden-image-text"


@pytest.fixture(autouse=True)
def only_these_checks(monkeypatch):
    """These two checks alone in the interaction phase, with time for tesseract on a busy
    machine (a reading it has no time for decides nothing, which is not what is tested here)."""
    monkeypatch.setattr(
        engine,
        "selected_interactive",
        lambda version, level: [
            check for check in interactive.selected(version, level) if check.rule_id in (NAME, HIDDEN)
        ],
    )
    monkeypatch.setattr(support, "LIMITS", dataclasses.replace(support.LIMITS, interaction_budget=10.0))


def svg(width: int, height: int, body: str) -> Response:
    return Response(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">{body}</svg>',
        content_type="image/svg+xml",
    )


def text(x: int, y: int, size: int, words: str, fill: str = "#111") -> str:
    return f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="{size}" fill="{fill}">{words}</text>'


def images(site) -> None:
    # A wordmark: the picture is its text.
    site.route("/itn/wordmark.svg", svg(360, 80, '<rect width="360" height="80" fill="#fff"/>' + text(12, 54, 38, "Quayside Bakery")))
    # The same words under an emblem that is most of the picture.
    site.route(
        "/itn/emblem.svg",
        svg(
            300,
            300,
            '<rect width="300" height="300" fill="#fff"/><circle cx="150" cy="120" r="100" fill="#1a5"/>'
            '<rect x="90" y="60" width="120" height="120" fill="#fd5"/>' + text(40, 282, 30, "Quayside Bakery"),
        ),
    )
    # One word alone.
    site.route("/itn/welcome.svg", svg(300, 80, '<rect width="300" height="80" fill="#fff"/>' + text(20, 56, 42, "Welcome")))
    # A picture with no flat colour (a photograph is not read).
    site.route(
        "/itn/sunset.svg",
        svg(
            400,
            200,
            '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">'
            '<stop offset="0" stop-color="#f93"/><stop offset="1" stop-color="#339"/></linearGradient></defs>'
            '<rect width="400" height="200" fill="url(#g)"/>' + text(20, 120, 40, "Quayside Bakery", "#fff"),
        ),
    )


def img(ident: str, src: str, alt: str, width: int, height: int) -> str:
    return f'<img id="{ident}" src="/itn/{src}" alt="{alt}" width="{width}" height="{height}">'


async def test_image_name_contradicted_by_its_text(browser, site):
    images(site)
    results = await audit_pages(
        browser,
        site,
        "interactive/image-name-text",
        {
            "fail": page("<main><h1>Partners</h1>" + img("mark", "wordmark.svg", "Northwind logo", 360, 80) + "</main>"),
            # Named for what it shows, in full or as an abbreviation; an emblem's picture may be
            # what its name describes.
            "pass": page(
                "<main><h1>Partners</h1>"
                + img("full", "wordmark.svg", "Quayside Bakery logo", 360, 80)
                + img("short", "wordmark.svg", "QB logo", 360, 80)
                + "</main>"
            ),
            "review": page("<main><h1>Partners</h1>" + img("emblem", "emblem.svg", "Northwind logo", 300, 300) + "</main>"),
            # A logo link is named for where it leads; a name that claims nothing; a photograph.
            "inapplicable": page(
                '<main><h1>Partners</h1><a href="/">' + img("home", "wordmark.svg", "Home", 360, 80) + "</a>"
                + img("loaf", "wordmark.svg", "A loaf of rye bread", 360, 80)
                + img("photo", "sunset.svg", "NW logo", 400, 200)
                + "</main>"
            ),
        },
    )
    [finding] = outcome(results["fail"], NAME).findings
    assert (finding.selector, finding.source, finding.success_criteria, finding.act_rules) == (
        "#mark", "a11y", ["1.1.1"], ["qt1vmo"]
    )
    assert finding.failure_summary.startswith('OCR reads "Quayside Bakery" in this image')
    assert 'its accessible name "Northwind logo" says none of it' in finding.failure_summary
    passed = outcome(results["pass"], NAME)
    assert passed.clean and passed.tested
    review = outcome(results["review"], NAME)
    assert not review.findings and [r.selector for r in review.review] == ["#emblem"]
    inapplicable = outcome(results["inapplicable"], NAME)
    assert inapplicable.clean and not inapplicable.tested


async def test_hidden_image_showing_text_the_page_lacks(browser, site):
    images(site)
    results = await audit_pages(
        browser,
        site,
        "interactive/hidden-image-text",
        {
            "fail": page("<main><h1>Partners</h1>" + img("mark", "wordmark.svg", "", 360, 80) + "</main>"),
            # Drawn by a script on a canvas with no name (its pixels are read as they are).
            "fail-canvas": page(
                '<main><h1>Partners</h1><canvas id="mark" width="360" height="80"></canvas><script>'
                "const c = document.getElementById('mark').getContext('2d'); c.fillStyle = '#fff';"
                "c.fillRect(0, 0, 360, 80); c.fillStyle = '#123'; c.font = '38px sans-serif';"
                "c.fillText('Quayside Bakery', 12, 54);</script></main>"
            ),
            # The page says it (the heading; an abbreviation in a paragraph).
            "pass": page(
                "<main><h1>Quayside Bakery</h1>" + img("mark", "wordmark.svg", "", 360, 80) + "</main>"
            ),
            "pass-abbreviation": page(
                "<main><h1>Partners</h1><p>Bread from QB, every morning.</p>"
                '<div aria-hidden="true">' + img("mark", "wordmark.svg", "Quayside", 360, 80) + "</div></main>"
            ),
            "review": page(
                "<main><h1>Partners</h1>" + img("emblem", "emblem.svg", "", 300, 300)
                + img("hello", "welcome.svg", "", 300, 80) + "</main>"
            ),
            # Inside a link (the link's name counts), a photograph, an image with a name.
            "inapplicable": page(
                '<main><h1>Partners</h1><a href="/partners/quayside">' + img("link", "wordmark.svg", "", 360, 80)
                + "Our partner</a>" + img("photo", "sunset.svg", "", 400, 200)
                + img("named", "wordmark.svg", "Quayside Bakery", 360, 80) + "</main>"
            ),
        },
    )
    [finding] = outcome(results["fail"], HIDDEN).findings
    assert (finding.selector, finding.source, finding.success_criteria, finding.act_rules) == (
        "#mark", "a11y", ["1.1.1"], ["e88epe"]
    )
    assert finding.failure_summary.startswith(
        'This image is hidden from assistive technologies, yet OCR reads "Quayside Bakery" in it'
    )
    [drawn] = outcome(results["fail-canvas"], HIDDEN).findings
    assert drawn.selector == "#mark" and drawn.failure_summary.startswith("This canvas is hidden")
    for name in ("pass", "pass-abbreviation"):
        passed = outcome(results[name], HIDDEN)
        assert passed.clean and passed.tested, name
    review = outcome(results["review"], HIDDEN)
    assert not review.findings and sorted(r.selector for r in review.review) == ["#emblem", "#hello"]
    inapplicable = outcome(results["inapplicable"], HIDDEN)
    assert inapplicable.clean and not inapplicable.tested
