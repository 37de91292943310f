"""a11y-focus-contrast (WCAG 1.4.11) through the real engine: a pale outline and a faint
box-shadow ring that are all focus shows fail; a dark outline, a light ring inside a dark
button, a pale ring beside a background change, and a pale ring whose row lights up with
:focus-within pass; a page whose focus shows only by the browser's own ring or a background
colour has no ring to judge."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-focus-contrast"
TEXT = "The ferry leaves the harbour every hour, on the hour, from spring until late autumn."
BASE = "<style>body { background: #fff; font: 16px sans-serif } a, button { outline: none }"


@pytest.fixture(autouse=True)
def only_focus_checks(monkeypatch):
    """The focus walk's checks alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level)
        if check.rule_id in (RULE, "a11y-focus-visible")])


async def test_focus_contrast(browser, site):
    results = await audit_pages(browser, site, "interactive/focus-contrast", {
        "fail": page(
            f"{BASE} #pale:focus {{ outline: 1px solid #ddd }}"
            " #ring:focus { box-shadow: 0 0 0 4px rgba(13, 110, 253, .25) }</style>"
            f'<main><p>{TEXT} <a id="pale" href="/times">Times</a></p>'
            '<p><button id="ring" type="button">Print the timetable</button></p></main>'
        ),
        "pass": page(
            f"{BASE} #dark:focus {{ outline: 2px solid #1d3557 }}"
            " #inside { background: #1d3557; color: #fff; border: 0; padding: .5em }"
            " #inside:focus { outline: 2px solid #fff; outline-offset: -4px }"
            " #both:focus { outline: 1px solid #ddd; background: #ffd }"
            " #row:focus-within { background: #eef } #lit:focus { outline: 1px solid #ddd }</style>"
            f'<main><p>{TEXT} <a id="dark" href="/times">Times</a></p>'
            '<p><button id="inside" type="button">Print the timetable</button></p>'
            '<p><a id="both" href="/fares">Fares</a></p><p id="row"><a id="lit" href="/map">Map</a></p></main>'
        ),
        "inapplicable": page(
            "<style>body { background: #fff } #shaded:focus { outline: none; background: #ffd }</style>"
            f'<main><p>{TEXT} <a href="/times">Times</a> <a id="shaded" href="/fares">Fares</a></p></main>'
        ),
    })
    fail = outcome(results["fail"], RULE)
    assert [f.selector for f in fail.findings] == ["#pale", "#ring"], results["fail"].pages[0].interaction
    first = fail.findings[0].failure_summary or ""
    assert "draws only its outline, at 1.35:1 (#dddddd on #ffffff)" in first, first
    assert "box shadow" in (fail.findings[1].failure_summary or "")
    assert (tuple(fail.findings[0].success_criteria), fail.findings[0].level) == (("1.4.11",), "AA")
    # Faint, but focus does show: not a focus-visible failure.
    assert not outcome(results["fail"], "a11y-focus-visible").findings

    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested, passed
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested, inapplicable
