"""a11y-field-boundary-contrast (WCAG 1.4.11) through the real engine: a field drawn only by a
pale border, one drawn only by a pale fill and a drawn checkbox with a pale border fail; the
browser's own fields, a dark border, a bottom border that reaches 3:1, a strong fill, a field
without any outline inside a search box drawn at 3:1, and a field with no outline drawn at all
pass; a field over a background image needs review; disabled, read-only and button inputs do
not apply."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-field-boundary-contrast"
STYLE = "<style>body { background: #fff; font: 16px sans-serif } label { display: block; margin: 1em 0 }"


async def test_field_boundary_contrast(browser, site):
    results = await audit_pages(
        browser,
        site,
        "checks/field-boundary-contrast",
        {
            "fail": page(
                f"{STYLE} .pale {{ border: 1px solid #ddd; background: #fff }}"
                " .tint { border: 0; background: #eef0f3 }"
                " .box { appearance: none; width: 18px; height: 18px; border: 2px solid #ccc; background: #fff }</style>"
                '<main><h1>Sign up</h1><label>Email <input id="pale" class="pale" type="email"></label>'
                '<label>Town <input id="tint" class="tint"></label>'
                '<label><input id="box" class="box" type="checkbox"> Send me the newsletter</label></main>'
            ),
            "pass": page(
                f"{STYLE} .dark {{ border: 1px solid #767676 }}"
                " .line { border: 0; border-bottom: 2px solid #595959; background: transparent }"
                " .solid { border: 0; background: #d8dee6 } .panel { background: #1d3557; color: #fff; padding: 1em }"
                " .search { display: flex; border: 2px solid #444; border-radius: 4px; width: 20em }"
                " .search input { border: 0; flex: 1; outline-offset: -2px } .search button { border: 0; background: none }"
                " .bare { border: 0; background: transparent }</style>"
                '<main><h1>Sign up</h1><label>Name <input></label><label>Email <input class="dark" type="email"></label>'
                '<label>Phone <input class="line" type="tel"></label><label>Comments <textarea></textarea></label>'
                '<label>Size <select><option>Small</option><option>Large</option></select></label>'
                '<div class="search" role="search"><input aria-label="Search the shop"><button>Go</button></div>'
                '<label>Nickname <input class="bare"></label>'
                '<div class="panel"><label>Code <input class="solid"></label></div></main>'
            ),
            "review": page(
                f"{STYLE} .hero {{ background: url(/audit/pixel.png) #eee; padding: 2em }}"
                " .hero input { border: 1px solid #ddd }</style>"
                '<main><h1>Find a bakery</h1><div class="hero"><label>Town <input id="hero"></label></div></main>'
            ),
            "inapplicable": page(
                f"{STYLE} input {{ border: 1px solid #eee }}</style>"
                '<main><h1>Your order</h1><label>Code <input disabled></label>'
                '<label>Number <input readonly value="1042"></label><input type="submit" value="Pay">'
                '<label><input type="checkbox"> Gift wrap</label></main>'
            ),
        },
        checks={"interaction": False},  # a static check: the interaction phase adds nothing here
    )
    fail = outcome(results["fail"], RULE)
    assert [f.selector for f in fail.findings] == ["#pale", "#tint", "#box"], fail
    summary = fail.findings[0].failure_summary or ""
    assert "at 1.35:1 (#dddddd on #ffffff)" in summary and "below the 3:1" in summary, summary
    assert "fill" in (fail.findings[1].failure_summary or "")
    assert tuple(fail.findings[0].success_criteria) == ("1.4.11",)
    assert (fail.findings[0].level, fail.findings[0].impact) == ("AA", "serious")
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested, passed
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#hero"], review
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested, inapplicable
