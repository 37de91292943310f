"""a11y-focus-order through the real engine: Tab taking focus to a link nobody can see, told
from the skip link that shows itself on focus, the visually hidden checkbox whose label is
visible and the areas of an image map (drawn on their image); positive tabindex that jumps the order left for review."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-focus-order"
STYLE = (
    "<style>body { margin: 0 1em; } .skip { position: absolute; left: -999px; } .skip:focus { left: 1em; }"
    " .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }</style>"
)
NAV = '<nav aria-label="Site"><a href="/bread">Bread</a> <a href="/cakes">Cakes</a></nav>'
CONTENT = '<main id="main"><h1>Bread</h1><p>Rye keeps for days. <a href="/rye">About rye</a></p></main>'

FAIL = page(f'<a class="sr-only" id="skip" href="#main">Skip to content</a>{NAV}{CONTENT}', head=STYLE)
PASS = page(
    f'<a class="skip" href="#main">Skip to content</a>{NAV}{CONTENT}'
    '<form><label><input type="checkbox" class="sr-only" id="keep"> Keep me signed in</label>'
    '<label for="size">Size</label> <select id="size"><option>Small</option><option>Large</option></select></form>'
    # An image map: its areas have no box of their own (they are drawn on the image).
    '<p><img src="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%22200%22 height=%22100%22%3E'
    '%3Crect width=%22200%22 height=%22100%22 fill=%22%23cde%22/%3E%3C/svg%3E" width="200" height="100"'
    ' usemap="#shops" alt="Our two shops"></p><map name="shops">'
    '<area shape="rect" coords="0,0,100,100" href="/north" alt="North shop">'
    '<area shape="circle" coords="150,50,40" href="/south" alt="South shop"></map>'
    # A focus listener on the document: the walk presses Tab through the whole order.
    "<script>document.addEventListener('focusin', () => {});</script>",
    head=STYLE,
)
REVIEW = page(
    f'{NAV}<main id="main"><h1>Bread</h1><p>Rye keeps for days.</p><p>Spelt is lighter.</p>'
    '<p><a href="/order" id="order" tabindex="1">Order now</a></p></main>',
    head=STYLE,
)
NONE = page("<main><h1>Bread</h1><p>Rye keeps for days.</p></main>")


async def test_focus_order(browser, site):
    results = await audit_pages(browser, site, "interactive/focus-order", {
        "fail": FAIL, "pass": PASS, "review": REVIEW, "inapplicable": NONE,
    })
    [finding] = outcome(results["fail"], RULE).findings or [results["fail"].pages[0].interaction]
    assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["2.4.3"], "A")
    assert finding.selector == "#skip" and finding.impact == "serious" and finding.act_rules == []
    assert "a#skip.sr-only ('Skip to content'), which stayed invisible while it had focus" in finding.failure_summary
    assert "clipped to nothing" in finding.failure_summary

    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested, (passed, results["pass"].pages[0].interaction)

    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#order"], results["review"].pages[0].interaction
    assert 'tabindex="1" makes Tab reach a#order before 2 element(s)' in review.review[0].failure_summary

    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
