"""a11y-state-exposed through the real engine: a switch, a toggle button and a tab whose clicks
change what they show while aria-checked, aria-pressed and aria-selected stay as loaded, told
from the same widgets updating their state (at once, or from a timer a moment later), from a
pressed look that only hover and focus give, and from a control whose only change is an endless
animation; native checkboxes and plain buttons are not the rule's."""

from __future__ import annotations

import pytest

from audit.interactive import state_exposed
from tests.audit.checks.support import audit_pages, interactive_alone, outcome, page

RULE = "a11y-state-exposed"


@pytest.fixture(autouse=True)
def alone(monkeypatch):
    interactive_alone(monkeypatch, RULE)
    monkeypatch.setattr(state_exposed, "MAX_SECONDS", 30.0)


STYLE = (
    "<style>[role=switch], button { padding: 0.5em 1em; margin: 0.5em; display: inline-block; }"
    ".on { background: #060; color: #fff; } .active { background: #333; color: #fff; }"
    "[role=tab] { border: 0; border-bottom: 3px solid transparent; background: none; }"
    "[role=tab].current { border-bottom-color: #036; }"
    "#hover:hover, #hover:focus { background: #ccc; }"
    ".dot { display: inline-block; width: 10px; height: 10px; background: red; animation: pulse 0.4s infinite; }"
    "@keyframes pulse { from { opacity: 1; transform: scale(1); } to { opacity: 0.2; transform: scale(0.5); } }"
    "</style>"
)


def widgets(*, exposed: bool) -> str:
    """A switch, a toggle button and two tabs; ``exposed``: their clicks update their ARIA state
    too (the button's from a timer, 50 ms later)."""
    switch = "wifi.setAttribute('aria-checked', String(wifi.classList.contains('on')));" if exposed else ""
    pressed = (
        "setTimeout(() => bold.setAttribute('aria-pressed', String(bold.classList.contains('active'))), 50);"
        if exposed else ""
    )
    selected = "t.setAttribute('aria-selected', String(t === tab));" if exposed else ""
    return page(
        '<main><h1>Settings</h1>'
        '<div role="switch" aria-checked="false" tabindex="0" id="wifi">Wi-Fi</div>'
        '<button type="button" aria-pressed="false" id="bold">Bold</button>'
        '<div role="tablist" aria-label="Plans">'
        '<button role="tab" id="t1" aria-selected="true" aria-controls="p1" class="current">Plans</button>'
        '<button role="tab" id="t2" aria-selected="false" aria-controls="p2" tabindex="-1">Prices</button></div>'
        '<div id="p1" role="tabpanel" aria-labelledby="t1">Basic and family plans.</div>'
        '<div id="p2" role="tabpanel" aria-labelledby="t2" hidden>From 5 euros a month.</div></main>'
        "<script>"
        "const wifi = document.getElementById('wifi'), bold = document.getElementById('bold');"
        f"wifi.addEventListener('click', () => {{ wifi.classList.toggle('on'); {switch} }});"
        f"bold.addEventListener('click', () => {{ bold.classList.toggle('active'); {pressed} }});"
        "document.querySelectorAll('[role=tab]').forEach((tab) => tab.addEventListener('click', () => {"
        " document.querySelectorAll('[role=tab]').forEach((t) => {"
        f"  t.classList.toggle('current', t === tab); t.tabIndex = t === tab ? 0 : -1; {selected}"
        "  document.getElementById(t.getAttribute('aria-controls')).hidden = t !== tab; }); }));"
        "</script>",
        head=STYLE,
    )


PASS_EXTRAS = (
    # Looks pressed under the pointer and with focus only: clicking changes nothing else.
    '<div role="checkbox" aria-checked="false" tabindex="0" id="hover">Remember me</div>'
    # An endless animation inside: it changes with no click at all.
    '<div role="switch" aria-checked="false" tabindex="0" id="live"><span class="dot"></span> Live</div>'
)
NATIVE = page(
    '<main><h1>Settings</h1><p><label><input type="checkbox" id="news"> Newsletter</label></p>'
    '<p><button type="button" onclick="this.classList.toggle(\'active\')">Bold</button></p></main>',
    head=STYLE,
)


async def test_state_exposed(browser, site):
    passing = widgets(exposed=True).replace("</main>", f"{PASS_EXTRAS}</main>")
    results = await audit_pages(browser, site, "interactive/state-exposed", {
        "fail": widgets(exposed=False), "pass": passing, "inapplicable": NATIVE,
    }, level="A")
    info = {name: [(s.reason, s.message) for s in result.pages[0].interaction.skipped if s.rule_id == RULE]
            for name, result in results.items()}
    failed = outcome(results["fail"], RULE)
    found = {f.selector: f for f in failed.findings}
    assert sorted(found) == ["#bold", "#t2", "#wifi"], (info["fail"], failed.review)
    for finding in found.values():
        assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["4.1.2"], "A")
        assert finding.impact == "serious"
    assert found["#wifi"].failure_summary.startswith(
        "Clicking div#wifi ('Wi-Fi') changes how it looks (class \"\" → \"on\""), found["#wifi"].failure_summary
    assert 'but aria-checked stays "false"' in found["#wifi"].failure_summary
    assert found["#bold"].failure_summary.startswith(
        "Clicking button#bold ('Bold') changes how it looks"), found["#bold"].failure_summary
    assert 'but aria-pressed stays "false"' in found["#bold"].failure_summary
    assert found["#t2"].failure_summary.startswith(
        "Clicking button#t2 ('Prices') showed its panel (#p2) and made button#t1.current ('Plans') stop looking "
        "chosen"), found["#t2"].failure_summary
    assert 'but aria-selected stays "false" on it and "true" on button#t1.current' in found["#t2"].failure_summary
    assert not failed.review

    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested, (info["pass"], passed.findings, passed.review)
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested, info["inapplicable"]
