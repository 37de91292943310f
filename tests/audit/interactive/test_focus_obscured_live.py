"""a11y-focus-obscured (2.4.11, AA) and a11y-focus-obscured-enhanced (2.4.12, AAA) through the
real engine: a cookie banner that hides focused links entirely, a bar that hides part of one,
and a sticky header whose scroll-padding keeps focus clear."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-focus-obscured"
ENHANCED = "a11y-focus-obscured-enhanced"
LINKS = "".join(f'<p style="margin: 0 0 2.5em"><a id="l{i}" href="/story/{i}">Story {i}</a></p>' for i in range(30))

BANNER = page(
    f"<main><h1>Stories</h1>{LINKS}</main>"
    '<div id="cookies" style="position: fixed; bottom: 0; left: 0; right: 0; height: 160px; background: #333;'
    ' color: #fff">We use cookies.</div>',
)
BAR = page(
    '<div id="bar" style="position: fixed; top: 0; left: 0; right: 0; height: 40px; background: #036"></div>'
    '<main><a id="top" href="/top" style="display: inline-block; margin-top: 10px; height: 50px; line-height: 50px">'
    "Top story</a><p>Nothing else.</p></main>",
    head="<style>body { margin: 0 }</style>",
)
STICKY = page(
    '<header style="position: sticky; top: 0; height: 60px; background: #fff"><a href="/">Home</a></header>'
    f"<main><h1>Stories</h1>{LINKS}</main>",
    head="<style>html { scroll-padding-top: 80px }</style>",
)
NONE = page("<main><h1>Stories</h1><p>None today.</p></main>")


async def test_focus_obscured(browser, site):
    results = await audit_pages(browser, site, "interactive/obscured", {
        "banner": BANNER, "bar": BAR, "sticky": STICKY, "inapplicable": NONE,
    }, level="AAA")
    info = {name: result.pages[0].interaction for name, result in results.items()}

    found = outcome(results["banner"], RULE).findings
    assert found, info["banner"]
    for finding in found:
        assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["2.4.11"], "AA")
        assert finding.selector.startswith("#l") and finding.impact == "serious"
        assert "div#cookies covers all of it once the browser has scrolled it into view" in finding.failure_summary
    enhanced = outcome(results["banner"], ENHANCED).findings
    assert {f.selector for f in enhanced} == {f.selector for f in found}
    assert {(f.success_criteria[0], f.level) for f in enhanced} == {("2.4.12", "AAA")}

    # Part of the link is under the bar: only the enhanced criterion fails.
    bar = outcome(results["bar"], RULE)
    assert bar.clean and bar.tested, info["bar"]
    [partly] = outcome(results["bar"], ENHANCED).findings
    assert partly.selector == "#top" and "covers part (6 of 9 points sampled) of it" in partly.failure_summary

    for rule in (RULE, ENHANCED):
        sticky = outcome(results["sticky"], rule)
        assert sticky.clean and sticky.tested, (rule, info["sticky"])
        inapplicable = outcome(results["inapplicable"], rule)
        assert inapplicable.clean and not inapplicable.tested
