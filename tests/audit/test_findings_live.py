"""Planted problems found by the real engine in a real Chromium, each finding's selector
resolved back to the element it names (through iframes, out-of-process iframes and shadow
roots)."""

from __future__ import annotations

import pytest

from audit.engine import EngineLimits, run_audit
from tests.audit.support import make_request, open_page, resolve_selector
from tests.support.site import Response

FAST = EngineLimits(navigation_timeout=15, audit_timeout=60)


def only(result, rule_id):
    found = [f for f in result.findings if f.rule_id == rule_id]
    assert len(found) == 1, [(f.rule_id, f.selector) for f in result.findings]
    return found[0]


async def assert_resolves(page, finding, tag, element_id=None):
    element = await resolve_selector(page, finding.selector)
    assert element is not None, f"{finding.selector!r} does not resolve"
    assert element["tag"] == tag == finding.element
    if element_id is not None:
        assert element["id"] == element_id
    return element


async def test_planted_problems_on_one_page(browser, page, site):
    url = site.url("/audit/violations.html")
    result = await run_audit(browser, make_request(url), FAST)

    expected = {
        # rule id: (impact, level, success criteria as axe-core 4.14 tags them, tag, element id)
        "image-alt": ("critical", "A", ["1.1.1"], "img", "no-alt"),
        "label": ("critical", "A", ["4.1.2"], "input", "no-label"),
        "color-contrast": ("serious", "AA", ["1.4.3"], "p", "low-contrast"),
        "button-name": ("critical", "A", ["4.1.2"], "button", "empty-button"),
        "html-has-lang": ("serious", "A", ["3.1.1"], "html", ""),
    }
    assert sorted(f.rule_id for f in result.findings) == sorted(expected)
    await open_page(page, url)
    for rule_id, (impact, level, criteria, tag, element_id) in expected.items():
        finding = only(result, rule_id)
        assert (finding.impact, finding.level, finding.success_criteria) == (impact, level, criteria)
        assert finding.help.startswith("https://dequeuniversity.com/rules/axe/")
        assert finding.page_url == url
        await assert_resolves(page, finding, tag, element_id)

    assert [f.id for f in result.findings] == [f"f{i}" for i in range(1, 6)]
    assert result.conformant is False
    assert 0 < result.score < 100
    assert result.stats.total_findings == 5
    assert (result.stats.critical, result.stats.serious) == (3, 2)
    assert result.pages[0].status == "ok" and result.pages[0].http_status == 200
    assert result.engine.name == "axe-core" and result.engine.version.count(".") == 2
    assert result.duration_ms > 0
    assert result.llm is None


async def test_clean_page_is_conformant_with_full_score(browser, site):
    result = await run_audit(browser, make_request(site.url("/audit/clean.html")), FAST)
    assert result.findings == []
    assert result.conformant is True
    assert result.score == 100
    assert result.pages[0].score == 100
    assert "image-alt" in result.pages[0].rules_tested


async def test_violation_inside_same_origin_iframe(browser, page, site):
    site.route("/audit/inner.html", "<!doctype html><html lang=en><title>inner</title><img src=pixel.png>")
    url = site.route(
        "/audit/with-iframe.html",
        "<!doctype html><html lang=en><title>outer</title><main>"
        "<iframe id=same title=inner src='/audit/inner.html'></iframe></main>",
    )
    result = await run_audit(browser, make_request(url), FAST)
    finding = only(result, "image-alt")
    assert finding.selector.startswith("#same >>> ") or finding.selector.startswith("iframe")
    assert finding.selector.count(" >>> ") == 1
    await open_page(page, url)
    element = await assert_resolves(page, finding, "img")
    assert element["session"] is page.session
    assert result.pages[0].untested_frames == []


async def test_violation_inside_cross_site_out_of_process_iframe(browser, page, site):
    inner = site.cross_site_url("/audit/oop-inner.html")
    site.route(
        "/audit/oop-inner.html",
        "<!doctype html><html lang=en><title>inner</title><main><img src=pixel.png></main>",
    )
    url = site.route(
        "/audit/with-oopif.html",
        f"<!doctype html><html lang=en><title>outer</title><main><iframe id=remote title=remote src='{inner}'></iframe></main>",
    )
    result = await run_audit(browser, make_request(url), FAST)
    finding = only(result, "image-alt")
    assert finding.selector.count(" >>> ") == 1
    assert finding.impact == "critical" and finding.success_criteria == ["1.1.1"]
    await open_page(page, url)
    element = await assert_resolves(page, finding, "img")
    assert element["session"] is not page.session  # the hop crossed into the OOPIF's own target
    assert result.pages[0].untested_frames == []


