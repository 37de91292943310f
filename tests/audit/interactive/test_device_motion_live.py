"""a11y-device-motion through the real engine: a value only tilting the device changes fails;
one that buttons change too, with a switch that turns motion off, passes, as does a page that
listens but changes nothing; a page that does not listen does not apply."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-device-motion"
LEVEL = (
    '<p>Level: <output id="level">50</output></p>'
    "<script>let level = 50; const show = () => { document.getElementById('level').textContent = String(level); };"
    "const step = (by) => { level = Math.max(0, Math.min(100, level + by)); show(); };"
    "window.addEventListener('deviceorientation', (e) => {"
    " const off = document.getElementById('still'); if (off && off.checked) return;"
    " if (e.gamma > 20) step(1); else if (e.gamma < -20) step(-1); });</script>"
)
CONTROLS = (
    '<p><button type="button" id="down">Lower</button> <button type="button" id="up">Raise</button></p>'
    '<p><input type="checkbox" id="still"> <label for="still">Turn off motion control</label></p>'
    "<script>document.getElementById('down').addEventListener('click', () => step(-1));"
    "document.getElementById('up').addEventListener('click', () => step(1));</script>"
)


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


async def test_device_motion(browser, site):
    results = await audit_pages(browser, site, "interactive/motion", {
        "fail": page(f"<main><h1>Spirit level</h1><p>Tilt your phone.</p>{LEVEL}</main>"),
        "pass": page(f"<main><h1>Spirit level</h1><p>Tilt your phone.</p>{LEVEL}{CONTROLS}</main>"),
        # Listens, but only counts.
        "pass-counter": page(
            "<main><h1>Bakery</h1><p>Fresh bread.</p></main>"
            "<script>let moves = 0; window.addEventListener('devicemotion', () => { moves += 1; });</script>"
        ),
        "inapplicable": page("<main><h1>Bakery</h1><p>Fresh bread.</p><button type=\"button\">Order</button></main>"),
    })
    [finding] = outcome(results["fail"], RULE).findings
    assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["2.5.4"], "A")
    assert finding.selector == "html" and finding.act_rules == ["7677a9", "c249d5"]
    assert finding.failure_summary == (
        "Tilting and shaking the device changes output#level, and the page has no control that does the same or "
        "turns the motion off: the change needs moving the device. Offer a control for it and a way to turn motion off."
    )
    for name in ("pass", "pass-counter"):
        passed = outcome(results[name], RULE)
        assert passed.clean and passed.tested, name
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
