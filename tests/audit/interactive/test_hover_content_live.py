"""a11y-hover-content through the real engine: a tooltip that vanishes when the pointer moves
onto it, and a hover menu that Escape cannot dismiss over other text, fail; a tooltip that can
be hovered, dismissed (at once, or by a timer a moment after Escape) and focused passes; a title attribute and a colour change on hover do
not apply."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-hover-content"
STYLE = (
    "<style>body { font: 16px/1.5 sans-serif; } .tip { position: absolute; background: #ffd; padding: 4px;"
    " width: 14em; } a { transition: color .2s; } a:hover { color: #900; }</style>"
)
TEXT = "<p>Fresh bread every morning, cakes to order, and coffee by the harbour until six.</p>"


def tooltip(*, hoverable: bool, escape: bool, escape_after_ms: int = 0) -> str:
    """A button whose tooltip opens on hover and focus, beside it; Escape hides it at once or,
    as widgets with a hide delay or effect do, ``escape_after_ms`` later."""
    leave = (
        "let timer; const hide = () => { timer = setTimeout(() => { tip.hidden = true; }, 100); };"
        "const keep = () => clearTimeout(timer);"
        "b.addEventListener('mouseleave', hide); tip.addEventListener('mouseenter', keep);"
        "tip.addEventListener('mouseleave', hide); b.addEventListener('mouseenter', keep);"
        if hoverable else "b.addEventListener('mouseleave', () => { tip.hidden = true; });"
    )
    return (
        '<p><button type="button" id="help" aria-describedby="tip">Opening hours</button>'
        '<span class="tip" id="tip" role="tooltip" hidden>Monday to Saturday, 7:00 to 18:00.</span> and more words '
        "beside the button that the tooltip covers when it opens.</p>"
        "<script>const b = document.getElementById('help'), tip = document.getElementById('tip');"
        "b.addEventListener('mouseenter', () => { tip.hidden = false; });"
        "b.addEventListener('focus', () => { tip.hidden = false; });"
        "b.addEventListener('blur', () => { tip.hidden = true; });"
        + leave
        + ("document.addEventListener('keydown', (e) => { if (e.key === 'Escape') setTimeout(() => { tip.hidden = true; }, "
           f"{escape_after_ms}); }});" if escape else "")
        + "</script>"
    )


MENU = (
    "<style>.menu { display: flex; gap: 2em; list-style: none; padding: 0; margin: 0; } .menu li { position: relative; }"
    " .menu ul { display: none; position: absolute; top: 100%; left: 0; width: 12em; background: #fff;"
    " list-style: none; padding: .5em; border: 1px solid; } .menu li:hover > ul { display: block; }</style>"
    '<nav aria-label="Site"><ul class="menu"><li id="products"><a href="/products">Products</a><ul>'
    '<li><a href="/bread">Bread</a></li><li><a href="/cakes">Cakes</a></li></ul></li>'
    '<li><a href="/about">About</a></li></ul></nav>'
)


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


async def test_hover_content(browser, site):
    results = await audit_pages(browser, site, "interactive/hover", {
        "fail-tooltip": page(f"<main><h1>Visit</h1>{tooltip(hoverable=False, escape=True)}{TEXT}</main>", head=STYLE),
        "fail-menu": page(f"{MENU}<main><h1>Our bakery</h1>{TEXT}{TEXT}</main>", head=STYLE),
        "pass": page(f"<main><h1>Visit</h1>{tooltip(hoverable=True, escape=True)}{TEXT}</main>", head=STYLE),
        "pass-hide-delay": page(
            f"<main><h1>Visit</h1>{tooltip(hoverable=True, escape=True, escape_after_ms=250)}{TEXT}</main>", head=STYLE),
        # The browser's own tooltip and a colour transition on hover.
        "inapplicable": page(
            f'<main><h1>Visit</h1><p><a href="/hours" title="Monday to Saturday">Opening hours</a></p>{TEXT}</main>',
            head=STYLE,
        ),
    })
    [tip] = outcome(results["fail-tooltip"], RULE).findings
    assert (tip.source, tip.success_criteria, tip.level) == ("a11y", ["1.4.13"], "AA")
    assert tip.selector == "#help" and tip.act_rules == []
    assert tip.failure_summary == (
        'Hovering button#help shows span#tip.tip ("Monday to Saturday, 7:00 to 18:00."), but it disappears when the '
        "pointer moves onto it, so it cannot be hovered."
    )
    [menu] = outcome(results["fail-menu"], RULE).findings
    assert menu.selector == "#products"
    assert "but Escape does not dismiss it and it covers other content" in (menu.failure_summary or "")
    for name in ("pass", "pass-hide-delay"):
        passed = outcome(results[name], RULE)
        assert passed.clean and passed.tested, (name, passed)
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
