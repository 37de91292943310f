"""a11y-text-spacing through the real engine: with WCAG 1.4.12's spacing, text cut by a box of
fixed size, and text running into the text below it, fail; boxes that grow with their text
pass; a page without text does not apply."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-text-spacing"
TEXT = "Our harbour bakery opens a second shop this spring, with a bigger oven."
STYLE = "<style>body { font: 16px/1.2 sans-serif; } .box { width: 300px; line-height: 20px; }</style>"


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


async def test_text_spacing(browser, site):
    results = await audit_pages(browser, site, "interactive/spacing", {
        # Two lines fit the box's 40 px until the spacing makes them taller.
        "fail-clipped": page(
            f'<main><h1>News</h1><div class="box" id="teaser" style="height: 40px; overflow: hidden">{TEXT}</div></main>',
            head=STYLE,
        ),
        # The same box without overflow hidden: its text runs into the next paragraph.
        "fail-overlap": page(
            f'<main><h1>News</h1><div class="box" id="fixed" style="height: 40px">{TEXT}</div>'
            '<p class="box" id="next">The next paragraph sits right below it.</p></main>',
            head=STYLE,
        ),
        # Boxes that grow with their text; a paragraph whose author set its spacing inline.
        "pass": page(
            f'<main><h1>News</h1><div class="box" style="min-height: 40px; overflow: hidden">{TEXT}</div>'
            '<p class="box">The next paragraph sits right below it.</p>'
            f'<p style="line-height: 1.6 !important; max-width: 20em">{TEXT}</p></main>',
            head=STYLE,
        ),
        "inapplicable": page('<main><img src="/audit/pixel.png" alt="" width="20" height="20"></main>'),
    })
    [clipped] = outcome(results["fail-clipped"], RULE).findings
    assert (clipped.source, clipped.success_criteria, clipped.level) == ("a11y", ["1.4.12"], "AA")
    assert clipped.selector == "#teaser" and clipped.act_rules == []
    summary = clipped.failure_summary or ""
    assert summary.startswith("With WCAG 1.4.12's text spacing (line height 1.5, letter spacing 0.12 em")
    assert "div#teaser.box, which hides its overflow, hides" in summary and '"Our harbour bakery' in summary
    [overlap] = outcome(results["fail-overlap"], RULE).findings
    assert overlap.selector == "#fixed"
    assert 'overlaps the text of p#next.box ("The next paragraph' in (overlap.failure_summary or "")
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
