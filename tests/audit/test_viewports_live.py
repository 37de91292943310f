"""Viewports (#14 item 4): a page audited as a phone finds what the desktop does not, each
item says where it was found, and the phone is a phone to the site as well."""

from __future__ import annotations

from audit.engine import EngineLimits, run_audit
from tests.audit.support import make_request

LIMITS = EngineLimits(navigation_timeout=10, audit_timeout=60)

# An image without a text alternative, found everywhere. Buttons of 32x32 CSS px, far apart on a wide screen; on a narrow one they shrink to 12x12 and
# crowd together (target-size, WCAG 2.5.8) and a wide table's box starts to scroll without
# anything in it to focus (scrollable-region-focusable, the reflow problem axe can see).
SHRINKING = """<!doctype html><html lang=en><head><title>Targets</title>
<meta name=viewport content="width=device-width, initial-scale=1">
<style>
  .pad button { width: 32px; height: 32px; margin: 0 40px; padding: 0; }
  .wide { overflow-x: auto; }
  .wide table { width: 700px; }
  @media (max-width: 500px) {
    .pad button { width: 12px; height: 12px; margin: 0 1px; }
  }
</style></head>
<body><main><h1>Targets</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==">
<div class=pad><button aria-label=one></button><button aria-label=two></button>
<button aria-label=three></button></div>
<div class=wide><table><caption>Wide</caption><tr><th scope=col>Column</th></tr>
<tr><td>A long row of text that is wider than a phone</td></tr></table></div>
<p id=agent></p><script>document.getElementById('agent').textContent =
  navigator.userAgent + ' touch=' + navigator.maxTouchPoints + ' w=' + innerWidth;</script>
</main></body></html>"""


async def test_mobile_finds_target_size_that_desktop_does_not(browser, site):
    url = site.route("/viewports/targets", SHRINKING)
    before = len(site.log)
    request = make_request(url, viewports=["desktop", "mobile", {"width": 320, "height": 640}])
    result = await run_audit(browser, request, LIMITS)

    assert len(result.pages) == 1 and result.pages[0].status == "ok"
    by_viewport: dict[str, set[str]] = {}
    for finding in result.findings:
        by_viewport.setdefault(finding.viewport or "untagged", set()).add(finding.rule_id)
    assert "target-size" in by_viewport["mobile"], by_viewport
    assert "target-size" not in by_viewport.get("desktop", set()), by_viewport
    assert "scrollable-region-focusable" in by_viewport["320x640"], by_viewport
    assert "scrollable-region-focusable" not in by_viewport.get("desktop", set()), by_viewport
    assert "untagged" not in by_viewport
    assert all(item.viewport for item in [*result.needs_review, *result.best_practices])
    assert result.pages[0].findings == len(result.findings) == result.stats.total_findings

    # One load per viewport; the phone's had Android's agent and client hints.
    loads = [r for r in site.log[before:] if r.path == "/viewports/targets"]
    assert len(loads) == 3
    agents = [r.headers.get("User-Agent", "") for r in loads]
    assert "Android" not in agents[0] and "Android" in agents[1] and "Mobile Safari" in agents[1]
    assert "Android" not in agents[2]  # the phone's agent is gone once the viewport is not one
    assert loads[1].headers.get("sec-ch-ua-mobile") == "?1"
    major = (browser.version.product.split("/")[1]).split(".")[0]
    assert f"Chrome/{major}.0.0.0" in agents[1]


async def test_one_viewport_tags_its_items_and_none_leaves_them_untagged(browser, site):
    url = site.route("/viewports/one", SHRINKING)
    mobile = await run_audit(browser, make_request(url, viewport="mobile"), LIMITS)
    assert {f.viewport for f in mobile.findings} == {"mobile"}
    assert "target-size" in {f.rule_id for f in mobile.findings}
    plain = await run_audit(browser, make_request(url), LIMITS)
    assert plain.findings and {f.viewport for f in plain.findings} == {None}
    assert "target-size" not in {f.rule_id for f in plain.findings}
