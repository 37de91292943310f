"""storage_: cookies, localStorage / sessionStorage, and the storage state round trip."""

from __future__ import annotations

import json

import pytest

from a11y.mcp_server import build_server
from tests.support.site import Response
from tests.tools.conftest import Client, ToolClient
from tools.session import ServerConfig

SHOW = "<title>storage</title><p>storage</p>"


@pytest.mark.parametrize("kind", ["local", "session"])
async def test_web_storage_get_set_delete_clear_list(mcp, site, kind):
    url = site.route("/storage/page", SHOW)
    await mcp.ok("page_navigate", {"url": url})
    area = f"{kind}Storage"
    missing = await mcp.ok(f"storage_{kind}_get", {"key": "nope"})
    assert missing == {"key": "nope", "value": None, "origin": site.url("")}

    await mcp.ok(f"storage_{kind}_set", {"key": "theme", "value": "dark"})
    await mcp.ok(f"storage_{kind}_set", {"key": "user", "value": '{"id": 1}'})
    assert await mcp.js(f"{area}.getItem('theme')") == "dark"
    assert (await mcp.ok(f"storage_{kind}_get", {"key": "user"}))["value"] == '{"id": 1}'
    listed = await mcp.ok(f"storage_{kind}_list")
    assert listed["items"] == {"theme": "dark", "user": '{"id": 1}'} and listed["count"] == 2

    assert (await mcp.ok(f"storage_{kind}_delete", {"key": "theme"}))["existed"] is True
    assert (await mcp.ok(f"storage_{kind}_delete", {"key": "theme"}))["existed"] is False
    assert await mcp.js(f"{area}.getItem('theme')") is None
    assert (await mcp.ok(f"storage_{kind}_clear"))["cleared"] == 1
    assert await mcp.js(f"{area}.length") == 0


