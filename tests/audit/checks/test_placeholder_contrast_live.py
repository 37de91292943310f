"""a11y-placeholder-contrast (WCAG 1.4.3) through the real engine: a pale placeholder fails,
a dark one, the browser's own and a large one at 3:1 pass, one over a gradient needs review,
and fields whose placeholder is not shown (filled in, disabled) do not apply."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-placeholder-contrast"


async def test_placeholder_contrast(browser, site):
    results = await audit_pages(
        browser,
        site,
        "checks/placeholder-contrast",
        {
            "fail": page(
                "<style>.pale::placeholder { color: #bbb }</style><main><h1>Sign up</h1>"
                '<label>Email <input id="pale" class="pale" type="email" placeholder="name@example.com"></label>'
                "</main>"
            ),
            "pass": page(
                "<style>.dark::placeholder { color: #595959 } .big { font-size: 24px }"
                " .big::placeholder { color: #949494 }</style><main><h1>Sign up</h1>"
                '<label>Email <input class="dark" type="email" placeholder="name@example.com"></label>'
                '<label>Town <input placeholder="e.g. Leeds"></label>'
                '<label>Notes <textarea class="big" placeholder="Anything else?"></textarea></label></main>'
            ),
            "review": page(
                "<style>.fancy { background: linear-gradient(#fff, #ccd) } .fancy::placeholder { color: #777 }</style>"
                '<main><h1>Search</h1><label>Search <input id="fancy" class="fancy" placeholder="Type a word"></label>'
                "</main>"
            ),
            "inapplicable": page(
                "<style>input::placeholder { color: #ddd }</style><main><h1>Sign up</h1>"
                '<label>Email <input type="email" placeholder="name@example.com" value="ada@example.org"></label>'
                '<label>Code <input placeholder="ABC-123" disabled></label>'
                "<label>Name <input></label></main>"
            ),
        },
        checks={"interaction": False},  # a static check: the interaction phase adds nothing here
    )
    fail = outcome(results["fail"], RULE)
    assert [f.selector for f in fail.findings] == ["#pale"]
    assert "below the 4.5:1 text needs" in (fail.findings[0].failure_summary or "")
    assert "#bbbbbb on #ffffff" in (fail.findings[0].failure_summary or "")
    assert tuple(fail.findings[0].success_criteria) == ("1.4.3",)
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#fancy"]
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
