"""a11y-autoplay-audio-brief (ACT aaa1bf) through the real engine: sound that plays by itself
for more than 3 seconds is a best-practice violation even when a control can stop it (which
keeps it from failing WCAG 1.4.2); short sound passes; muted media is not its business."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page
from tests.audit.checks.test_browser_checks_live import TEXT, tone

RULE = "a11y-autoplay-audio-brief"


def practices(result) -> list[tuple[str, str, str]]:
    return [
        (item.selector, item.outcome, item.failure_summary or "")
        for item in result.best_practices
        if item.rule_id == RULE
    ]


async def test_autoplay_audio_brief(browser, site):
    site.route("/checks/autoplay-brief/long.wav", tone(5))
    site.route("/checks/autoplay-brief/short.wav", tone(2))
    results = await audit_pages(
        browser,
        site,
        "checks/autoplay-brief",
        {
            # Long sound with native controls: 1.4.2 is a question, the technique is not met.
            "fail": page(
                f'<main><p>{TEXT}</p><audio src="long.wav" autoplay controls></audio></main>'
            ),
            "pass": page(f'<main><p>{TEXT}</p><audio src="short.wav" autoplay></audio></main>'),
            "inapplicable": page(
                f'<main><p>{TEXT}</p><audio src="long.wav" autoplay muted></audio><audio src="long.wav" controls></audio></main>'
            ),
        },
        bestPractices=True,
        checks={"interaction": False},  # static checks: the interaction phase adds nothing here
    )
    [(selector, verdict, summary)] = practices(results["fail"])
    assert (selector, verdict) == ("audio", "violation") and "5 seconds" in summary
    item = next(i for i in results["fail"].best_practices if i.rule_id == RULE)
    assert item.act_rules == ["aaa1bf"] and item.help == f"docs/checks.md#{RULE}"
    composite = outcome(results["fail"], "a11y-autoplay-audio")
    assert not composite.findings and composite.review  # a control exists: 1.4.2 needs review
    assert practices(results["pass"]) == []
    assert practices(results["inapplicable"]) == []
