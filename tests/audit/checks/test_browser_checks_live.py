"""The ACT rules a browser can decide that axe-core leaves unjudged or half-judged, through the
real engine: focus visible, sound that plays by itself, prohibited ARIA 1.3 properties and the
summary's name, each with a page that fails, one that passes and one it does not apply to; a
realistic clean page that exercises them all stays at score 100; and measuring focus leaves
the page as it found it."""

from __future__ import annotations

import io
import json
import math
import wave

from audit.axe import axe_world, inject
from cdpdriver import evaluate
from tests.audit.checks.support import audit_pages, outcome, page, raw_axe_targets
from tests.audit.checks.test_clean_pages_live import FOOTER, HEADER, STYLE
from tests.support.site import Response

TEXT = "The ferry leaves the harbour every hour, on the hour, from spring until late autumn."


def tone(seconds: float, rate: int = 8000) -> Response:
    """A WAV file of a 440 Hz tone lasting ``seconds``."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(rate)
        out.writeframes(bytes(int(128 + 60 * math.sin(2 * math.pi * 440 * i / rate)) for i in range(int(seconds * rate))))
    return Response(buffer.getvalue(), content_type="audio/wav")


async def test_focus_visible(browser, site):
    results = await audit_pages(browser, site, "checks/focus", {
        # A focus style that removes the outline and puts nothing in its place.
        "fail": page(f'<style>a:focus {{ outline: none }}</style><main><p>{TEXT} <a href="/times">Times</a></p></main>'),
        "pass": page(
            "<style>.card:focus-visible { outline: none; box-shadow: 0 0 0 3px #05a }"
            " .skip { position: absolute; left: -999px } .skip:focus { left: 1em }"
            " .quiet:focus { outline: none } .row:focus-within { background: #eef }</style>"
            '<a class="skip" href="#times">Skip to the timetable</a>'
            f'<main id="times"><p>{TEXT} <a href="/times">Times</a></p>'
            '<div class="card" tabindex="0">Summer timetable</div>'
            '<p class="row"><a class="quiet" href="/winter">Winter timetable</a></p></main>'
        ),
        "review": page('<style>input { outline: none }</style><main><label>Name <input></label></main>'),
        "inapplicable": page(f'<main><p>{TEXT} <a tabindex="-1" href="/times">Times</a></p></main>'),
    })
    fail = outcome(results["fail"], "a11y-focus-visible")
    [finding] = fail.findings
    assert (finding.selector, finding.source, finding.level) == ("a", "a11y", "AA")
    assert (finding.act_rules, finding.success_criteria) == (["oj04fd"], ["2.4.7"])
    assert "changes nothing" in (finding.failure_summary or "")
    passed = outcome(results["pass"], "a11y-focus-visible")
    assert passed.clean and passed.tested
    review = outcome(results["review"], "a11y-focus-visible")
    assert not review.findings and [r.selector for r in review.review] == ["input"]
    inapplicable = outcome(results["inapplicable"], "a11y-focus-visible")
    assert inapplicable.clean and not inapplicable.tested


async def test_focus_visible_leaves_the_page_as_it_found_it(browser, site):
    """Focus, the selection, the scroll position and what focus handlers changed are all back
    once the check has focused every element."""
    url = site.route("/checks/focus/state", page(
        '<style>a:focus { color: red; transition: color 2s }</style><main style="height: 3000px">'
        '<p id="words">Pick a <a href="/a" onfocus="this.dataset.seen = (+this.dataset.seen || 0) + 1;'
        " document.body.classList.add('focusing')\" onblur=\"document.body.classList.remove('focusing')\">"
        'ferry</a> or a <button>bus</button>.</p><input id="name" value="Ann"></main>'
    ))
    async with browser.context() as ctx, ctx.page() as tab:
        await tab.navigate(url, wait_until="load")
        world = await axe_world(tab.session, tab.main_frame_id)
        await inject(tab.session, world)
        state = (
            "JSON.stringify({active: document.activeElement.id, scroll: window.scrollY,"
            " selection: String(getSelection()), body: document.body.className,"
            " moving: document.getAnimations().length, color: getComputedStyle(document.querySelector('a')).color})"
        )
        await evaluate(tab.session, "window.scrollTo(0, 40); document.getElementById('name').focus({preventScroll: true});"
                       " getSelection().selectAllChildren(document.getElementById('words')); 0", world)
        before = await evaluate(tab.session, state, world)
        text = await evaluate(tab.session, (
            "axe.run(document, {runOnly: {type: 'rule', values: ['a11y-focus-visible']}})"
            ".then(r => JSON.stringify(r.passes.flatMap(x => x.nodes.map(n => n.target.join(' ')))))"
        ), world, await_promise=True)
        assert json.loads(before)["active"] == "name"
        assert await evaluate(tab.session, state, world) == before
        assert sorted(json.loads(text)) == ["#name", "a", "button"]
        assert await evaluate(tab.session, "document.querySelector('a').dataset.seen", world) == "1"


async def test_autoplay_audio_supersedes_no_autoplay_audio(browser, site):
    site.route("/checks/autoplay/long.wav", tone(5))
    site.route("/checks/autoplay/short.wav", tone(2))
    results = await audit_pages(browser, site, "checks/autoplay", {
        "fail": page(f'<main><p>{TEXT}</p><audio src="long.wav" autoplay></audio></main>'),
        "pass": page(f'<main><p>{TEXT}</p><audio src="short.wav" autoplay></audio></main>'),
        "review": page(f'<main><p>{TEXT}</p><audio src="long.wav" autoplay controls></audio></main>'),
        "inapplicable": page(
            f'<main><p>{TEXT}</p><audio src="long.wav" autoplay muted></audio><audio src="long.wav" controls></audio></main>'
        ),
    })
    [finding] = outcome(results["fail"], "a11y-autoplay-audio").findings
    assert (finding.selector, finding.source, finding.success_criteria) == ("audio", "a11y", ["1.4.2"])
    assert finding.act_rules == ["80f0bf", "4c31df"]
    assert "5 seconds" in (finding.failure_summary or "")
    passed = outcome(results["pass"], "a11y-autoplay-audio")
    assert passed.clean and passed.tested
    review = outcome(results["review"], "a11y-autoplay-audio")
    assert not review.findings and [r.source for r in review.review] == ["a11y"]
    inapplicable = outcome(results["inapplicable"], "a11y-autoplay-audio")
    assert inapplicable.clean and not inapplicable.tested
    for result in results.values():
        assert "no-autoplay-audio" not in result.pages[0].rules_tested


async def test_aria_prohibited_global_and_summary_name(browser, site):
    results = await audit_pages(browser, site, "checks/prohibited", {
        "fail": page('<main><p>Fruit</p><div aria-roledescription="slide"></div></main>'),
        "pass": page('<main><div role="heading" aria-level="2" aria-braillelabel="Fruit">Fruit</div></main>'),
        "review": page('<main><p aria-braillelabel="I love bananas">I like bananas</p></main>'),
        "inapplicable": page('<main><p>Fruit</p><div aria-braillelabel="Fruit" hidden></div></main>'),
        "summary-fail": page(f"<main><details><summary></summary><p>{TEXT}</p></details></main>"),
        "summary-pass": page(f"<main><details><summary>Timetable</summary><p>{TEXT}</p></details></main>"),
        "summary-inapplicable": page(f"<main><details><div><summary></summary></div><p>{TEXT}</p></details></main>"),
    })
    [finding] = outcome(results["fail"], "aria-prohibited-attr").findings
    assert (finding.selector, finding.source) == ("div", "axe")
    assert finding.act_rules == ["5c01ea", "kb1m8s"]
    assert not await raw_axe_targets(browser, site.url("/checks/prohibited/fail"), "aria-prohibited-attr")
    passed = outcome(results["pass"], "aria-prohibited-attr")
    assert passed.clean and passed.tested
    review = outcome(results["review"], "aria-prohibited-attr")
    assert not review.findings and [r.selector for r in review.review] == ["p"]
    inapplicable = outcome(results["inapplicable"], "aria-prohibited-attr")
    assert inapplicable.clean and not inapplicable.tested

    [summary] = outcome(results["summary-fail"], "summary-name").findings
    assert "2t702h" in summary.act_rules and summary.success_criteria == ["4.1.2"]
    passed = outcome(results["summary-pass"], "summary-name")
    assert passed.clean and passed.tested
    inapplicable = outcome(results["summary-inapplicable"], "summary-name")
    assert inapplicable.clean and not inapplicable.tested



async def test_aria_prohibited_use(browser, site):
    """The WAI-ARIA conformance fact (a best practice, ACT kb1m8s): every prohibited property
    fails, text or not; WCAG's verdict stays aria-prohibited-attr's (needs review when text may
    say it)."""
    results = await audit_pages(browser, site, "checks/prohibited-use", {
        "fail": page(
            '<main><div id="price" aria-label="Previously 100, now 1 euro"><s>100</s> / <b>1</b></div>'
            '<p id="braille" aria-braillelabel="I love bananas">I like bananas</p>'
            '<span id="empty" aria-roledescription="slide"></span></main>'
        ),
        # The same properties where the role allows them.
        "pass": page(
            '<main><a href="/offer" aria-label="Previously 100, now 1 euro"><s>100</s> / <b>1</b></a>'
            '<div role="heading" aria-level="2" aria-braillelabel="I love bananas">I like bananas</div>'
            '<section aria-roledescription="slide" aria-label="Bananas"><p>Fruit</p></section></main>'
        ),
        # Hidden from everyone, and no such property at all.
        "inapplicable": page('<main><p>Fruit</p><div aria-label="Bananas" hidden></div><p title="Fruit">Fruit</p></main>'),
    }, bestPractices=True)
    rule = "a11y-aria-prohibited-use"
    items = {i.selector: i for i in results["fail"].best_practices if i.rule_id == rule}
    assert sorted(items) == ["#braille", "#empty", "#price"]
    assert {i.outcome for i in items.values()} == {"violation"}
    assert items["#price"].act_rules == ["kb1m8s"] and "aria-label" in (items["#price"].failure_summary or "")
    assert not [f for f in results["fail"].findings if f.rule_id == rule]  # a best practice, never WCAG
    wcag = outcome(results["fail"], "aria-prohibited-attr")  # WCAG's verdict is axe's, as before
    assert [f.selector for f in wcag.findings] == ["#empty"]
    assert sorted(r.selector for r in wcag.review) == ["#braille", "#price"]
    for name in ("pass", "inapplicable"):
        assert not [i for i in results[name].best_practices if i.rule_id == rule], name


FERRY = page(
    HEADER
    + "<style>.button { display: inline-block; padding: .4em 1em; background: #05a; color: #fff;"
    " text-decoration: none; border-radius: 4px } .button:focus { outline: none }"
    " .button:focus-visible { box-shadow: 0 0 0 3px #fff, 0 0 0 6px #05a }"
    " input:focus { outline: 2px solid #05a; outline-offset: 2px }</style>"
    '<main id="main"><h1>Ferry to the islands</h1>'
    '<video src="/checks/clean/waves.wav" autoplay muted playsinline aria-label="Waves at the quay">'
    '<track kind="captions" src="/checks/clean/waves.vtt" srclang="en" label="English"></video>'
    "<p>Boats leave from Quay Street every hour from seven in the morning.</p>"
    "<details><summary>Summer timetable</summary><p>Boats run until ten in the evening.</p></details>"
    '<form action="/tickets"><p><label for="date">Travel date</label> <input id="date" type="date"></p>'
    '<p><label for="email">Email</label> <input id="email" type="email" autocomplete="email"></p>'
    '<p><button class="button">Buy a ticket</button> <a class="button" href="/fares">See the fares</a></p></form>'
    '<div role="note" aria-roledescription="tip"><p>Bicycles travel free.</p></div>'
    "</main>" + FOOTER,
    "Ferry to the islands - Harbour Ferries",
    STYLE,
)


async def test_clean_page_with_focus_styles_summary_and_muted_video(browser, site):
    site.route("/checks/clean/waves.wav", tone(4))  # over in 4 s: nothing to pause (2.2.2)
    site.route("/checks/clean/waves.vtt", Response("WEBVTT\n\n00:00.000 --> 00:06.000\n[Waves]\n", content_type="text/vtt"))
    [result] = (await audit_pages(browser, site, "checks/clean", {"ferry": FERRY})).values()
    assert (result.conformant, result.score, [(f.rule_id, f.selector) for f in result.findings]) == (True, 100.0, [])
    assert [(r.rule_id, r.selector) for r in result.needs_review] == []
    tested = set(result.pages[0].rules_tested)
    assert {"a11y-focus-visible", "summary-name", "aria-prohibited-attr"} <= tested
    assert "a11y-autoplay-audio" not in tested  # muted: it does not apply
