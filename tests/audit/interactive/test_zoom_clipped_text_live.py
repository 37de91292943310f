"""a11y-zoom-clipped-text through the real engine: at 640 x 512 (200% zoom), text cut by a box
of fixed height that hides its overflow fails; an ellipsis, a one-line teaser, a box that
scrolls and a visually hidden label pass or do not apply."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-zoom-clipped-text"
POEM = (
    "Once upon a midnight dreary, while I pondered, weak and weary, over many a quaint and curious volume "
    "of forgotten lore, while I nodded, nearly napping, suddenly there came a tapping."
)


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


async def test_zoom_clipped_text(browser, site):
    results = await audit_pages(browser, site, "interactive/zoom-clip", {
        "fail": page(f'<main><h1>Poem</h1><div class="teaser" style="overflow: hidden; height: 1.5em">{POEM}</div></main>'),
        # The cut is shown (an ellipsis), the box is one line high by design, or it scrolls.
        "pass": page(
            '<main><h1>Poem</h1>'
            f'<div style="white-space: nowrap; overflow: hidden; text-overflow: ellipsis">{POEM}</div>'
            f'<div style="overflow: hidden; height: 20px; line-height: 20px">{POEM}</div>'
            f'<div style="overflow: hidden; height: 3em"><div style="overflow: auto; height: 3em">{POEM}</div></div>'
            '<a href="/poem">Read the poem</a></main>'
        ),
        # Nothing hides its overflow but a visually hidden label of 1 px.
        "inapplicable": page(
            f'<main><h1>Poem</h1><p>{POEM}</p><a href="/next">Next<span style="position: absolute; width: 1px; '
            'height: 1px; overflow: hidden; clip: rect(0 0 0 0)">: the second stanza</span></a></main>'
        ),
    })
    [finding] = outcome(results["fail"], RULE).findings
    assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["1.4.4"], "AA")
    assert finding.selector == "html > body > main > div" and finding.act_rules == ["59br37"]
    summary = finding.failure_summary or ""
    assert summary.startswith("At 640 x 512 CSS px (1280 x 1024 zoomed to 200%) div.teaser (overflow: hidden;")
    assert "lines" in summary and '"Once upon a midnight dreary' in summary
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
