"""a11y-page-title-meaningful through the real engine: placeholder, file-name and address titles
fail, vague one-word titles are left to review, real titles pass."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-page-title-meaningful"
BODY = "<main><h1>Opening hours</h1><p>We open at seven every morning.</p></main>"


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


async def test_page_title_meaningful(browser, site):
    results = await audit_pages(browser, site, "interactive/page-title", {
        "placeholder": page(BODY, "Untitled Document"),
        "numbered-placeholder": page(BODY, "New page 2"),
        # A page of a series whose title was cut short: vague, not an editor's leftover.
        "series": page(BODY, "Page 6"),
        "file-name": page(BODY, "opening-hours.html"),
        "address": page(BODY, "https://harbour-bakery.example/hours"),
        "vague": page(BODY, "Home"),
        # Real titles, brand names with dots included.
        "pass": page(BODY, "Opening hours - Harbour Bakery"),
        "pass-brand": page(BODY, "Booking.com"),
        "no-title": '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body>' + BODY + "</body></html>",
    })
    [finding] = outcome(results["placeholder"], RULE).findings
    assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["2.4.2"], "A")
    assert finding.selector == "html > head > title" and finding.act_rules == []
    assert finding.failure_summary.startswith('Page title: "Untitled Document" is a placeholder')
    [finding] = outcome(results["numbered-placeholder"], RULE).findings
    assert "is a placeholder" in finding.failure_summary
    series = outcome(results["series"], RULE)
    assert not series.findings and len(series.review) == 1 and "a generic word and a number" in (series.review[0].failure_summary or "")
    [finding] = outcome(results["file-name"], RULE).findings
    assert "is a file name" in finding.failure_summary
    [finding] = outcome(results["address"], RULE).findings
    assert "is a web address" in finding.failure_summary
    vague = outcome(results["vague"], RULE)
    assert not vague.findings and len(vague.review) == 1 and "one vague word" in (vague.review[0].failure_summary or "")
    for name in ("pass", "pass-brand"):
        passed = outcome(results[name], RULE)
        assert passed.clean and passed.tested, name
    inapplicable = outcome(results["no-title"], RULE)
    assert inapplicable.clean and not inapplicable.tested
