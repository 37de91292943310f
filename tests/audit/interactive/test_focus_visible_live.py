"""a11y-focus-visible through the real engine: a link whose focus style takes the outline away
and puts nothing in its place fails, told from look-alikes that show focus another way (a box
shadow, a skip link that moves into view, a style on the parent, a sibling that appears, a
transition, a class a focus handler sets); a text field with nothing but its caret is left for
review; an element out of the focus order is not judged. Judging focus leaves the page as it
found it."""

from __future__ import annotations

import json

import trio

from audit.interactive import focus_walk
from audit.interactive.probe import Probe
from audit.tab_setup import set_up
from cdpdriver.scripts import load_script
from tests.audit.checks.support import audit_pages, outcome
from tests.audit.checks.support import page as html_page
from tests.audit.support import open_page

RULE = "a11y-focus-visible"
TEXT = "The ferry leaves the harbour every hour, on the hour, from spring until late autumn."

FAIL = html_page(
    "<style>a:focus { outline: none } .ring:focus { box-shadow: 0 0 0 3px #05a }</style>"
    # The first link shows nothing; the second, its sibling, does: one finding, not two.
    f'<main><p>{TEXT} <a class="plain" href="/times">Times</a><a class="ring" href="/fares">Fares</a></p>'
    # A focus handler that changes the document but nothing anybody sees.
    '<p><a id="counted" href="/map" onfocus="this.dataset.seen = 1">Map</a></p>'
    # A blur handler that recolours the link focus goes to next, and a span beside it: a
    # change as focus moves, but one that stays, not a sign of focus on that link. (The link
    # with the handler passes: what its blur changes nearby may be its sign; the check errs
    # towards passing.)
    '<p><a id="left" href="/left" onblur="document.getElementById(\'count\').textContent += \'!\';'
    " const r = document.getElementById('right'); r.style.color = r.style.color === 'green' ? 'purple' : 'green'\">"
    'Left</a> <a id="right" href="/right">Right</a> <span id="count">Seen</span></p>'
    # A blur handler that notes something a moment later, where nobody sees it: the page
    # changes by itself after the readings, the link is tried again, and still shows nothing.
    '<p><a id="later" href="/later" onblur="setTimeout(() => { this.dataset.left = Date.now(); }, 0)">Later</a></p></main>'
)
PASS = html_page(
    "<style>.card:focus-visible { outline: none; box-shadow: 0 0 0 3px #05a }"
    " .skip { position: absolute; left: -999px } .skip:focus { left: 1em }"
    " a:focus, button:focus { outline: none } .row:focus-within { background: #eef }"
    " .hint { display: none } .quiet:focus + .hint { display: inline }"
    " .fade { transition: color 1s } .fade:focus { color: #a00 }"
    " .marked { text-decoration: underline double }</style>"
    '<a class="skip" href="#times">Skip to the timetable</a>'
    f'<main id="times"><p>{TEXT} <a class="fade" href="/times">Times</a></p>'
    '<div class="card" tabindex="0">Summer timetable</div>'
    '<p class="row"><a href="/winter">Winter timetable</a></p>'
    '<p><a class="quiet" href="/spring">Spring</a><span class="hint"> (new)</span></p>'
    "<p><button type=\"button\" onfocus=\"this.parentNode.classList.add('marked')\""
    " onblur=\"this.parentNode.classList.remove('marked')\">Print</button></p>"
    # A menu as jQuery UI's: focus highlights its first item at once; blur takes the highlight
    # away a moment later (a timeout that sets another), which a reading made at once misses.
    '<ul id="menu" tabindex="0" role="menu" aria-label="Tools"><li role="menuitem">Open</li>'
    '<li role="menuitem">Save</li></ul></main>'
    "<style>#menu:focus { outline: none } #menu .on { background: #05a; color: #fff }</style>"
    "<script>const menu = document.getElementById('menu');"
    "menu.addEventListener('focus', () => menu.firstElementChild.classList.add('on'));"
    "menu.addEventListener('blur', () => setTimeout(() => setTimeout(() =>"
    " menu.firstElementChild.classList.remove('on'), 300), 0));</script>"
)
REVIEW = html_page('<style>input { outline: none }</style><main><label>Name <input></label></main>')
NONE = html_page(f'<main><p>{TEXT} <a tabindex="-1" href="/times">Times</a></p></main>')


