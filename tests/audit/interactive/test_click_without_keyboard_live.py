"""a11y-click-without-keyboard through the real engine: elements a script made clickable but
Tab cannot reach, told from the look-alikes where the keyboard has its own way in."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-click-without-keyboard"
STYLE = "<style>.btn { cursor: pointer; padding: .5em; background: #eef; }</style>"

FAIL = page(
    '<main><h1>Basket</h1><div id="send" class="btn" onclick="this.textContent = \'Sent\'">Send order</div>'
    '<span id="open" role="button">Open the map</span>'
    '<a id="more" onclick="document.body.append(\'more\')">More offers</a></main>'
    "<script>document.getElementById('open').addEventListener('click', () => document.body.append('map'));</script>",
    head=STYLE,
)
# Each has a pointer listener of its own, and the keyboard a way to what it does.
PASS = page(
    '<main><h1>Basket</h1><div class="btn" onclick="this.dataset.clicked = 1"><button type="button">Real button</button></div>'
    '<label for="mail" onclick="this.dataset.clicked = 1">Email</label> <input id="mail">'
    '<div class="btn" id="panel" onclick="event.stopPropagation()">A panel whose clicks stay inside</div>'
    '<ul id="list" class="btn"><li><button type="button">One</button></li><li><button type="button">Two</button></li>'
    '<li><button type="button">Three</button></li></ul>'
    '<a href="#" onclick="return false">Hash link</a> <a href="javascript:void 0" onclick="this.blur()">Script link</a>'
    '<button type="button" onclick="this.blur()">Plain button</button></main>'
    "<script>document.getElementById('list').addEventListener('click', (e) => e.target.blur());</script>",
    head=STYLE,
)
REVIEW = page(
    '<main><h1>Tabs</h1><div id="scripted" class="btn" tabindex="-1" onclick="this.dataset.on = 1">Settings</div>'
    '<p><a href="/help">Help</a></p></main>',
    head=STYLE,
)
NONE = page('<main><h1>Plain</h1><p>No script here. <a href="/next">Next</a></p></main>')


async def test_click_without_keyboard(browser, site):
    results = await audit_pages(browser, site, "interactive/click", {
        "fail": FAIL, "pass": PASS, "review": REVIEW, "inapplicable": NONE,
    })
    found = outcome(results["fail"], RULE).findings
    assert sorted(f.selector for f in found) == ["#more", "#open", "#send"], results["fail"].pages[0].interaction
    for finding in found:
        assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["2.1.1"], "A")
        assert finding.impact == "serious" and finding.act_rules == []
        assert "the keyboard cannot reach it" in (finding.failure_summary or "")
    summaries = {f.selector: f.failure_summary for f in found}
    assert "div#send.btn ('Send order') reacts to click and shows a pointer cursor" in summaries["#send"]
    assert "has role=button" in summaries["#open"] and "an a element without href" in summaries["#more"]

    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested, (passed, results["pass"].pages[0].interaction)

    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#scripted"]
    assert 'tabindex="-1"' in (review.review[0].failure_summary or "")

    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
