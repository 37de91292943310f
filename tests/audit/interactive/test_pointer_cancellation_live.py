"""a11y-pointer-cancellation through the real engine: controls that navigate, open a window or
submit a form as soon as the button goes down (on the element, and through a container that
delegates), told from look-alikes whose down-event only gives feedback or keeps focus, whose
action waits for the click, or whose listener is the document's."""

from __future__ import annotations

import pytest

from tests.audit.checks.support import audit_pages, interactive_alone, outcome, page

RULE = "a11y-pointer-cancellation"


@pytest.fixture(autouse=True)
def alone(monkeypatch):
    interactive_alone(monkeypatch, RULE)


FAIL = page(
    '<main><h1>Shop</h1><p><a id="buy" href="/basket" onmousedown="location.href = \'/checkout\'">Buy now</a></p>'
    '<ul id="menu"><li><a href="/cakes">Cakes</a></li><li><a href="/bread">Bread</a></li></ul>'
    '<form action="/order"><label for="q">Quantity</label> <input id="q" value="1"> '
    '<button type="button" id="send" onmousedown="this.form.submit()">Order</button></form>'
    '<button type="button" id="help">Help</button></main>'
    "<script>"
    "document.getElementById('menu').addEventListener('mousedown', (e) => {"
    " const link = e.target.closest('a'); if (link) location.href = link.href + '?from=menu'; });"
    "document.getElementById('help').addEventListener('pointerdown', () => window.open('/help', '_blank'));"
    "</script>"
)
PASS = page(
    '<main><h1>Shop</h1><p><a id="buy" href="/basket" onmousedown="this.dataset.pressed = 1">Buy now</a></p>'
    '<p><button type="button" id="pay" onmousedown="this.classList.add(\'pressed\')" '
    "onclick=\"location.href = '/checkout'\">Pay</button></p>"
    '<div role="toolbar" aria-label="Format"><button type="button" id="bold" '
    'onmousedown="event.preventDefault()">Bold</button></div></main>'
    "<script>document.addEventListener('mousedown', (e) => { window.lastPress = e.target.localName; });</script>"
)
REVIEW = page(
    '<main><h1>Shop</h1><p><a id="once" href="/basket" '
    "onmousedown=\"if (!window.pressedOnce) { window.pressedOnce = true; location.href = '/checkout'; }\">"
    "Buy now</a></p></main>"
)
NONE = page('<main><h1>Shop</h1><p>Closed today. <a href="/hours">Opening hours</a></p></main>')


async def test_pointer_cancellation(browser, site):
    results = await audit_pages(browser, site, "interactive/pointer-down", {
        "fail": FAIL, "pass": PASS, "review": REVIEW, "inapplicable": NONE,
    }, level="A")
    info = {name: [(s.reason, s.message) for s in result.pages[0].interaction.skipped if s.rule_id == RULE]
            for name, result in results.items()}
    found = {f.selector: f for f in outcome(results["fail"], RULE).findings}
    assert sorted(found) == [
        "#buy", "#help", "#menu > li:nth-of-type(1) > a", "#menu > li:nth-of-type(2) > a", "#send"], info["fail"]
    for finding in found.values():
        assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["2.5.2"], "A")
        assert finding.impact == "serious" and "(again when repeated)" in finding.failure_summary
    assert found["#buy"].failure_summary.startswith(
        "Pressing the mouse button on a#buy ('Buy now'), before letting it go: the page tried to navigate to")
    assert "/checkout" in found["#buy"].failure_summary
    assert "asked to open a new window" in found["#help"].failure_summary
    assert "submitted a form" in found["#send"].failure_summary
    assert sum("?from=menu" in f.failure_summary for f in found.values()) == 2

    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested, info["pass"]
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#once"], info["review"]
    assert "but not when pressed again" in review.review[0].failure_summary
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
