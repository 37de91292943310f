"""--block-private-networks: the start page and every subrequest to a private address are
refused before they leave the browser (the test server never sees them)."""

from __future__ import annotations

import re

import pytest
import trio

from audit.engine import EngineLimits, audit_page, run_audit
from audit.failures import AuditFailed
from audit.netguard import NetGuard
from tests.audit.support import make_request
from tests.support.site import Response

#: Also part of the fault suite (issue #17): ``pytest -m faults`` runs it with tests/faults.
pytestmark = pytest.mark.faults

BLOCKING = EngineLimits(navigation_timeout=15, audit_timeout=60, block_private_networks=True)


def paths(site, prefix):
    return [r.path for r in site.log if r.path.startswith(prefix)]


async def test_private_start_page_is_refused(browser, site):
    url = site.route("/guard/start", "<title>never served</title>")
    with pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url), BLOCKING)
    failure = info.value
    assert failure.code == "navigation_failed"
    assert "blocked" in failure.message and "127.0.0.1" in failure.message
    assert failure.details[0]["netError"] == "net::ERR_BLOCKED_BY_CLIENT"
    assert paths(site, "/guard/start") == []


async def test_subrequests_of_an_allowed_page_are_refused(browser, site):
    """The start page and the cross-site iframe document are allowed explicitly (an
    allowance only tests use); an image, a fetch() and the OOPIF's own image, all to
    loopback, must be refused and never reach the server."""
    inner = site.cross_site_url("/guard/inner")
    site.route("/guard/inner", "<!doctype html><html lang=en><title>inner</title><img alt='' src='/guard/inner.png'>")
    url = site.route(
        "/guard/page",
        "<!doctype html><html lang=en><title>page</title><main><img alt='' src='/guard/pixel.png'>"
        f"<iframe title=inner src='{inner}'></iframe><p id=out>pending</p></main><script>"
        "fetch('/guard/api').then(() => 'reached', e => 'refused: ' + e.name)"
        ".then(t => { document.getElementById('out').textContent = t; });</script>",
    )
    audit = await audit_page(browser, url, make_request(url), BLOCKING, allow=[url, inner])
    assert audit.page.status == "ok"
    assert paths(site, "/guard/") == ["/guard/page", "/guard/inner"]
    # The audit itself ran inside the OOPIF, though its image was refused.
    assert audit.page.untested_frames == []


async def test_guard_records_refusals_in_frames_and_fetch(page, site):
    inner = site.cross_site_url("/guard2/inner")
    site.route("/guard2/inner", "<title>inner</title><img alt='' src='/guard2/inner.png'>")
    url = site.route(
        "/guard2/page",
        f"<title>page</title><iframe src='{inner}'></iframe><img alt='' src='/guard2/pixel.png'>",
    )
    guard = NetGuard(allow=frozenset({url, inner}))
    async with trio.open_nursery() as nursery:
        await guard.attach(page, nursery)
        await page.navigate(url, wait_until="load", timeout=15)
        outcome = await page.evaluate(
            "fetch('/guard2/api').then(() => 'reached', e => 'refused: ' + e.name)"
        )
        nursery.cancel_scope.cancel()
    assert outcome == "refused: TypeError"
    blocked = {b.url: b for b in guard.blocked}
    for path in ("/guard2/pixel.png", "/guard2/api"):
        assert blocked[site.url(path)].addresses == ["127.0.0.1"]
    assert site.cross_site_url("/guard2/inner.png") in blocked  # from inside the OOPIF
    assert paths(site, "/guard2/") == ["/guard2/page", "/guard2/inner"]


@pytest.mark.parametrize("host", ["localhost", "localhost.", "anything.localhost", "LOCALHOST", "[::1]"])
async def test_localhost_spellings_are_refused(browser, site, host):
    """Chromium answers these names itself; the guard must not ask DNS and let them pass.
    The caller learns nothing of the loopback server (no HTTP status in the failure)."""
    path = f"/guard/spelling-{'-'.join(str(ord(c)) for c in host)}".replace("418", "x")  # no "418" in the URL
    site.route(path, Response("<title>secret</title>", status=418))
    url = site.url(path).replace("127.0.0.1", host)
    with pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url), BLOCKING)
    assert info.value.code == "navigation_failed"
    # The status as a number of its own: the site's port may hold the digits (41881).
    status = re.compile(r"(?<!\d)418(?!\d)")
    assert not status.search(str(info.value.details)) and not status.search(info.value.message)
    assert paths(site, path) == []


async def test_redirect_to_a_private_address_is_refused(browser, site):
    """Each hop of a redirect chain is judged: an allowed page may not redirect inward."""
    target = site.route("/guard/inside", "<title>inside</title>")
    start = site.route("/guard/hop", Response(status=302, headers={"Location": target}))
    with pytest.raises(AuditFailed) as info:
        await audit_page(browser, start, make_request(start), BLOCKING, allow=[start])
    assert info.value.code == "navigation_failed"
    assert "blocked" in info.value.message
    assert paths(site, "/guard/hop") == ["/guard/hop"]
    assert paths(site, "/guard/inside") == []


async def test_unresolvable_name_is_refused_before_the_browser_looks(browser):
    url = "http://no-such-host.invalid/"
    with pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url), BLOCKING)
    assert info.value.details[0]["netError"] == "net::ERR_BLOCKED_BY_CLIENT"
    assert "unresolvable" in info.value.message


async def test_connect_level_guard_holds_when_the_request_level_one_is_fooled(browser, site, monkeypatch):
    """DNS rebinding in miniature: the request-level look says "public" (forced here), yet the
    connection is judged again by the address the egress proxy actually connects to."""
    from audit.netguard import NetGuard as Guard

    async def fooled(self, url):
        return None

    monkeypatch.setattr(Guard, "_verdict", fooled)
    url = site.route(
        "/guard3/page",
        "<!doctype html><html lang=en><title>page</title><main><p id=out>pending</p></main>"
        "<script>fetch('http://localhost.:" + str(site.port) + "/guard3/api')"
        ".then(() => 'reached', e => 'refused').then(t => { out.textContent = t; });</script>",
    )
    audit = await audit_page(browser, url, make_request(url), BLOCKING, allow=[url])
    assert audit.page.status == "ok"
    assert paths(site, "/guard3/") == ["/guard3/page"]
