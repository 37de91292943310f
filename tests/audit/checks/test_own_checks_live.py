"""Our own rules (a11y-…) through the real engine: for each, a page that fails it, one that
passes it and one it does not apply to, audited in one shared browser."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

NAV = '<header><nav><a href="/menu">Menu</a> <a href="/visit">Visit us</a></nav></header>'
STORY = "<p>The bakery opens at seven and sells out of rye bread by noon.</p>"


async def test_bypass_reaches_main(browser, site):
    results = await audit_pages(browser, site, "checks/bypass", {
        # A skip link to nothing, a heading pushed off-screen: nothing reaches the story.
        "fail": page(
            '<a href="#story">Skip to the story</a>' + NAV
            + '<div><h2 style="position:absolute;left:-5000px">Today</h2>' + STORY + "</div>"
        ),
        "pass": page('<a href="#story">Skip to the story</a>' + NAV + f'<div id="story">{STORY}</div>'),
        "review": page('<button type="button">Hide the menu</button>' + NAV + f"<div>{STORY}</div>"),
        "inapplicable": page(f"<div>{STORY}</div>"),
    })
    fail = outcome(results["fail"], "a11y-bypass-reaches-main")
    [finding] = fail.findings
    assert (finding.source, finding.level, finding.success_criteria) == ("a11y", "A", ["2.4.1"])
    assert finding.selector == "html" and finding.impact == "serious"
    assert finding.act_rules == ["cf77f2"]
    assert finding.help == "docs/checks.md#a11y-bypass-reaches-main"
    assert "skip link" in (finding.failure_summary or "")
    assert results["fail"].conformant is False
    passed = outcome(results["pass"], "a11y-bypass-reaches-main")
    assert passed.clean and passed.tested
    review = outcome(results["review"], "a11y-bypass-reaches-main")
    assert not review.findings and [r.source for r in review.review] == ["a11y"]
    inapplicable = outcome(results["inapplicable"], "a11y-bypass-reaches-main")
    assert inapplicable.clean and not inapplicable.tested


async def test_header_has_cells(browser, site):
    def grid(rows: str) -> str:
        head = '<div role="row"><span role="columnheader">Day</span><span role="columnheader">Opens</span>'
        head += '<span role="columnheader">Closes</span></div>'
        return page(f'<main><div role="grid" aria-label="Hours">{head}{rows}</div></main>')

    cells = '<div role="row"><span role="gridcell">{}</span><span role="gridcell">7:00</span>{}</div>'
    results = await audit_pages(browser, site, "checks/headers", {
        "fail": grid(cells.format("Monday", "") + cells.format("Tuesday", "")),
        "pass": grid(cells.format("Monday", '<span role="gridcell">18:00</span>')),
        "inapplicable": page(
            "<main><table><tr><th>Day</th><th>Opens</th></tr><tr><td>Monday</td><td>7:00</td></tr></table></main>"
        ),
    })
    [finding] = outcome(results["fail"], "a11y-header-has-cells").findings
    assert finding.selector == 'div[role="grid"]' and finding.source == "a11y"
    assert (finding.act_rules, finding.success_criteria) == (["d0f69e"], ["1.3.1"])
    assert "no cell" in (finding.failure_summary or "")
    passed = outcome(results["pass"], "a11y-header-has-cells")
    assert passed.clean and passed.tested
    native = outcome(results["inapplicable"], "a11y-header-has-cells")
    assert native.clean and not native.tested
    assert "th-has-data-cells" in results["inapplicable"].pages[0].rules_tested  # axe's, there


async def test_frame_name_purpose_supersedes_frame_title_unique(browser, site):
    map_url = site.route("/checks/frames/map", page("<main><p>A map of the town.</p></main>", "Map"))
    results = await audit_pages(browser, site, "checks/frames", {
        "review": page(
            '<main><iframe aria-label="Weather" srcdoc="<p>Sunny</p>"></iframe>'
            '<iframe aria-label="Weather" srcdoc="<p>Rain</p>"></iframe></main>'
        ),
        "pass": page(
            f'<main><iframe title="Town map" src="{map_url}"></iframe>'
            f'<iframe title="Town map" src="{map_url}"></iframe></main>'
        ),
        "inapplicable": page(f"<main>{STORY}</main>"),
    })
    review = outcome(results["review"], "a11y-frame-name-purpose")
    assert not review.findings
    assert sorted(r.selector for r in review.review) == ['iframe[srcdoc="<p>Rain</p>"]', 'iframe[srcdoc="<p>Sunny</p>"]']
    assert {(r.source, tuple(r.act_rules)) for r in review.review} == {("a11y", ("4b1c6c",))}
    passed = outcome(results["pass"], "a11y-frame-name-purpose")
    assert passed.clean and passed.tested
    assert outcome(results["pass"], "frame-title-unique").clean  # axe would ask about the titles
    assert "frame-title-unique" not in results["pass"].pages[0].rules_tested
    inapplicable = outcome(results["inapplicable"], "a11y-frame-name-purpose")
    assert inapplicable.clean and not inapplicable.tested
