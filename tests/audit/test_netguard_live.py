"""--block-private-networks: the start page and every subrequest to a private address are
refused before they leave the browser (the test server never sees them)."""

from __future__ import annotations

import ipaddress

import pytest
import trio

from audit.engine import AuditFailed, EngineLimits, audit_page, run_audit
from audit.netguard import NetGuard, is_private_address, resolve_host
from tests.audit.support import make_request

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


@pytest.mark.parametrize(
    ("address", "private"),
    [
        ("127.0.0.1", True), ("10.1.2.3", True), ("172.16.0.1", True), ("192.168.1.1", True),
        ("169.254.169.254", True), ("0.0.0.0", True), ("224.0.0.1", True), ("::1", True),
        ("fe80::1", True), ("fc00::1", True), ("::ffff:127.0.0.1", True), ("::", True),
        ("93.184.215.14", False), ("2606:2800:21f:cb07:6820:80da:af6b:8b2c", False),
        ("::ffff:8.8.8.8", False),
    ],
)
def test_private_addresses(address, private):
    assert is_private_address(ipaddress.ip_address(address)) is private


async def test_resolve_host_literals_and_localhost():
    assert await resolve_host("[::1]", 80) == [ipaddress.ip_address("::1")]
    assert await resolve_host("10.0.0.1", 80) == [ipaddress.ip_address("10.0.0.1")]
    assert all(is_private_address(a) for a in await resolve_host("localhost", 80))
