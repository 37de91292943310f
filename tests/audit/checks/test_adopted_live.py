"""axe-core rules adopted for the ACT rules they implement: the deprecated and experimental
ones run exactly when the requested criteria include theirs, as a finding or a needs-review
item as decided per rule; ``list`` carries ACT bc4a75."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

LOCK = "<style>@media (orientation: portrait) { html { transform: rotate(90deg); } }</style>"
STYLED = "<style>p { max-width: 40em; }</style>"
TEXT = "<p>Listen to the harbour master's daily announcement.</p>"


async def test_orientation_lock_runs_from_wcag_2_1_aa(browser, site):
    pages = {
        "fail": page(f"<main>{TEXT}</main>", head=LOCK),
        "pass": page(f"<main>{TEXT}</main>", head=STYLED),
        "unstyled": page(f"<main>{TEXT}</main>"),
    }
    results = await audit_pages(browser, site, "checks/orientation", pages, version="2.1")
    [finding] = outcome(results["fail"], "css-orientation-lock").findings
    assert (finding.level, finding.success_criteria, finding.act_rules) == ("AA", ["1.3.4"], ["b33eff"])
    assert finding.source == "axe"
    passed = outcome(results["pass"], "css-orientation-lock")
    assert passed.clean and passed.tested
    unstyled = outcome(results["unstyled"], "css-orientation-lock")  # no "cannot be determined"
    assert unstyled.clean and unstyled.tested

    before_2_1 = await audit_pages(browser, site, "checks/orientation-2.0", {"fail": pages["fail"]}, version="2.0")
    assert not outcome(before_2_1["fail"], "css-orientation-lock").tested


async def test_audio_caption_needs_review_and_list_maps_to_act(browser, site):
    results = await audit_pages(browser, site, "checks/audio", {
        "review": page(f'<main>{TEXT}<audio controls src="/checks/audio/news.mp3"></audio></main>'),
        "pass": page(
            f'<main>{TEXT}<audio controls src="/checks/audio/news.mp3">'
            '<track kind="captions" src="/checks/audio/news.vtt" srclang="en"></audio></main>'
        ),
        "list": page("<main><ul><div></div><li>Rye</li></ul></main>"),
    }, level="A")
    review = outcome(results["review"], "audio-caption")
    assert not review.findings
    [item] = review.review
    assert (item.level, item.success_criteria, item.act_rules) == ("A", ["1.2.1"], ["2eb176", "afb423"])
    assert results["review"].conformant is True  # needs review never breaks conformance
    passed = outcome(results["pass"], "audio-caption")
    assert passed.clean and passed.tested
    [finding] = outcome(results["list"], "list").findings
    assert finding.act_rules == ["bc4a75"] and finding.selector == "ul"
