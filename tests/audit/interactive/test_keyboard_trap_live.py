"""a11y-keyboard-trap through the real engine: traps found by pressing keys, and the ways
out a keyboard user has (Shift+Tab, Escape, a dialog's Close, the page's own advice) honoured."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-keyboard-trap"
PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="
TRAP = '<button id="held" onblur="setTimeout(() => this.focus(), 10)">Pick a date</button>'
LINKS = '<p><a href="/a">First</a> <a href="/b">Second</a></p>'
DIALOG = (
    '<div role="dialog" aria-modal="true" aria-label="Newsletter" id="d">'
    '<a href="#" id="before" style="position:absolute;top:-999em"></a>'
    '<label>Email <input id="email"></label> <button id="close" type="button">Close</button>'
    '<a href="#" id="after" style="position:absolute;top:-999em"></a></div>'
    "<script>"
    "const d = document.getElementById('d');"
    "document.getElementById('before').addEventListener('focus', () => document.getElementById('close').focus());"
    "document.getElementById('after').addEventListener('focus', () => document.getElementById('email').focus());"
    "document.getElementById('close').addEventListener('click', () => { d.hidden = true; });"
    "</script>"
)


async def test_keyboard_trap(browser, site):
    results = await audit_pages(browser, site, "interactive/trap", {
        "fail": page(f"<main>{LINKS}{TRAP}{LINKS}</main>"),
        # The same trap from an animation frame: the read waits for it though no timeout is due.
        "fail-frame": page(
            f"<main>{LINKS}<button id=\"held\" onblur=\"requestAnimationFrame(() => this.focus())\">"
            f"Pick a date</button>{LINKS}</main>"
        ),
        # The same trap on an image map's area, which has no box of its own: focus on it is
        # still on the page.
        "fail-area": page(
            f'<main>{LINKS}<img src="{PIXEL}" width="100" height="100" alt="Harbour map" usemap="#harbour">'
            '<map name="harbour"><area id="held" href="/quay" shape="rect" coords="0,0,50,50" alt="Quay"'
            ' onblur="setTimeout(() => this.focus(), 10)"></map>'
            f"{LINKS}</main>"
        ),
        # The page's only controls send focus to each other from their blur handlers, after a
        # timer: Tab and Shift+Tab take focus out of the page first, so a browser whose
        # toolbar then has focus keeps it. Whether focus can leave depends on the browser.
        "review-after-exit": page(
            '<main><p>Map of the harbour</p><button id="in" onblur="setTimeout(() => out.focus(), 10)">Zoom in</button>'
            '<button id="out" onblur="setTimeout(() => document.getElementById(\'in\').focus(), 10)">Zoom out</button></main>'
        ),
        # Focus cycles inside the dialog, but its Close button lets a keyboard user out.
        "pass-dialog": page(f"<main>{LINKS}{DIALOG}</main>"),
        # Listens for focus, but only to style: nothing holds focus.
        "pass": page(f"<main>{LINKS}<button onfocus=\"this.style.outline='3px solid'\">Pick</button>{LINKS}</main>"),
        "inapplicable": page("<main><p>Nothing here takes focus.</p></main>"),
    })
    [finding] = outcome(results["fail"], RULE).findings
    assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["2.1.2"], "A")
    assert finding.selector == "#held" and finding.impact == "critical"
    assert finding.act_rules == ["a1b64e", "ebe86a", "80af7b"]
    assert "Keyboard trap: after Tab" in (finding.failure_summary or "") and "Pick a date" in finding.failure_summary
    assert RULE in results["fail"].pages[0].interaction.ran
    assert finding.help == "docs/interactive-checks.md#a11y-keyboard-trap"
    asked = outcome(results["review-after-exit"], RULE)
    assert not asked.findings and len(asked.review) == 1, asked
    summary = asked.review[0].failure_summary or ""
    assert summary.startswith("Possible keyboard trap: after Tab") and "took focus out of the page" in summary, summary
    [framed] = outcome(results["fail-frame"], RULE).findings
    assert framed.selector == "#held"
    [area] = outcome(results["fail-area"], RULE).findings
    assert area.selector == "#held" and "Keyboard trap: after Tab" in area.failure_summary
    for name in ("pass", "pass-dialog"):
        passed = outcome(results[name], RULE)
        assert passed.clean and passed.tested, name
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested


async def test_interaction_off_reads_the_dom_only(browser, site):
    results = await audit_pages(
        browser, site, "interactive/off", {"fail": page(f"<main>{LINKS}{TRAP}</main>")}, checks={"interaction": False}
    )
    result = results["fail"]
    assert outcome(result, RULE).clean and result.pages[0].interaction is None
