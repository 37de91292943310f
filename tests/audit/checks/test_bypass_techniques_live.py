"""The techniques of bypassing repeated blocks, each its own best-practice check (heading,
landmark, skip link, collapsible blocks), through the real engine: a page with none of them,
pages with one and not the others, one with a control only a script decides, one with all
three, and one they do not apply to. Only ``a11y-bypass-reaches-main`` claims WCAG 2.4.1, and
only when no technique at all reaches the content."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

NAV = '<nav><a href="/menu">Menu</a> <a href="/visit">Visit us</a></nav>'
STORY = "<p>The bakery opens at seven and sells out of rye bread by noon.</p>"
TECHNIQUES = (
    "a11y-bypass-heading",
    "a11y-bypass-landmark",
    "a11y-bypass-skip-link",
    "a11y-bypass-collapsible",
)


def practices(result) -> dict[str, str]:
    """Technique check -> the outcome of its one best-practice item on the page."""
    return {
        item.rule_id: item.outcome for item in result.best_practices if item.rule_id in TECHNIQUES
    }


async def test_bypass_techniques(browser, site):
    results = await audit_pages(
        browser,
        site,
        "checks/bypass-techniques",
        {
            "none": page(NAV + f"<div>{STORY}</div>"),
            # Landmark only: the story is in main, with no heading and no skip link.
            "landmark": page(NAV + f"<main>{STORY}</main>"),
            # Heading only, and a skip link to a fragment that matches nothing.
            "heading": page(
                '<a href="#nowhere">Skip to the story</a>'
                + NAV
                + f"<div><h1>Today</h1>{STORY}</div>"
            ),
            # A button before the blocks may collapse them or skip them: only running it would tell.
            "toggle": page(
                '<button type="button">Hide the menu</button>' + NAV + f"<div>{STORY}</div>"
            ),
            "all": page(
                '<a href="#story">Skip to the story</a>'
                + NAV
                + f'<main id="story"><h1>Today</h1>{STORY}</main>'
            ),
            # Links first, then text, no landmark at all: maybe a navigation block nobody marked.
            "unmarked": page(
                '<div><a href="/menu">Menu</a> <a href="/visit">Visit us</a></div>' + STORY
            ),
            "inapplicable": page(f"<main>{STORY}</main>"),
        },
        bestPractices=True,
        checks={"interaction": False},  # static checks: the interaction phase adds nothing here
    )

    none = results["none"]
    assert practices(none) == dict.fromkeys(TECHNIQUES, "violation")
    for item in none.best_practices:
        if item.rule_id in TECHNIQUES:
            assert item.selector == "html"
            assert item.help == f"docs/checks.md#{item.rule_id}"
    heading = next(i for i in none.best_practices if i.rule_id == "a11y-bypass-heading")
    assert heading.act_rules == ["047fe0"] and "heading" in (heading.failure_summary or "")
    [composite] = outcome(none, "a11y-bypass-reaches-main").findings
    assert composite.success_criteria == ["2.4.1"] and composite.act_rules == ["cf77f2"]

    # One technique is enough for 2.4.1: the others stay best-practice advice, no finding.
    landmark = results["landmark"]
    assert practices(landmark) == {
        "a11y-bypass-heading": "violation",
        "a11y-bypass-skip-link": "violation",
    }
    assert outcome(landmark, "a11y-bypass-reaches-main").clean
    heading = results["heading"]
    assert practices(heading) == {
        "a11y-bypass-landmark": "violation",
        "a11y-bypass-skip-link": "violation",
    }
    assert outcome(heading, "a11y-bypass-reaches-main").clean

    toggle = results["toggle"]
    assert practices(toggle) == {
        "a11y-bypass-heading": "violation",
        "a11y-bypass-landmark": "violation",
        "a11y-bypass-skip-link": "needs_review",
        "a11y-bypass-collapsible": "needs_review",
    }
    assert not outcome(toggle, "a11y-bypass-reaches-main").findings

    every = results["all"]
    assert practices(every) == {}
    assert practices(results["unmarked"]) == {"a11y-bypass-landmark": "needs_review"}
    inapplicable = results["inapplicable"]
    assert practices(inapplicable) == {}
    assert not outcome(inapplicable, "a11y-bypass-reaches-main").tested
