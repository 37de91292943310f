"""a11y-hidden-visible-text (WCAG 1.3.1) through the real engine: a notice shown on screen but
hidden from screen readers fails; the same text said another way (a visually hidden copy, a
carousel's original, the accessible name of its link) passes; a label around it in other
words needs review; icons, short marks and hidden elements do not apply."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-hidden-visible-text"
SR_ONLY = ".sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0) }"


async def test_hidden_visible_text(browser, site):
    results = await audit_pages(
        browser,
        site,
        "checks/hidden-visible-text",
        {
            "fail": page(
                "<main><h1>Opening hours</h1><p>We are open every weekday.</p>"
                '<p id="notice" aria-hidden="true">Offices close at <strong>noon</strong> on Friday.</p></main>'
            ),
            "pass": page(
                f"<style>{SR_ONLY}</style><main><h1>Offers</h1>"
                '<div aria-hidden="true">Summer sale starts Monday</div><p class="sr-only">Summer sale starts Monday</p>'
                '<ul><li>Free delivery on big orders</li><li aria-hidden="true">Free delivery on big orders</li></ul>'
                '<a href="/prices" aria-label="Read more about our prices"><span aria-hidden="true">Read more about prices</span></a>'
                "</main>"
            ),
            "review": page(
                '<main><h1>Reviews</h1><div aria-label="Rating: 4 of 5 stars">'
                '<span id="stars" aria-hidden="true">Four out of five</span></div></main>'
            ),
            "inapplicable": page(
                "<main><h1>Reviews</h1><p>Rated by our customers.</p>"
                '<span aria-hidden="true">\u2605\u2605\u2605\u2605</span> <span aria-hidden="true">Top pick</span>'
                '<p aria-hidden="true" style="display:none">Offices close at noon on Friday.</p></main>'
            ),
        },
        checks={"interaction": False},  # a static check: the interaction phase adds nothing here
    )
    fail = outcome(results["fail"], RULE)
    assert [f.selector for f in fail.findings] == ["#notice"]
    assert 'The text "offices close at noon on friday" is shown on screen' in (fail.findings[0].failure_summary or "")
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#stars"]
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
