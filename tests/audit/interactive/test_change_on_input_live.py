"""a11y-change-on-input through the real engine: a select that loads another page as soon as an
option is chosen and a field that submits its form when left (both stopped, so the page
stays), told from a select that updates the page in place and one whose label warns."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-change-on-input"

FAIL = page(
    '<main><h1>Shop</h1><form action="/order"><label for="lang">Language</label> '
    "<select id=\"lang\" onchange=\"location.href = '/' + this.value + '/'\"><option>en</option><option>fr</option></select>"
    '<p><label for="qty">Quantity</label> <input id="qty" type="number" onchange="this.form.submit()"></p></form></main>'
)
PASS = page(
    '<main><h1>Shop</h1><form action="/order"><label for="size">Size</label> '
    "<select id=\"size\" onchange=\"document.getElementById('price').textContent = this.value === 'Large' ? '30' : '18'\">"
    '<option>Small</option><option>Large</option></select> <output id="price">18</output>'
    '<p><label for="name">Name</label> <input id="name" oninput="this.dataset.typed = 1"></p>'
    "<p><button>Order</button></p></form></main>"
)
REVIEW = page(
    '<main><h1>Shop</h1><label for="country">Country (the page reloads as soon as you choose one)</label> '
    "<select id=\"country\" onchange=\"location.href = '/' + this.value + '/'\"><option>nl</option><option>be</option></select></main>"
)
NONE = page('<main><h1>Shop</h1><p>Closed today. <a href="/hours">Opening hours</a></p></main>')


async def test_change_on_input(browser, site):
    results = await audit_pages(browser, site, "interactive/on-input", {
        "fail": FAIL, "pass": PASS, "review": REVIEW, "inapplicable": NONE,
    }, level="A")  # level A leaves out the dearer AA checks that run before this one
    info = {name: [(s.reason, s.message) for s in result.pages[0].interaction.skipped if s.rule_id == RULE]
            for name, result in results.items()}
    found = {f.selector: f for f in outcome(results["fail"], RULE).findings}
    assert sorted(found) == ["#lang", "#qty"], info["fail"]
    for finding in found.values():
        assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["3.2.2"], "A")
        assert finding.impact == "serious" and "(again on a second change)" in finding.failure_summary
    assert found["#lang"].failure_summary.startswith(
        "Choosing another option of select#lang ('Language') with ArrowDown: the page tried to navigate to")
    assert "/fr/" in found["#lang"].failure_summary
    assert found["#qty"].failure_summary.startswith("Typing '1' and leaving it in input#qty ('Quantity'): the page submitted a form")

    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested, info["pass"]
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#country"], info["review"]
    assert "seems to warn" in review.review[0].failure_summary
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
