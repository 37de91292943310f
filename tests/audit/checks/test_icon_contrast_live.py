"""a11y-icon-contrast (WCAG 1.4.11) through the real engine: icon-only buttons and links drawn in
pale grey fail (an svg's fill, an svg's stroke, a symbol drawn through <use>, an icon-font
glyph put there by ::before; icons whose only text is hidden for screen readers); dark icons, an icon on a dark button, a two-colour icon with one
strong colour and a faded icon made dark enough pass; an icon filled with a gradient needs
review; a button with visible text beside its icon, a disabled icon button and an icon outside
any control do not apply."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-icon-contrast"
NS = 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"'
CROSS = "M4 4 L20 20 M20 4 L4 20"
DOT = '<circle cx="12" cy="12" r="8"/>'
STYLE = (
    "<style>body { background: #fff; font: 16px sans-serif } button { background: none; border: 0; padding: 4px }"
    " @font-face { font-family: Glyphs; src: local('DejaVu Sans') } .glyph::before { font-family: Glyphs;"
    " content: '\\e900'; color: #c8c8c8 } .sr-only { position: absolute; width: 1px; height: 1px;"
    " overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap } .away { position: absolute; left: -9999px }</style>"
)


async def test_icon_contrast(browser, site):
    results = await audit_pages(
        browser,
        site,
        "checks/icon-contrast",
        {
            "fail": page(
                f'{STYLE}<main><h1>Basket</h1><button id="fill" aria-label="Remove"><svg {NS} fill="#cccccc">{DOT}</svg></button>'
                f'<a id="stroke" href="/close" aria-label="Close"><svg {NS} fill="none" stroke="#d0d0d0" stroke-width="2">'
                f'<path d="{CROSS}"/></svg></a>'
                f'<svg width="0" height="0" style="position:absolute"><symbol id="bin" viewBox="0 0 24 24">{DOT}</symbol></svg>'
                f'<button id="sprite" aria-label="Delete" style="color: #bbb"><svg {NS} fill="currentColor"><use href="#bin"/></svg></button>'
                '<button id="glyph" class="glyph" aria-label="Settings"></button>'
                # The name in text for screen readers only, by two visually hidden patterns.
                f'<a id="hidden" href="/basket"><svg {NS} fill="#cccccc">{DOT}</svg><span class="sr-only">Basket</span></a>'
                f'<a id="away" href="/help"><svg {NS} fill="#cccccc">{DOT}</svg><span class="away">Help</span></a></main>'
            ),
            "pass": page(
                f'{STYLE}<main><h1>Basket</h1><button aria-label="Remove"><svg {NS} fill="#595959">{DOT}</svg></button>'
                f'<button aria-label="Search" style="background: #1d3557"><svg {NS} fill="#ffffff">{DOT}</svg></button>'
                f'<a href="/close" aria-label="Close"><svg {NS}><circle cx="12" cy="12" r="10" fill="#eeeeee"/>'
                f'<path d="{CROSS}" stroke="#333333" stroke-width="2"/></svg></a>'
                f'<button aria-label="Share" style="opacity: .9"><svg {NS} fill="#222222">{DOT}</svg></button></main>'
            ),
            "review": page(
                f'{STYLE}<main><h1>Basket</h1><button id="fancy" aria-label="Save"><svg {NS}><defs>'
                '<linearGradient id="g"><stop offset="0" stop-color="#eee"/><stop offset="1" stop-color="#999"/></linearGradient>'
                f'</defs><circle cx="12" cy="12" r="8" fill="url(#g)"/></svg></button></main>'
            ),
            "inapplicable": page(
                f'{STYLE}<main><h1>Basket</h1><button><svg {NS} fill="#ddd">{DOT}</svg> Remove</button>'
                f'<button disabled aria-label="Undo"><svg {NS} fill="#ddd">{DOT}</svg></button>'
                f'<p>Fresh today <svg {NS} fill="#ddd">{DOT}</svg></p></main>'
            ),
        },
        checks={"interaction": False},  # a static check: the interaction phase adds nothing here
    )
    fail = outcome(results["fail"], RULE)
    assert [f.selector for f in fail.findings] == ["#fill", "#stroke", "#sprite", "#glyph", "#hidden", "#away"], fail
    summary = fail.findings[0].failure_summary or ""
    assert "only 1.60:1 (#cccccc on #ffffff)" in summary and "below the 3:1" in summary, summary
    assert (tuple(fail.findings[0].success_criteria), fail.findings[0].level) == (("1.4.11",), "AA")
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested, passed
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#fancy"], review
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested, inapplicable
