"""Pages that try to hurt the auditor (issue #17's fault suite): each ends in a typed answer
within its bounds, and the browser serves the next audit as before."""

from __future__ import annotations

import pytest
import trio

from audit.engine import EngineLimits, run_audit
from audit.failures import AuditFailed
from tests.audit.support import make_request
from tests.support.site import Response

HEAD = "<!doctype html><html lang=en><head><title>{}</title></head><body><main>"
LIMITS = EngineLimits(navigation_timeout=8, audit_timeout=40, settle_timeout=1.0)


async def _healthy(browser, site) -> None:
    """The same browser still audits an ordinary page."""
    url = site.route("/faults/ordinary.html", HEAD.format("ordinary") + "<h1>Fine</h1></main>")
    result = await run_audit(browser, make_request(url), LIMITS)
    assert result.pages[0].status == "ok" and result.findings == []


async def test_a_redirect_loop_is_navigation_failed(browser, site):
    site.route("/faults/loop-a", Response(status=302, headers={"Location": "/faults/loop-b"}))
    url = site.route("/faults/loop-b", Response(status=302, headers={"Location": "/faults/loop-a"}))
    with trio.fail_after(30), pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url), LIMITS)
    assert info.value.code == "navigation_failed"
    assert "REDIRECT" in info.value.message.upper()
    await _healthy(browser, site)


async def test_a_30_mb_page_is_audited_or_refused_within_bounds(browser, site):
    row = "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.</p>\n"
    body = HEAD.format("huge") + row * (30_000_000 // len(row)) + "<img src=x.png></main>"
    url = site.route("/faults/huge.html", body)
    with trio.fail_after(120):
        try:
            result = await run_audit(browser, make_request(url), LIMITS)
        except AuditFailed as exc:  # too big for the budget: a typed failure, not a hang
            assert exc.code in {"timeout", "audit_failed"}, exc
        else:
            assert result.pages[0].status == "ok"
            assert "image-alt" in {f.rule_id for f in result.findings}
    await _healthy(browser, site)


async def test_an_endless_script_after_load_is_a_timeout_and_the_tab_is_dropped(browser, site):
    url = site.route(
        "/faults/spin.html",
        HEAD.format("spin") + "<h1>Spin</h1></main><script>addEventListener('load', () => "
        "setTimeout(() => { for (;;) {} }, 0));</script>",
    )
    with trio.fail_after(60), pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url), EngineLimits(navigation_timeout=8, audit_timeout=5))
    assert info.value.code == "timeout"
    await _healthy(browser, site)


ATTACHMENT = Response(b"%PDF-1.4 not really\n", content_type="application/octet-stream",
                      headers={"Content-Disposition": 'attachment; filename="../../evil.sh"'})


async def test_a_download_as_the_start_page_is_a_typed_failure(browser, site):
    url = site.route("/faults/file.bin", ATTACHMENT)
    with trio.fail_after(30), pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url), LIMITS)
    assert info.value.code in {"navigation_failed", "audit_failed"}
    await _healthy(browser, site)


async def test_a_download_link_in_a_crawl_is_a_failed_page_not_a_failed_crawl(browser, site):
    site.route("/faults/crawl/file.bin", ATTACHMENT)
    url = site.route(
        "/faults/crawl/index.html",
        HEAD.format("crawl") + "<h1>Start</h1><a href=/faults/crawl/file.bin>file</a>"
        "<a href=/faults/crawl/next.html>next</a></main>",
    )
    site.route("/faults/crawl/next.html", HEAD.format("next") + "<h1>Next</h1></main>")
    request = make_request(url, crawl={"enabled": True, "depth": 1, "maxPages": 5})
    with trio.fail_after(60):
        result = await run_audit(browser, request, LIMITS)
    by_url = {page.url.rsplit("/", 1)[1]: page for page in result.pages}
    assert by_url["index.html"].status == "ok" and by_url["next.html"].status == "ok"
    assert by_url["file.bin"].status in {"failed", "skipped"}
