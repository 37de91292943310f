"""a11y-reflow through the real engine: at 320 CSS px wide, a fixed-width text block that makes
the page scroll sideways fails, while a responsive page, a wrapping card grid, a data table in
its own scroll container and a long code line pass."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-reflow"


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])
TEXT = "Our harbour bakery opens a second shop this spring, with a bigger oven and longer hours."
RESPONSIVE = (
    "<style>body { font: 16px/1.5 sans-serif; margin: 0 1em; } img { max-width: 100%; height: auto; }"
    " nav ul { display: flex; flex-wrap: wrap; gap: 1em; list-style: none; padding: 0; }"
    " .grid { display: flex; flex-wrap: wrap; gap: 1em; } .card { flex: 1 1 200px; border: 1px solid; }"
    " .wrap { overflow-x: auto; }</style>"
)
NAV = (
    '<nav aria-label="Site"><ul><li><a href="/bread">Bread and rolls</a></li><li><a href="/cakes">Cakes</a></li>'
    '<li><a href="/visit">Visit us today</a></li><li><a href="/contact">Contact</a></li></ul></nav>'
)
TABLE = (
    '<div class="wrap" tabindex="0" role="region" aria-label="Prices"><table><caption>Prices</caption>'
    "<tr><th>Size</th><th>Serves</th><th>Price</th><th>Filling</th><th>Notes</th></tr>"
    "<tr><td>Small</td><td>6</td><td>18 euros</td><td>Chocolate and cream</td><td>Order two days ahead</td></tr>"
    "</table></div>"
)

_LINKS = "".join(f'<li><a href="/{n}">{n.title()} and everything about it</a></li>' for n in ("bread", "cakes", "visits"))
#: A row 900 px wide at the audit's own size, a wrapping list below 600 px, set by script on
#: ``#menu``: each way a script can answer a new window size, by name.
_ROW = (
    "const menu = document.getElementById('menu'); const row = (wide) => { menu.style.cssText = wide ? "
    "'display: flex; width: 900px; white-space: nowrap; gap: 2em; list-style: none' : ''; };"
)
_COLLAPSE = {
    # the window's resize event, handled on a 0 ms timer as debounced handlers do
    "resize": "const layout = () => row(innerWidth >= 600); layout(); addEventListener('resize', () => setTimeout(layout, 0));",
    # a media query's change event
    "query": "const query = matchMedia('(min-width: 600px)'); row(query.matches);"
    " query.addEventListener('change', (event) => row(event.matches));",
    # a resize observer on the document's root
    "observer": "new ResizeObserver(([entry]) => row(entry.contentRect.width >= 600)).observe(document.documentElement);",
}


async def test_reflow(browser, site):
    results = await audit_pages(browser, site, "interactive/reflow", {
        "fail": page(f'<main><h1>News</h1><div class="hero" style="width: 700px"><p>{TEXT}</p></div></main>'),
        # A responsive article: a nav that wraps, a card grid, a data table and code that
        # scroll on their own, an image that scales.
        "pass": page(
            f'{NAV}<main><h1>News</h1><p>{TEXT}</p><div class="grid"><div class="card">One</div>'
            f'<div class="card">Two</div><div class="card">Three</div></div>{TABLE}'
            '<pre style="overflow-x: auto">const loaves = bakeAll(["rye", "spelt", "wheat"], {oven: 2, hours: 6});</pre>'
            '<img src="/audit/pixel.png" alt="The shop" width="900" height="90"></main>',
            head=RESPONSIVE,
        ),
        # One line of inline parts that does not wrap (an API signature): the box it is laid
        # out in is the culprit, once, not each part that reaches past the edge.
        "fail-line": page(
            '<main><h1>API</h1><dl><dt style="white-space: nowrap">make_loaf(<em>flour_kind</em>, '
            '<em>water_millilitres</em>, <span class="paren">(</span><em><span class="n">oven_temperature_'
            'in_celsius</span></em><span class="paren">)</span>, <em>proofing_minutes_before_baking</em>)</dt>'
            f"<dd><p>{TEXT}</p></dd></dl></main>",
            head=RESPONSIVE,
        ),
        # Menus laid out in a row by script and collapsed by script when the window narrows, one
        # page for each way (:data:`_COLLAPSE`). The check reads the page only after the frame
        # that runs the script's answer, and the timers it sets.
        **{
            f"pass-script-{how}": page(
                f'<nav aria-label="Site"><ul id="menu">{_LINKS}</ul></nav><main><h1>News</h1><p>{TEXT}</p></main>'
                f"<script>{_ROW}{script}</script>",
                head=RESPONSIVE,
            )
            for how, script in _COLLAPSE.items()
        },
        # Only an unscrolled code sample sticks out: code may need two dimensions.
        "pass-code": page(
            f"<main><h1>Recipe script</h1><p>{TEXT}</p>"
            '<pre>const loaves = bakeAll(["rye", "spelt", "wheat"], {oven: 2, hours: 6, crust: "dark"});</pre></main>',
            head=RESPONSIVE,
        ),
    })
    [finding] = outcome(results["fail"], RULE).findings
    assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["1.4.10"], "AA")
    assert finding.selector == "html > body > main > div" and finding.impact == "serious"
    assert finding.act_rules == []
    summary = finding.failure_summary or ""
    assert summary.startswith("At 320 CSS px wide the page scrolls ") and "div.hero (700 px wide)" in summary
    assert "Our harbour bakery" in summary
    [line] = outcome(results["fail-line"], RULE).findings
    assert line.selector == "html > body > main > dl > dt", line.selector
    for name in ("pass", "pass-code", *(f"pass-script-{how}" for how in _COLLAPSE)):
        passed = outcome(results[name], RULE)
        assert passed.clean and passed.tested, name
