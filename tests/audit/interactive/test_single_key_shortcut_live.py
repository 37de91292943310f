"""a11y-single-key-shortcut through the real engine: a page-wide shortcut of one letter with
no way to turn it off, told from one a checkbox turns off, one that needs Ctrl, and one that
works only while its field has focus."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-single-key-shortcut"
LIST = '<main><h1>To do</h1><label for="item">New item</label> <input id="item"><ul id="list"></ul>'


def shortcut(condition: str, extra: str = "") -> str:
    """A page where "n" adds an item when ``condition`` holds, listening on the document."""
    return page(
        f"{LIST}{extra}</main><script>let enabled = true;"
        "document.addEventListener('keydown', (e) => {"
        f" if (e.key === 'n' && {condition}) document.getElementById('list').append(document.createElement('li'));"
        " });</script>"
    )


FAIL = shortcut("true")
TOGGLE = shortcut(
    "enabled",
    '<p><label><input type="checkbox" checked onchange="enabled = this.checked"> Keyboard shortcuts</label></p>',
)
MODIFIER = shortcut("e.ctrlKey")
FOCUS_ONLY = shortcut("document.activeElement === document.getElementById('item')")
NONE = page(f"{LIST}</main>")


async def test_single_key_shortcut(browser, site):
    results = await audit_pages(browser, site, "interactive/shortcut", {
        "fail": FAIL, "toggle": TOGGLE, "modifier": MODIFIER, "focus-only": FOCUS_ONLY, "inapplicable": NONE,
    }, level="A")  # level A leaves out the dearer AA checks that run before this one
    info = {name: [(s.reason, s.message) for s in result.pages[0].interaction.skipped if s.rule_id == RULE]
            for name, result in results.items()}
    [finding] = outcome(results["fail"], RULE).findings or [info["fail"]]
    assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["2.1.4"], "A")
    assert finding.selector == "html" and finding.act_rules == ["ffbc54"] and finding.impact == "serious"
    assert "pressing a single key 'n' changed the page (content of ul#list)" in finding.failure_summary
    assert "no control to turn such shortcuts off or remap them" in finding.failure_summary

    for name in ("toggle", "modifier", "focus-only"):
        passed = outcome(results[name], RULE)
        assert passed.clean and passed.tested, (name, info[name])
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
