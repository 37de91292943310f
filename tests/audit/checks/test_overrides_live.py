"""Our corrections to axe-core's rules through the real engine: axe's verdict kept where it is
right (a failing page), changed where the ACT rules show it wrong (a page raw axe-core fails,
shown by running it alone), and no verdict where the rule does not apply."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page, raw_axe_targets

TEXT = "The ferry leaves the harbour every hour, on the hour, from spring until late autumn."


async def test_label_in_name_tolerance(browser, site):
    results = await audit_pages(browser, site, "checks/label", {
        "fail": page('<main><button aria-label="Close the dialog">Cancel</button></main>'),
        "pass": page(
            '<main><a href="/stations" aria-label="Main Street station">Main St. station</a>'
            '<button aria-label="More">More…</button>'
            '<button aria-label="Re-enter the code">Reenter the code</button>'
            '<button aria-label="Find" style="font-family: \'Material Symbols Outlined\'">search</button></main>'
        ),
        "inapplicable": page("<main><button>Save</button></main>"),
    }, version="2.1")
    [finding] = outcome(results["fail"], "label-content-name-mismatch").findings
    assert (finding.source, finding.act_rules, finding.success_criteria) == ("axe", ["2ee8b8"], ["2.5.3"])
    passed = outcome(results["pass"], "label-content-name-mismatch")
    assert passed.clean and passed.tested
    raw = await raw_axe_targets(browser, site.url("/checks/label/pass"), "label-content-name-mismatch")
    assert set(raw) == {"a", 'button[aria-label="Re-enter the code"]', 'button[aria-label="Find"]'}
    inapplicable = outcome(results["inapplicable"], "label-content-name-mismatch")
    assert inapplicable.clean and not inapplicable.tested


async def test_meta_refresh_first_and_symbol_text_contrast(browser, site):
    def refresh(*contents: str) -> str:
        metas = "".join(f'<meta http-equiv="refresh" content="{c}">' for c in contents)
        return page(f"<main><p>{TEXT}</p></main>", head=metas)

    grey = "color: #767676; background: #8a8a8a"
    results = await audit_pages(browser, site, "checks/refresh", {
        "refresh-fail": refresh("soon", "45"),  # the first is no valid refresh: the second counts
        "refresh-pass": refresh("90000", "45"),  # the first valid one is over 20 hours
        "refresh-inapplicable": page(f"<main><p>{TEXT}</p></main>"),
        "contrast-fail": page(f'<main><p style="{grey}">Sale</p></main>'),
        "contrast-pass": page(f'<main><p>{TEXT}</p><p style="{grey}">~ ~ ~ * * * ~ ~ ~</p></main>'),
    })
    [finding] = outcome(results["refresh-fail"], "meta-refresh").findings
    assert finding.html == '<meta http-equiv="refresh" content="45">' and finding.source == "axe"
    assert finding.act_rules == ["bc659a", "bisz58"]
    passed = outcome(results["refresh-pass"], "meta-refresh")
    assert passed.clean and passed.tested
    assert await raw_axe_targets(browser, site.url("/checks/refresh/refresh-pass"), "meta-refresh")
    assert not outcome(results["refresh-inapplicable"], "meta-refresh").tested

    [finding] = outcome(results["contrast-fail"], "color-contrast").findings
    assert finding.act_rules == ["afw4f7", "09o5cg"] and finding.source == "axe"
    assert outcome(results["contrast-pass"], "color-contrast").clean
    assert await raw_axe_targets(browser, site.url("/checks/refresh/contrast-pass"), "color-contrast")


async def test_wrapped_line_height_and_scroll_beyond_padding(browser, site):
    tight = "line-height: 1em !important; width: 12em"
    scroller = "overflow: auto; height: 3em; width: 20em; border: 1px solid"
    results = await audit_pages(browser, site, "checks/spacing", {
        "spacing-fail": page(f'<main><p style="{tight}">{TEXT}</p></main>'),
        "spacing-pass": page(f'<main><p style="{tight}">Short</p></main>'),
        "spacing-inapplicable": page(f"<main><p>{TEXT}</p></main>"),
        "scroll-fail": page(f'<main><div style="{scroller}"><p>{TEXT} {TEXT}</p></div></main>'),
        # Scrolls 40px, less than its 60px of padding: what it hides is the padding.
        "scroll-pass": page(
            '<main><div style="overflow: auto; height: 100px; width: 20em; padding: 30px 0">'
            f'<p style="margin: 0; line-height: 20px; height: 140px; overflow: hidden">{TEXT * 4}</p>'
            "</div></main>"
        ),
        "scroll-inapplicable": page(f"<main><p>{TEXT}</p></main>"),
    })
    [finding] = outcome(results["spacing-fail"], "avoid-inline-spacing").findings
    assert finding.act_rules == ["24afc2", "9e45ec", "78fd32"] and finding.success_criteria == ["1.4.12"]
    assert not await raw_axe_targets(browser, site.url("/checks/spacing/spacing-fail"), "avoid-inline-spacing")
    passed = outcome(results["spacing-pass"], "avoid-inline-spacing")
    assert passed.clean and passed.tested
    assert not outcome(results["spacing-inapplicable"], "avoid-inline-spacing").tested

    [finding] = outcome(results["scroll-fail"], "scrollable-region-focusable").findings
    assert finding.act_rules == ["0ssw9k"] and finding.element == "div"
    assert outcome(results["scroll-pass"], "scrollable-region-focusable").clean
    assert await raw_axe_targets(browser, site.url("/checks/spacing/scroll-pass"), "scrollable-region-focusable")
    assert not outcome(results["scroll-inapplicable"], "scrollable-region-focusable").tested


async def test_inert_frame(browser, site):
    frame = '<iframe title="Links" tabindex="-1" srcdoc="<a href=\'/\'>Home</a>"></iframe>'
    modal = (
        '<dialog id="consent"><p>May we keep a cookie?</p><button>Yes</button></dialog>'
        "<script>document.getElementById('consent').showModal();</script>"
    )
    results = await audit_pages(browser, site, "checks/inert", {
        "fail": page(f"<main>{frame}</main>"),
        "pass": page(f"<main>{frame}<p>{TEXT}</p>{modal}</main>"),  # the open modal makes it inert
        "inapplicable": page(f"<main><p>{TEXT}</p></main>"),
    })
    [finding] = outcome(results["fail"], "frame-focusable-content").findings
    assert finding.act_rules == ["akn7bn"] and finding.selector.startswith("iframe")
    assert outcome(results["pass"], "frame-focusable-content").clean
    assert await raw_axe_targets(browser, site.url("/checks/inert/pass"), "frame-focusable-content")
    assert not outcome(results["inapplicable"], "frame-focusable-content").tested
