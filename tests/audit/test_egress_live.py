"""The connect-level guard: a guarded context reaches nothing private, whatever the name."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
import trio

from audit.egress import BYPASS_NOTHING, EgressProxy, egress_proxy
from cdpdriver import NavigationFailed

#: Also part of the fault suite (issue #17): ``pytest -m faults`` runs it with tests/faults.
pytestmark = pytest.mark.faults


async def _navigate_in_proxied_context(browser, proxy: EgressProxy, url: str):
    context_id = await browser.create_context(
        proxy_server=proxy.proxy_server, proxy_bypass_list=BYPASS_NOTHING
    )
    try:
        page = await browser.new_page(context_id=context_id)
        try:
            return await page.navigate(url, wait_until="load", timeout=15)
        finally:
            await page.close()
    finally:
        await browser.dispose_context(context_id)


def _hits(site, prefix):
    return [r.path for r in site.log if r.path.startswith(prefix)]


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "localhost", "localhost.", "anything.localhost", "[::1]", "127.1", "0x7f000001"],
)
async def test_loopback_spellings_never_connect(browser, site, host):
    proxy = await egress_proxy(browser)
    port = urlsplit(site.url()).port
    path = f"/egress/{abs(hash(host))}"
    site.route(path, "<title>canary</title>")
    with pytest.raises(NavigationFailed) as info:
        await _navigate_in_proxied_context(browser, proxy, f"http://{host}:{port}{path}")
    assert "SOCKS" in info.value.error_text or "PROXY" in info.value.error_text
    assert _hits(site, path) == []
    assert proxy.refused, "the refusal is recorded"


async def test_allowed_host_is_relayed(browser, site):
    proxy = await egress_proxy(browser)
    url = site.route("/egress/allowed", "<title>relayed</title><p>through the proxy</p>")
    parts = urlsplit(url)
    proxy.allow.add((parts.hostname, parts.port))
    try:
        await _navigate_in_proxied_context(browser, proxy, url)
    finally:
        proxy.allow.discard((parts.hostname, parts.port))
    assert _hits(site, "/egress/allowed") == ["/egress/allowed"]


async def test_one_proxy_per_browser(browser):
    first, second = await egress_proxy(browser), await egress_proxy(browser)
    assert first is second and first.port


async def test_non_socks_client_is_dropped(browser):
    proxy = await egress_proxy(browser)
    stream = await trio.open_tcp_stream("127.0.0.1", proxy.port)
    async with stream:
        await stream.send_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        with trio.fail_after(30):
            reply = await stream.receive_some(100)
    assert reply[:2] == bytes([5, 1])  # SOCKS5 general failure, then closed
