"""No new false alarm: realistic pages with nothing wrong stay conformant with score 100 with
every check of ours, override and adopted rule running (WCAG 2.2 AA and AAA-only checks off),
and the checks are registered with axe as declared."""

from __future__ import annotations

import re

from audit.axe import axe_world, inject
from audit.checks import ADOPTED, CHECKS
from cdpdriver import evaluate
from tests.audit.checks.support import audit_pages, page

HEADER = (
    '<a class="skip" href="#main">Skip to content</a>'
    '<header><a href="/"><img src="/audit/pixel.png" alt="Harbour Bakery home" width="1" height="1"></a>'
    '<nav aria-label="Site"><ul><li><a href="/bread">Bread</a></li><li><a href="/cakes">Cakes</a></li>'
    '<li><a href="/visit">Visit us</a></li></ul></nav></header>'
)
FOOTER = '<footer><p>Harbour Bakery, 3 Quay Street. <a href="/contact">Contact</a></p></footer>'
STYLE = (
    "<style>body { font: 16px/1.5 sans-serif; color: #222; background: #fff; margin: 0 1em; }"
    " .skip { position: absolute; left: -999px; } .skip:focus { left: 1em; }"
    " nav ul { display: flex; gap: 1em; list-style: none; padding: 0; }"
    " a { color: #0645ad; } button, input, select { font: inherit; }</style>"
)

ARTICLE = page(
    HEADER
    + '<main id="main"><article><h1>Why rye bread keeps</h1>'
    "<p>Rye flour holds water well, so the crumb stays moist for days.</p>"
    '<figure><img src="/audit/pixel.png" alt="A dark rye loaf on a board" width="1" height="1">'
    "<figcaption>Our daily rye.</figcaption></figure>"
    "<h2>Storing it</h2><p>Wrap it in linen and keep it at room temperature.</p>"
    '<p style="line-height: 1.6 !important; max-width: 20em">A tight wrap keeps the crust soft, '
    "a loose one keeps it crisp; both keep the crumb from drying.</p></article>"
    '<aside aria-label="Related"><h2>Related</h2><ul><li><a href="/spelt">Spelt loaves</a></li></ul></aside>'
    "</main>" + FOOTER,
    "Why rye bread keeps - Harbour Bakery",
    STYLE,
)

SHOP = page(
    HEADER
    + '<main id="main"><h1>Order a cake</h1>'
    "<table><caption>Sizes and prices</caption><tr><th scope=\"col\">Size</th><th scope=\"col\">Serves</th>"
    '<th scope="col">Price</th></tr><tr><td>Small</td><td>6</td><td>18 euros</td></tr>'
    "<tr><td>Large</td><td>12</td><td>30 euros</td></tr></table>"
    '<form action="/order"><p><label for="size">Size</label> <select id="size"><option>Small</option>'
    '<option>Large</option></select></p><p><label for="name">Your name</label> '
    '<input id="name" autocomplete="name"></p><p><button>Order</button></p></form>'
    '<h2>Find us</h2><iframe title="Map of Quay Street" srcdoc="<p>Quay Street, by the harbour.</p>"></iframe>'
    "</main>" + FOOTER,
    "Order a cake - Harbour Bakery",
    STYLE,
)

APP = page(
    HEADER
    + '<main id="main"><h1>Opening hours</h1>'
    '<div role="grid" aria-label="Opening hours"><div role="row"><span role="columnheader">Day</span>'
    '<span role="columnheader">Opens</span><span role="columnheader">Closes</span></div>'
    '<div role="row"><span role="rowheader">Monday</span><span role="gridcell">7:00</span>'
    '<span role="gridcell">18:00</span></div><div role="row"><span role="rowheader">Sunday</span>'
    '<span role="gridcell">8:00</span><span role="gridcell">13:00</span></div></div>'
    '<h2>News</h2><div tabindex="0" role="region" aria-label="News" style="height: 4em; overflow: auto">'
    "<p>New oven in May.</p><p>Closed on the first of June.</p><p>Summer hours from July.</p></div>"
    '<p><a href="/visit" aria-label="Visit us on Quay Street">Visit us</a></p>'
    "</main>" + FOOTER,
    "Opening hours - Harbour Bakery",
    STYLE,
)


async def test_clean_pages_stay_conformant_with_score_100(browser, site):
    results = await audit_pages(browser, site, "checks/clean", {"article": ARTICLE, "shop": SHOP, "app": APP})
    for name, result in results.items():
        items = [(f.rule_id, f.selector) for f in result.findings]
        assert (name, result.conformant, result.score, items) == (name, True, 100.0, [])
        assert [(r.rule_id, r.selector) for r in result.needs_review] == [], name
    tested = {rule for result in results.values() for rule in result.pages[0].rules_tested}
    assert {"a11y-bypass-reaches-main", "a11y-header-has-cells", "a11y-frame-name-purpose"} <= tested
    assert {"css-orientation-lock", "avoid-inline-spacing", "scrollable-region-focusable"} <= tested


async def test_checks_are_registered_with_axe(page):
    world = await axe_world(page.session, page.main_frame_id)
    await inject(page.session, world)
    rules = {
        r["ruleId"]: r
        for r in await evaluate(page.session, "axe.getRules().map(r => ({...r}))", world)
    }
    for check in CHECKS:
        assert rules[check.rule_id].get("actIds") == list(check.act_rules)
        assert rules[check.rule_id]["helpUrl"] == f"docs/checks.md#{check.rule_id}"
        assert set(check.tags) <= set(rules[check.rule_id]["tags"])
    level = re.compile(r"^wcag2\d?a{1,3}$")
    left_out = {
        rule_id for rule_id, rule in rules.items()
        if rule.get("actIds") and {"deprecated", "experimental"} & set(rule["tags"])
        and any(level.match(tag) for tag in rule["tags"])
    }
    assert left_out == set()  # every one ACT maps with a current criterion is adopted
    for adopted in ADOPTED:
        assert set(adopted.act_rules) <= set(rules[adopted.rule_id].get("actIds") or [])
