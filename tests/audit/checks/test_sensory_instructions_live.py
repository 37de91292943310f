"""a11y-sensory-instructions (WCAG 1.3.3, F14) through the real engine: an instruction that
tells buttons or links apart only by colour or place fails, other sensory references need
review, and instructions that also name the control, or point at the only one of its kind,
pass; ordinary text with the same words, place above or below, and text in another language
do not apply."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-sensory-instructions"
TWO_BUTTONS = ('<form><button type="button" style="background:#080;color:#fff">Save</button> '
               '<button type="button">Cancel</button></form>')
TWO_LINKS = '<p><a href="/a">Annual report</a> <a href="/b" style="float:right">Form A12</a></p>'


async def test_sensory_references(browser, site):
    results = await audit_pages(
        browser,
        site,
        "checks/sensory",
        {
            "fail": page(
                "<main><h1>Renew</h1>" + TWO_BUTTONS + TWO_LINKS
                + '<p id="colour">When you are done, press the green button.</p>'
                "<ul><li id=\"place\"><span>Click the link on the right</span> to get the form.</li></ul></main>"
            ),
            "review": page(
                "<main><h1>Help</h1>" + TWO_BUTTONS
                + '<p id="icon">Select the round icon to open the menu.</p>'
                '<p id="sound">Start speaking when you hear the beep.</p>'
                '<p id="red">Fields you still have to fill in are shown in red.</p></main>'
            ),
            "pass": page(
                "<main><h1>Renew</h1>" + TWO_BUTTONS + TWO_LINKS
                + "<p>When you are done, press the green Save button.</p>"
                "<p>Click the link on the right, \u201cForm A12\u201d, to get the form.</p>"
                "<p>Press the button below to go on.</p>"
                # Named by its text, whatever its value attribute holds.
                '<button type="button" value="submit-form">Send</button><p>Then press the red button, Send.</p></main>'
            ),
            "pass-single": page(
                '<main><h1>Subscribe</h1><p>Press the green button to subscribe.</p>'
                '<button type="button" style="background:#080;color:#fff">Subscribe now</button></main>'
            ),
            "inapplicable": page(
                "<main><h1>News</h1><p>The green party won seats on the left of the chamber.</p>"
                "<p>Our round table met in a small room on the right bank.</p>"
                '<div lang="fr"><p>Cliquez sur le bouton vert.</p><p>Click the green button (a quote).</p></div>'
                + TWO_BUTTONS + "</main>"
            ),
        },
        checks={"interaction": False},  # a static check: the interaction phase adds nothing here
    )
    fail = outcome(results["fail"], RULE)
    assert sorted(f.selector for f in fail.findings) == ["#colour", "#place"]
    colour = next(f for f in fail.findings if f.selector == "#colour")
    assert 'press the green button' in (colour.failure_summary or "")
    assert "2 buttons apart only by how one looks" in (colour.failure_summary or "")
    assert {tuple(f.success_criteria) for f in fail.findings} == {("1.3.3",)}
    review = outcome(results["review"], RULE)
    assert not review.findings
    assert sorted(r.selector for r in review.review) == ["#icon", "#red", "#sound"]
    assert all("check that it is also identified in words" in r.reason for r in review.review)
    for name in ("pass", "pass-single"):
        passed = outcome(results[name], RULE)
        assert passed.clean and passed.tested, name
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