async def test_focus_visible(browser, site):
    results = await audit_pages(browser, site, "interactive/focus-visible", {
        "fail": FAIL, "pass": PASS, "review": REVIEW, "inapplicable": NONE,
    })
    fail = outcome(results["fail"], RULE)
    assert [f.html.split(" href")[0] for f in fail.findings] == [
        '<a class="plain"', '<a id="counted"', '<a id="right"', '<a id="later"']
    finding = fail.findings[0]
    assert (finding.source, finding.level, finding.impact) == ("a11y", "AA", "serious")
    assert (finding.act_rules, finding.success_criteria) == (["oj04fd"], ["2.4.7"])
    assert "changes nothing on the page" in (finding.failure_summary or "")
    assert "a.plain" in (finding.failure_summary or "")

    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested, results["pass"].pages[0].interaction

    review = outcome(results["review"], RULE)
    assert not review.findings and [r.html for r in review.review] == ["<input>"]
    assert "caret" in review.review[0].failure_summary

    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested


async def test_focus_visible_is_off_with_interaction(browser, site):
    """Judging focus is part of the interaction phase: without it the rule is not tested."""
    [result] = (await audit_pages(
        browser, site, "interactive/focus-visible-off", {"fail": FAIL}, checks={"interaction": False}
    )).values()
    assert RULE not in result.pages[0].rules_tested
    assert not [f for f in result.findings if f.rule_id == RULE]


STATE = (
    "JSON.stringify({active: document.activeElement.id, scroll: window.scrollY,"
    " selection: String(getSelection()), body: document.body.className,"
    " moving: document.getAnimations().length, color: getComputedStyle(document.querySelector('a')).color})"
)


async def test_judging_focus_leaves_the_page_as_it_found_it(page, site):
    """Focus, the selection, the scroll position, transitions and what focus handlers changed
    are all back once every element was focused, and each element was focused once."""
    url = site.route("/interactive/focus-visible/state", html_page(
        '<style>a:focus { color: red; transition: color 2s }</style><main style="height: 3000px">'
        '<p id="words">Pick a <a href="/a" onfocus="this.dataset.seen = (+this.dataset.seen || 0) + 1;'
        " document.body.classList.add('focusing')\" onblur=\"document.body.classList.remove('focusing')\">"
        'ferry</a> or a <button>bus</button>.</p><input id="name" value="Ann"></main>'
    ))
    await set_up(page)
    await open_page(page, url)
    await page.evaluate(
        "window.scrollTo(0, 40); document.getElementById('name').focus({preventScroll: true});"
        " getSelection().selectAllChildren(document.getElementById('words')); 0"
    )
    before = await page.evaluate(STATE)
    probe = Probe(page, url, trio.current_time() + 60, rules=[RULE])
    plan = await probe.call(load_script("audit.interactive", "focus_walk_begin"), {
        "max": 500, "hidden": 0, "listening": 0, "covered": 0, "later": 0, "jump": 400,
    })
    looks = await probe.call(load_script("audit.interactive", "focus_looks"), {"limit": 25, "budgetMs": 5000})
    assert plan["count"] == 3
    assert (looks["judged"], looks["failed"], looks["review"]) == (3, [], [])
    assert json.loads(before)["active"] == "name"
    assert await page.evaluate(STATE) == before
    assert await page.evaluate("document.querySelector('a').dataset.seen") == "1"


async def test_the_walk_judges_focus_only_for_the_check(page, site):
    """A phase without the focus-visible check does not judge focus; one with it does."""
    url = site.route("/interactive/focus-visible/unwanted", REVIEW)
    await set_up(page)
    await open_page(page, url)
    without = await focus_walk.walk(Probe(page, url, trio.current_time() + 60, rules=["a11y-focus-order"]))
    assert without.plan["count"] == 1 and without.looks is None
    with_it = await focus_walk.walk(Probe(page, url, trio.current_time() + 60, rules=[RULE]))
    assert with_it.looks is not None and with_it.looks["judged"] == 1


async def test_failures_left_untried_are_reviewed(browser, site, monkeypatch):
    """With no time to try them again, the failures under focus listeners on a page that changed
    by itself after the readings are left for review; the others still fail."""
    monkeypatch.setattr(focus_walk, "LOOKS_RECHECKS", 0)
    results = await audit_pages(browser, site, "interactive/focus-visible-untried", {"fail": FAIL})
    fail = outcome(results["fail"], RULE)
    assert [f.html.split(" href")[0] for f in fail.findings] == ['<a class="plain"', '<a id="right"']
    assert [r.html.split(" href")[0] for r in fail.review] == ['<a id="counted"', '<a id="later"']
    assert "no time left to try" in (fail.review[0].failure_summary or "")
