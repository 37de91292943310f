"""The relayout checks judge the page as loaded, not the popups the interaction phase's own
actions opened and left: a date picker a field's focus opened, placed by its script at the
coordinates of the wider window, makes no reflow, text-spacing or zoom finding at 320 px,
while the same box placed by the page's script at load still fails reflow."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

TEXT = (
    "Pick the day of your visit in the field above; the harbour tours leave every morning at nine "
    "and every afternoon at two, from spring until the end of the autumn holidays."
)
STYLE = (
    "<style>body { font: 16px/1.5 sans-serif; margin: 0 1em } .picker { position: absolute; width: 260px;"
    " height: 60px; overflow: hidden; background: #fff; border: 1px solid #555; z-index: 2 }</style>"
)
#: A picker placed by script next to its field, at the field's right edge in the wide window:
#: 700 px from the left, and low enough to lie over the paragraph once its lines grow.
PICKER = (
    '<div class="picker" id="picker" hidden><p>Mo Tu We Th Fr Sa Su</p><p>1 2 3 4 5 6 7</p></div>'
)
SHOW = (
    "const picker = document.getElementById('picker');"
    "const show = () => { picker.hidden = false; picker.style.left = '700px'; picker.style.top = '90px'; };"
)


async def test_what_the_phase_opened_is_not_relaid(browser, site):
    results = await audit_pages(browser, site, "interactive/opened-by-phase", {
        # The field's focus opens the picker; nothing closes it again.
        "opened": page(
            f'{STYLE}<main><h1>Tours</h1><label>Day <input id="day"></label><p>{TEXT}</p>{PICKER}</main>'
            f"<script>{SHOW} document.getElementById('day').addEventListener('focus', show);</script>"
        ),
        # The same box, shown by the page's own script as it loads: the page as loaded.
        "loaded": page(
            f'{STYLE}<main><h1>Tours</h1><label>Day <input id="day"></label><p>{TEXT}</p>{PICKER}</main>'
            f"<script>{SHOW} show();</script>"
        ),
    })
    opened = results["opened"]
    for rule in ("a11y-reflow", "a11y-text-spacing", "a11y-zoom-clipped-text"):
        assert outcome(opened, rule).clean, (rule, opened.findings, opened.needs_review)
    assert outcome(opened, "a11y-reflow").tested

    loaded = outcome(results["loaded"], "a11y-reflow")
    assert [f.selector for f in loaded.findings] == ["#picker"], results["loaded"].findings
