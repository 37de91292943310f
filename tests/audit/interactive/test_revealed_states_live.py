"""a11y-revealed-state through the real engine: content hidden behind a menu button, a
<details> or a tab is opened, audited by axe-core under its own rule ids (the message naming
the control that revealed it), and put back; a control whose aria-expanded ignores the content
it reveals fails."""

from __future__ import annotations

import dataclasses

import pytest

from audit.interactive.phase import merged, results_of
from audit.interactive.revealed_state import CHECK
from audit.interactive.spec import Outcome, Target
from tests.audit.checks import support
from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-revealed-state"
TOGGLE = (
    "<script>"
    "document.querySelectorAll('[aria-controls]').forEach((b) => b.addEventListener('click', () => {"
    " const menu = document.getElementById(b.getAttribute('aria-controls'));"
    " menu.hidden = !menu.hidden;"
    " if (!b.dataset.frozen) b.setAttribute('aria-expanded', String(!menu.hidden)); }));"
    "</script>"
)
LINKS = '<p><a href="/a">First</a> <a href="/b">Second</a></p>'
STYLE = "<style>#menu li { padding: 0.5em 0; }</style>"


@pytest.fixture(autouse=True)
def roomy_budget(monkeypatch):
    """These checks run after a dozen others that share the phase's 3 s; on a loaded test
    machine the budget, not the page, would decide. The budget itself is the phase's to test."""
    monkeypatch.setattr(support, "LIMITS", dataclasses.replace(support.LIMITS, interaction_budget=10.0))


def menu(items: str, *, frozen: bool = False) -> str:
    return page(
        '<header><nav aria-label="Site">'
        f'<button type="button" id="menu-toggle" aria-expanded="false" aria-controls="menu"{" data-frozen=1" if frozen else ""}>Menu</button>'
        f'<ul id="menu" hidden>{items}</ul></nav></header><main><h1>Bakery</h1>{LINKS}</main>{TOGGLE}',
        head=STYLE,
    )


# A menu button as the ARIA practices make one: focus moves into the menu, Escape closes it and
# gives focus back, a second press of the button closes it too.
MENU_BUTTON = page(
    '<header><nav aria-label="Account"><button type="button" id="account" aria-haspopup="true" '
    'aria-expanded="false" aria-controls="actions">Account</button>'
    '<ul role="menu" id="actions" aria-labelledby="account" hidden>'
    '<li role="none"><a role="menuitem" href="/orders">Orders</a></li>'
    '<li role="none"><a role="menuitem" href="/settings">Settings</a></li></ul></nav></header>'
    f"<main><h1>Bakery</h1>{LINKS}</main>"
    "<script>"
    "const b = document.getElementById('account'), m = document.getElementById('actions');"
    "const set = (open) => { m.hidden = !open; b.setAttribute('aria-expanded', String(open));"
    " if (open) m.querySelector('a').focus(); };"
    "b.addEventListener('click', () => set(m.hidden));"
    "m.addEventListener('keydown', (e) => { if (e.key === 'Escape') { set(false); b.focus(); } });"
    "</script>",
    head="<style>#actions li { padding: 0.5em 0; }</style>",
)
GOOD_ITEMS = '<li><a href="/bread">Bread</a></li><li><a href="/cakes">Cakes</a></li>'
BAD_ITEMS = '<li><a href="/bread">Bread</a></li><li><img src="/audit/pixel.png" id="logo" width="20" height="20"></li>'


