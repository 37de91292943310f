"""The judgment checks (a11y-judge-…) through the real engine: each applies exactly where its ACT
rule does (one page holds an applicable and an inapplicable example of every check), they run
only when a request asks the LLM judge (``llm.judgment``), and they change nothing else: the
findings, other needs-review items, score and rules tested of a page are those of an audit
without them. No model is needed: the provider is left unconfigured, so nobody answers."""

from __future__ import annotations

import pytest

from audit.checks import CHECKS
from audit.llm.evidence import JUDGMENT_CONTEXT
from tests.audit.checks.support import audit_pages, page

JUDGE = {"enabled": True, "judgment": True, "provider": "openai-compatible"}
IMG = 'src="/audit/pixel.png" width="60" height="40"'

EXAMPLES = page(
    "<main>"
    # headings: exposed with a name (applies); hidden, presentational, not exposed (do not)
    '<h1 id="h-ok">Opening hours</h1><p>We bake from Monday to Friday, 7 to 18.</p>'
    '<h2 id="h-hidden" hidden>Holidays</h2>'
    '<h2 id="h-none" role="presentation">Our bread</h2>'
    '<div id="h-aria-hidden" role="heading" aria-level="2" aria-hidden="true">Prices</div>'
    # links: named links apply; a hidden one, one with a button role, one without href do not
    '<p>See <a id="link-ok" href="/menu">our menu</a> for prices.</p>'
    '<a id="link-hidden" href="/old" style="display:none">Old menu</a>'
    '<a id="link-button" href="/order" role="button">Order</a>'
    '<a id="link-nohref">Placeholder</a>'
    # images: named, decorative (alt=""), broken, off-screen, inside a named link
    f'<img id="img-named" {IMG} alt="Rye loaves on a shelf">'
    f'<img id="img-decorative" {IMG} alt="">'
    '<img id="img-broken" src="/missing.png" width="60" height="40" alt="">'
    f'<img id="img-offscreen" {IMG} alt="" style="position:absolute;left:-9999px">'
    '<a id="link-home" href="/" aria-label="Home page"><svg id="svg-in-link" role="img" '
    'aria-label="House" width="20" height="20"><rect width="20" height="20"/></svg></a>'
    '<div id="bg" style="width:40px;height:40px;background-image:url(/audit/pixel.png)"></div>'
    # labels: of a visible field (label element, aria-labelledby); of nothing; of a hidden field
    '<label id="label-ok" for="email">Email address</label><input id="email" type="email">'
    '<span id="label-ref">Date of birth</span><input type="date" aria-labelledby="label-ref">'
    '<label id="label-orphan" for="note">Note</label><p id="note">Bring a bag.</p>'
    '<label id="label-hidden-field">Coupon <input type="text" style="display:none"></label>'
    # videos: not loaded yet (applies); a source that fails; not displayed
    '<video id="video" preload="none" src="/media/tour.mp4" controls width="160"></video>'
    '<video id="video-broken" src="/media/none.mp4" width="160"></video>'
    '<video id="video-hidden" preload="none" src="/media/tour.mp4" style="display:none"></video>'
    "</main>",
    title="Opening hours of the Elm Street bakery",
)
#: The elements each check applies to on EXAMPLES, and its ACT rule.
EXPECTED = {
    "a11y-judge-page-title": ({"title"}, "c4a8a4"),
    "a11y-judge-heading": ({"#h-ok"}, "b49b2e"),
    "a11y-judge-link-in-context": ({"#link-ok", "#link-home"}, "5effbb"),
    "a11y-judge-link-purpose": ({"#link-ok", "#link-home"}, "aizyf1"),
    "a11y-judge-image-name": ({"#img-named"}, "qt1vmo"),
    "a11y-judge-decorative-image": ({"#img-decorative"}, "e88epe"),
    "a11y-judge-image-text": ({"#img-named", "#img-decorative", "#bg"}, "0va7u6"),
    "a11y-judge-field-label": ({"#label-ok", "#label-ref"}, "cc0f0a"),
    "a11y-judge-video-captions": ({"#video"}, "f51b46"),
}


def _judged(result):
    return [r for r in result.needs_review if r.rule_id.startswith("a11y-judge-")]


def test_every_judgment_check_is_listed_with_its_context():
    judgment = {c.rule_id for c in CHECKS if c.judgment}
    assert judgment == set(EXPECTED) == set(JUDGMENT_CONTEXT)


@pytest.fixture
def no_judge(monkeypatch):
    monkeypatch.delenv("A11Y_LLM_BASE_URL", raising=False)
    monkeypatch.setenv("A11Y_LLM_IMAGES", "0")


async def test_judgment_checks_apply_exactly_and_only_when_asked(browser, site, no_judge):
    untitled = page(
        '<main><p>Nothing here.</p><iframe title="Map" srcdoc="<title>Town map</title><p>Map</p>">'
        "</iframe></main>",
        title=" ",
    )
    pages = {"judged": EXAMPLES, "untitled": untitled}
    asked = await audit_pages(browser, site, "checks/judge", pages, level="AAA", llm=JUDGE)
    plain = await audit_pages(browser, site, "checks/judge-off", {"judged": EXAMPLES}, level="AAA")
    judged = asked["judged"]

    found: dict[str, set[str]] = {}
    for item in _judged(judged):
        found.setdefault(item.rule_id, set()).add(item.selector.rsplit(" > ", 1)[-1])
        assert item.source == "a11y" and item.llm is None
        assert item.act_rules == [EXPECTED[item.rule_id][1]]
        assert item.reason.endswith("?")  # the question is the reason
    assert found == {rule: selectors for rule, (selectors, _) in EXPECTED.items()}
    heading = next(i for i in _judged(judged) if i.rule_id == "a11y-judge-heading")
    assert (heading.level, heading.success_criteria) == ("AA", ["2.4.6"])
    assert judged.llm is not None and "not configured" in (judged.llm.error or "")
    # a whitespace title, and the title of a frame, are no page titles
    assert not [i for i in _judged(asked["untitled"]) if i.rule_id == "a11y-judge-page-title"]

    # Without the judge nothing is asked, and with it nothing else changes.
    off = plain["judged"]
    assert not _judged(off)
    assert [(f.rule_id, f.selector) for f in judged.findings] == [(f.rule_id, f.selector) for f in off.findings]
    others = [(r.rule_id, r.selector) for r in judged.needs_review if not r.rule_id.startswith("a11y-judge-")]
    assert others == [(r.rule_id, r.selector) for r in off.needs_review]
    assert (judged.score, judged.conformant, judged.stats) == (off.score, off.conformant, off.stats)
    assert judged.pages[0].rules_tested == off.pages[0].rules_tested
    assert not any(rule.startswith("a11y-judge-") for rule in off.pages[0].rules_tested)


async def test_level_selects_judgment_checks(browser, site, no_judge):
    results = await audit_pages(browser, site, "checks/judge-level", {"a": EXAMPLES}, level="A", llm=JUDGE)
    rules = {i.rule_id for i in _judged(results["a"])}
    # AA (headings, labels, images of text) and AAA (link purpose alone) are not asked at A
    assert rules == {
        "a11y-judge-page-title", "a11y-judge-link-in-context", "a11y-judge-image-name",
        "a11y-judge-decorative-image", "a11y-judge-video-captions",
    }