async def test_web_storage_needs_an_origin_and_a_key(mcp):
    err = await mcp.fail("storage_local_get", {"key": "x"})
    assert err["code"] == "not_found"
    assert "about:blank" in err["message"] and "navigate" in err["message"]
    err = await mcp.fail("storage_session_set", {"key": "x"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "value"


async def test_cookies_set_get_delete_clear(mcp, site):
    url = site.route("/storage/cookies", SHOW)
    await mcp.ok("page_navigate", {"url": url})
    await mcp.ok("storage_set_cookies", {"cookies": [
        {"name": "sid", "value": "abc", "url": url, "httpOnly": True, "sameSite": "lax"},
        {"name": "pref", "value": "1", "domain": "127.0.0.1", "path": "/storage"},
        {"name": "other", "value": "x", "url": site.cross_site_url("/")},
    ]})
    # The page sees the non-httpOnly ones it may read, and the server receives both.
    assert await mcp.js("document.cookie") == "pref=1"
    site.route("/storage/echo", lambda req: Response(req.headers.get("Cookie", ""), content_type="text/plain"))
    sent = await mcp.js("fetch('/storage/echo').then(r => r.text())")
    assert sorted(sent.split("; ")) == ["pref=1", "sid=abc"]

    everything = await mcp.ok("storage_get_cookies")
    assert {c["name"] for c in everything["cookies"]} == {"sid", "pref", "other"}
    sid = next(c for c in everything["cookies"] if c["name"] == "sid")
    assert sid["httpOnly"] is True and sid["sameSite"] == "Lax" and sid["session"] is True
    for_page = await mcp.ok("storage_get_cookies", {"urls": [url]})
    assert {c["name"] for c in for_page["cookies"]} == {"sid", "pref"}

    assert (await mcp.ok("storage_delete_cookie", {"name": "pref", "domain": "localhost"}))["count"] == 0
    assert (await mcp.ok("storage_delete_cookie", {"name": "pref"}))["count"] == 1
    assert await mcp.js("document.cookie") == ""
    kept = (await mcp.ok("storage_get_cookies"))["cookies"]
    assert (await mcp.ok("storage_clear_cookies"))["count"] == 2
    assert (await mcp.ok("storage_get_cookies"))["count"] == 0
    # What storage_get_cookies returns is accepted back as it is, host-only cookies staying host-only.
    await mcp.ok("storage_set_cookies", {"cookies": kept})
    assert (await mcp.ok("storage_get_cookies"))["cookies"] == kept


async def test_cookie_arguments_are_checked(mcp):
    err = await mcp.fail("storage_set_cookies", {"cookies": [{"name": "a", "value": "b"}]})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"].startswith("cookies.0")
    err = await mcp.fail("storage_set_cookies", {"cookies": [
        {"name": "a", "value": "b", "url": "https://example.com/", "sameSite": "sometimes"}]})
    assert err["details"][0]["field"] == "cookies.0.sameSite"
    err = await mcp.fail("storage_get_cookies", {"urls": ["example.com"]})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "urls"


async def test_clear_all_clears_cookies_and_storage_of_visited_origins(mcp, site):
    other = site.route("/storage/other", SHOW)
    await mcp.ok("page_navigate", {"url": site.cross_site_url("/storage/other")})
    await mcp.ok("storage_local_set", {"key": "elsewhere", "value": "1"})
    await mcp.ok("page_navigate", {"url": other})
    await mcp.ok("storage_local_set", {"key": "here", "value": "1"})
    await mcp.ok("storage_session_set", {"key": "tab", "value": "1"})
    await mcp.ok("storage_set_cookies", {"cookies": [{"name": "c", "value": "1", "url": other}]})

    data = await mcp.ok("storage_clear_all")
    assert data["cookies_cleared"] == 1
    assert set(data["origins"]) == {site.url(""), site.cross_site_url("")}
    assert await mcp.js("[localStorage.length, sessionStorage.length, document.cookie]") == [0, 0, ""]
    await mcp.ok("page_navigate", {"url": site.cross_site_url("/storage/other")})
    assert await mcp.js("localStorage.length") == 0


async def test_state_round_trip_into_a_fresh_context(mcp, site, tool_config, tmp_path):
    app = site.route("/storage/app", SHOW)
    elsewhere = site.cross_site_url("/storage/app")
    await mcp.ok("page_navigate", {"url": elsewhere})
    await mcp.ok("storage_local_set", {"key": "remote", "value": "kept"})
    await mcp.ok("page_navigate", {"url": app})
    await mcp.ok("storage_set_cookies", {"cookies": [{"name": "sid", "value": "s3cr3t", "url": app, "httpOnly": True}]})
    await mcp.ok("storage_local_set", {"key": "token", "value": "t-1"})
    await mcp.ok("storage_session_set", {"key": "step", "value": "2"})

    data = await mcp.ok("storage_get_state")
    state = json.loads(data["state"])
    assert state == {"cookies": data["cookies"], "origins": data["origins"]}
    by_origin = {o["origin"]: o for o in state["origins"]}
    assert by_origin[site.url("")] == {"origin": site.url(""), "localStorage": {"token": "t-1"},
                                             "sessionStorage": {"step": "2"}}
    # An origin no tab shows any more is read too (through a hidden tab), so nothing is lost.
    assert by_origin[site.cross_site_url("")]["localStorage"] == {"remote": "kept"}
    assert [c["name"] for c in state["cookies"]] == ["sid"]

    # A second client: its own server session in its own fresh browser context.
    second = ServerConfig(browser_url=tool_config.browser_url, isolated=True, output_dir=tmp_path / "out2")
    async with Client(build_server(second)) as raw:
        fresh = ToolClient(raw)
        assert (await fresh.ok("storage_get_cookies"))["count"] == 0
        restored = await fresh.ok("storage_set_state", {"state": data["state"]})
        assert restored["cookies"] == 1
        assert set(restored["origins"]) == {site.url(""), site.cross_site_url("")}
        assert await fresh.js("location.href") == "about:blank"  # the current page was not moved
        await fresh.ok("page_navigate", {"url": app})
        await fresh.ok("page_reload")
        got = await fresh.js("[localStorage.getItem('token'), sessionStorage.getItem('step')]")
        assert got == ["t-1", "2"]
        # The sessionStorage was applied once: deleted now, it stays deleted after another load.
        await fresh.ok("storage_session_delete", {"key": "step"})
        await fresh.ok("page_navigate", {"url": app})
        assert (await fresh.ok("storage_session_get", {"key": "step"}))["value"] is None
        site.route("/storage/echo2", lambda req: Response(req.headers.get("Cookie", ""), content_type="text/plain"))
        assert await fresh.js("fetch('/storage/echo2').then(r => r.text())") == "sid=s3cr3t"
        await fresh.ok("page_navigate", {"url": elsewhere})
        assert (await fresh.ok("storage_local_get", {"key": "remote"}))["value"] == "kept"


async def test_set_state_rejects_bad_json(mcp):
    err = await mcp.fail("storage_set_state", {"state": "{not json"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "state"
    err = await mcp.fail("storage_set_state", {"state": json.dumps({"origins": [{"origin": "about:blank"}]})})
    assert err["details"][0]["field"].startswith("state")
