"""a11y-link-text-alone (ACT aizyf1) on the kinds of link text that need their context by
construction, through the real engine at AAA: a file format alone ("HTML", "Plain text") and
"Go" fail (but not a format's name on a link to a topic named after it: "csv" to #csv),
"this" with one word ("this product") needs review, and the same words inside a
longer name pass; links hidden from everyone are not its business."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-link-text-alone"
BOOK = "<li>Ulysses: {}</li>"


async def test_link_text_alone_formats_and_pointers(browser, site):
    results = await audit_pages(
        browser,
        site,
        "checks/link-alone-kinds",
        {
            "fail": page(
                "<main><h1>Downloads</h1><ul>"
                + BOOK.format('<a id="html" href="/ulysses.html"> HTML </a>')
                + BOOK.format('<a id="txt" href="/ulysses.txt">Plain text</a>')
                + BOOK.format('<a id="csv" href="/data/ulysses-words.csv">CSV</a>')
                + '</ul><p><a id="go" href="/search">Go</a></p></main>'
            ),
            "review": page(
                '<main><h1>Ulysses</h1><p>See the description of <a id="this" href="/desc">this product</a>.'
                "</p></main>"
            ),
            "pass": page(
                "<main><h1>Downloads</h1><ul>"
                + BOOK.format('<a href="/ulysses.html">Ulysses in HTML</a>')
                + BOOK.format('<a href="/ulysses.txt">Ulysses as plain text</a>')
                + '</ul><p><a href="/desc">This week\'s bread menu</a></p>'
                # A format's name on a link to a topic named after it (technical documentation's
                # modules and sections) says where it leads: not a file in that format.
                + '<h2>Improved modules</h2><ul><li><a href="/whatsnew/3.8.html#csv">csv</a></li>'
                '<li><a href="/library/json.html">json</a></li><li><a href="/docs/xml-support/">XML</a></li>'
                '<li><a href="#plain-text-mode">Plain text</a></li></ul>'
                # A type in angle brackets names that type (Node's API documentation).
                '<p>Returns: <a href="/docs/Operators/this">&lt;this&gt;</a></p></main>'
            ),
            "inapplicable": page(
                '<main><h1>Downloads</h1><p><a href="/ulysses.html" hidden>HTML</a>'
                '<a href="/desc" aria-hidden="true" tabindex="-1">this product</a></p></main>'
            ),
        },
        level="AAA",
        checks={"interaction": False},  # a static check: the interaction phase adds nothing here
    )
    fail = outcome(results["fail"], RULE)
    assert sorted(f.selector for f in fail.findings) == ["#csv", "#go", "#html", "#txt"]
    assert {(tuple(f.act_rules), tuple(f.success_criteria)) for f in fail.findings} == {
        (("aizyf1",), ("2.4.9",))
    }
    html = next(f for f in fail.findings if f.selector == "#html")
    assert 'The link text "HTML" does not say where the link leads' in (html.failure_summary or "")
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#this"]
    assert "points at something its context names" in review.review[0].reason
    passed = outcome(results["pass"], RULE)
    assert passed.clean
    # In context (2.4.4) the formats are not this pair's business: their list item names the book.
    assert not outcome(results["fail"], "a11y-link-text-in-context").findings
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
