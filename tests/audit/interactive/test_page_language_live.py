"""a11y-page-language through the real engine: the html element's lang checked against the
language its text is identified as (offline), with short or mixed text left alone."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from audit.interactive import language_id
from tests.audit.checks.support import audit_pages, outcome

RULE = "a11y-page-language"
ENGLISH = (
    "<main><h1>Why rye bread keeps</h1><p>Rye flour holds water well, so the crumb stays moist for days. "
    "Wrap the loaf in linen and keep it at room temperature; a tight wrap keeps the crust soft.</p>"
    '<img src="/audit/pixel.png" alt="A dark rye loaf on a wooden board" width="1" height="1"></main>'
)


def doc(lang: str | None, body: str, title: str = "Why rye bread keeps") -> str:
    declared = f' lang="{lang}"' if lang is not None else ""
    return f'<!doctype html><html{declared}><head><meta charset="utf-8"><title>{title}</title></head><body>{body}</body></html>'


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


@pytest.fixture(autouse=True)
def model_loaded():
    """The identifier's model loaded before the first page: a process loads it once, on a
    thread of its own, and a page the phase reaches before that gets no verdict."""
    language_id.rank("warm up")


async def test_page_language(browser, site):
    results = await audit_pages(browser, site, "interactive/page-language", {
        "fail": doc("de", ENGLISH),
        # English, with a German proverb marked as such and a few foreign names: as declared.
        "pass": doc("en-GB", ENGLISH.replace("</main>", (
            '<p>Our bakers, Jürgen Müller and Søren Kierkegaard, say <q lang="de">Hunger ist der beste Koch</q>: '
            "hunger is the best cook.</p></main>"))),
        # Two short identical names, nothing more: too little text to fail, a clear lead to review.
        "review": doc("nl", '<img src="/audit/pixel.png" alt="Fireworks over Paris" width="1" height="1">',
                      "Fireworks over Paris"),
        # A German page under a long English cookie notice: a question for a person, no failure.
        "banner": doc("de", (
            "<div><p>We use cookies to improve your experience on our website. By continuing to browse this site, "
            "you agree to our use of cookies for analytics and advertising.</p><p>You can change your preferences "
            "at any time in the privacy settings at the bottom of every page.</p></div><main><h1>Unser Roggenbrot</h1>"
            "<p>Roggenmehl hält das Wasser gut, deshalb bleibt die Krume tagelang saftig.</p><p>Wickeln Sie das Brot "
            "in Leinen und bewahren Sie es bei Zimmertemperatur auf.</p></main>"), "Bäckerei am Hafen"),
        "no-lang": doc(None, ENGLISH),
        "unknown-language": doc("lb", ENGLISH),
    })
    [finding] = outcome(results["fail"], RULE).findings
    assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["3.1.1"], "A")
    assert finding.selector == "html" and finding.act_rules == ["ucwvc8"]
    assert 'lang="de" declares German' in finding.failure_summary
    assert "reads as English (en" in finding.failure_summary
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested
    banner = outcome(results["banner"], RULE)
    assert not banner.findings and "(though a half of it reads as German)" in banner.review[0].failure_summary
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["html"]
    for name in ("no-lang", "unknown-language"):
        inapplicable = outcome(results[name], RULE)
        assert inapplicable.clean and not inapplicable.tested, name
