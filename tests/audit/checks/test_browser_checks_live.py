"""The ACT rules a browser can decide that axe-core leaves unjudged or half-judged, through the
real engine: sound that plays by itself, prohibited ARIA 1.3 properties and the summary's name,
each with a page that fails, one that passes and one it does not apply to; a realistic clean
page that exercises them all, and focus styles (:mod:`audit.interactive.focus_visible`), stays
at score 100."""

from __future__ import annotations

import io
import math
import wave

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