async def test_revealed_state(browser, site):
    results = await audit_pages(browser, site, "interactive/revealed", {
        # The menu hides an image without alternative text: axe's image-alt, once opened.
        "fail-image": menu(BAD_ITEMS),
        # The menu opens, but its button keeps saying it is collapsed.
        "fail-expanded": menu(GOOD_ITEMS, frozen=True),
        # An accessible menu button; a <details> whose content is fine.
        # A menu that opens when the pointer rests on it: the click did not open it, so the stale
        # aria-expanded is left to review.
        "review-hover": page(
            '<header><nav aria-label="Site"><ul class="bar"><li><span role="button" tabindex="0" id="shop" '
            'aria-expanded="false" aria-controls="sub">Shop</span><ul id="sub"><li><a href="/bread">Bread</a></li>'
            f'</ul></li></ul></nav></header><main><h1>Bakery</h1>{LINKS}</main>',
            head="<style>#sub { display: none; } .bar li:hover > #sub { display: block; } #sub li { padding: 0.5em 0; }</style>",
        ),
        "pass": menu(GOOD_ITEMS),
        "pass-menu-button": MENU_BUTTON,
        "pass-details": page(
            f"<main><h1>FAQ</h1><details><summary>Opening hours</summary><p>From 7 to 18.</p></details>{LINKS}</main>"
        ),
        # A hidden image already reported by the static pass is not reported twice; the one in
        # the tab panel is new.
        "tabs": page(
            '<main><h1>Cakes</h1><div role="tablist" aria-label="Cakes">'
            '<button role="tab" id="t1" aria-selected="true" aria-controls="p1">Small</button>'
            '<button role="tab" id="t2" aria-selected="false" aria-controls="p2" tabindex="-1">Large</button></div>'
            '<div role="tabpanel" id="p1" aria-labelledby="t1"><p>Serves 6.</p></div>'
            '<div role="tabpanel" id="p2" aria-labelledby="t2" hidden><p>Serves 12.</p>'
            '<img src="/audit/pixel.png" id="large" width="20" height="20"></div>'
            '<img src="/audit/pixel.png" id="shown" width="20" height="20"></main>'
            "<script>"
            "document.querySelectorAll('[role=tab]').forEach((tab) => tab.addEventListener('click', () => {"
            " document.querySelectorAll('[role=tab]').forEach((t) => {"
            "  const on = t === tab; t.setAttribute('aria-selected', String(on)); t.tabIndex = on ? 0 : -1;"
            "  document.getElementById(t.getAttribute('aria-controls')).hidden = !on; }); }));"
            "</script>"
        ),
        "inapplicable": page(f"<main><h1>Bakery</h1>{LINKS}<button type=button>Go</button></main>"),
    })
    image = [f for f in results["fail-image"].findings if f.rule_id == "image-alt"]
    assert [f.selector for f in image] == ["#logo"], results["fail-image"].pages[0].interaction
    assert image[0].source == "axe" and image[0].success_criteria == ["1.1.1"]
    assert image[0].failure_summary.startswith(
        'Shown after pressing Enter on button#menu-toggle ("Menu") (aria-expanded false → true). '
    )
    assert outcome(results["fail-image"], RULE).clean and outcome(results["fail-image"], RULE).tested

    found = outcome(results["fail-expanded"], RULE).findings
    assert len(found) == 1, (found, results["fail-expanded"].pages[0].interaction)
    [finding] = found
    assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["4.1.2"], "A")
    assert finding.selector == "#menu-toggle" and finding.impact == "serious"
    assert 'showed ul#menu, the content its aria-controls names, but aria-expanded stayed "false"' in finding.failure_summary

    hover = outcome(results["review-hover"], RULE)
    assert not hover.findings and [r.selector for r in hover.review] == ["#shop"], results["review-hover"].pages[0].interaction
    assert 'Clicking span#shop ("Shop") showed ul#sub' in hover.review[0].reason

    for name in ("pass", "pass-menu-button", "pass-details"):
        result = results[name]
        assert outcome(result, RULE).tested, (name, result.pages[0].interaction)
        assert [(f.rule_id, f.selector) for f in result.findings] == [], name
        assert [(r.rule_id, r.selector) for r in result.needs_review] == [], name

    tabs = results["tabs"]
    assert sorted(f.selector for f in tabs.findings if f.rule_id == "image-alt") == ["#large", "#shown"]
    large = next(f for f in tabs.findings if f.selector == "#large")
    assert large.failure_summary.startswith('Shown after pressing Enter on button#t2 ("Large")')
    assert outcome(tabs, RULE).tested

    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested


def test_outcomes_of_axe_rules_merge_without_repeats():
    """A check's outcome may belong to an axe rule (its node kept whole); the merge leaves out
    what the static pass already reported for the same rule and element."""
    rule = {"id": "image-alt", "impact": "critical", "tags": ["wcag2a", "wcag111"], "description": "d",
            "help": "h", "helpUrl": "u", "nodes": [{"target": ["#other"]}]}
    node = {"target": ["#logo"], "html": "<img id=logo>", "failureSummary": "Shown after clicking x. Fix it",
            "any": [{"message": "Shown after clicking x: no alt"}], "all": [], "none": []}
    results = results_of([
        (CHECK, Outcome(Target(("#logo",), "<img id=logo>"), "failed", "Shown after clicking x. Fix it", rule=rule, node=node)),
        (CHECK, Outcome(Target(("#menu-toggle",), "<button>"), "passed", "Clicking showed ul#menu")),
    ])
    assert results["violations"] == [{**rule, "nodes": [node]}]
    assert [r["id"] for r in results["passes"]] == [RULE] and results["incomplete"] == []
    static = {"violations": [{**rule, "nodes": [node]}], "incomplete": [], "passes": [], "inapplicable": []}
    assert merged(static, results)["violations"] == static["violations"]  # reported once
    fresh = merged({"violations": [], "incomplete": [], "passes": []}, results)
    assert fresh["violations"] == results["violations"] and [r["id"] for r in fresh["passes"]] == [RULE]
