"""a11y-change-on-focus through the real engine: a select that navigates and a field that
submits its form as Tab reaches them (both stopped, so the page stays), told from focus
handlers that only restyle."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-change-on-focus"
LINKS = '<p><a href="/a">First</a> <a href="/b">Second</a></p>'

# The handlers act on focus that Tab brought (the static pass focuses elements by script).
TABBED = "<script>let tabbed = false; addEventListener('keydown', (e) => { tabbed = e.key === 'Tab'; }, true);</script>"
FAIL = page(
    f"<main><h1>Shop</h1>{LINKS}<label for=\"lang\">Language</label> "
    "<select id=\"lang\" onfocus=\"if (tabbed) location.href = '/fr/'\"><option>English</option><option>French</option></select>"
    "<form action=\"/search\"><label for=\"q\">Search</label> <input id=\"q\" "
    "onfocus=\"if (tabbed) this.form.requestSubmit()\"></form></main>"
    + TABBED
)
PASS = page(
    f"<main><h1>Shop</h1>{LINKS}<p><button type=\"button\" onfocus=\"this.style.outline = '3px solid'\" "
    "onblur=\"this.style.outline = ''\">Add to basket</button></p></main>"
)
NONE = page("<main><h1>Shop</h1><p>Closed today.</p></main>")


async def test_change_on_focus(browser, site):
    results = await audit_pages(browser, site, "interactive/on-focus", {
        "fail": FAIL, "pass": PASS, "no-script": page(f"<main><h1>Shop</h1>{LINKS}</main>"), "inapplicable": NONE,
    })
    info = {name: [(s.reason, s.message) for s in result.pages[0].interaction.skipped if s.rule_id == RULE]
            for name, result in results.items()}
    found = {f.selector: f for f in outcome(results["fail"], RULE).findings}
    assert sorted(found) == ["#lang", "#q"], info["fail"]
    for finding in found.values():
        assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["3.2.1"], "A")
        assert finding.impact == "serious" and "(again when repeated)" in finding.failure_summary
    assert "moved focus to select#lang ('Language'), and the page tried to navigate to" in found["#lang"].failure_summary
    assert "/fr/" in found["#lang"].failure_summary
    assert "moved focus to input#q ('Search'), and the page submitted a form" in found["#q"].failure_summary

    for name in ("pass", "no-script"):
        passed = outcome(results[name], RULE)
        assert passed.clean and passed.tested, (name, info[name])
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