async def test_violation_inside_open_shadow_root(browser, page, site):
    url = site.route(
        "/audit/shadow.html",
        "<!doctype html><html lang=en><title>shadow</title><main><div id=host></div></main><script>"
        "document.getElementById('host').attachShadow({mode: 'open'}).innerHTML ="
        " '<button id=inside></button>';</script>",
    )
    result = await run_audit(browser, make_request(url), FAST)
    finding = only(result, "button-name")
    assert " >>> " in finding.selector
    assert (finding.impact, finding.success_criteria) == ("critical", ["4.1.2"])
    await open_page(page, url)
    await assert_resolves(page, finding, "button", "inside")


async def test_content_rendered_after_load_is_audited(browser, page, site):
    url = site.route(
        "/audit/late.html",
        "<!doctype html><html lang=en><title>late</title><main><h1>Late</h1></main><script>"
        "addEventListener('load', () => setTimeout(() => document.querySelector('main')"
        ".insertAdjacentHTML('beforeend', '<img id=late src=pixel.png>'), 500));</script>",
    )
    result = await run_audit(browser, make_request(url), FAST)
    finding = only(result, "image-alt")
    await open_page(page, url)
    await assert_resolves(page, finding, "img", "late")


async def test_hung_frame_is_reported_untested_and_the_page_still_audited(browser, site):
    inner = site.cross_site_url("/audit/hung.html")
    site.route(
        "/audit/hung.html",
        "<!doctype html><html lang=en><title>hung</title><img src=pixel.png>"
        "<script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 0));</script>",
    )
    url = site.route(
        "/audit/with-hung.html",
        f"<!doctype html><title>outer</title><iframe title=hung src='{inner}'></iframe>",
    )
    limits = EngineLimits(navigation_timeout=15, audit_timeout=60, frame_timeout=1.0)
    result = await run_audit(browser, make_request(url), limits)
    assert result.pages[0].untested_frames == [inner]
    assert [f.rule_id for f in result.findings] == ["html-has-lang"]  # the top frame's own


@pytest.mark.parametrize("best_practices", [False, True])
async def test_best_practices_are_kept_apart(browser, site, best_practices):
    url = site.route(
        "/audit/bp.html",
        "<!doctype html><html lang=en><title>bp</title><div>No landmarks here.</div>"
        "<h3>Skipped heading levels</h3>",
    )
    result = await run_audit(browser, make_request(url, bestPractices=best_practices), FAST)
    assert result.findings == [] and result.conformant is True
    if best_practices:
        assert {"region", "page-has-heading-one"} <= {b.rule_id for b in result.best_practices}
        assert [b.id for b in result.best_practices][:2] == ["b1", "b2"]
    else:
        assert result.best_practices == []


async def test_page_scripts_cannot_tamper_with_axe(browser, site):
    """axe runs in isolated worlds: a page that fakes ``axe``, breaks built-ins and forbids
    every script by CSP is audited all the same."""
    url = site.route(
        "/audit/hostile.html",
        Response(
            "<!doctype html><html lang=en><title>hostile</title><main><img src=pixel.png></main>"
            "<script>window.axe = {runPartial: () => Promise.resolve({}), utils: {}};"
            "Array.prototype.map = () => []; JSON.stringify = () => '{}';"
            "Object.fromEntries = () => ({}); window.Promise = function () {};</script>",
            headers={"Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'"},
        ),
    )
    result = await run_audit(browser, make_request(url), FAST)
    assert [f.rule_id for f in result.findings] == ["image-alt"]


async def test_results_cross_cdp_in_chunks(browser, site, monkeypatch):
    """Partials and results larger than one chunk are split and joined without loss."""
    import cdpdriver.evaluation

    url = site.url("/audit/violations.html")
    whole = await run_audit(browser, make_request(url), FAST)
    monkeypatch.setattr(cdpdriver.evaluation, "CHUNK_CHARS", 997)
    chunked = await run_audit(browser, make_request(url), FAST)
    strip = {"duration_ms"}
    assert chunked.model_dump(exclude=strip) == whole.model_dump(exclude=strip)
