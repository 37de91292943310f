"""state_: named snapshots saved, listed, loaded and deleted."""

from __future__ import annotations

import json

from a11y.mcp_server import build_server
from tests.support.site import Response
from tests.tools.conftest import Client, ToolClient
from tools.session import ServerConfig

READ_ALL = "[document.cookie, localStorage.getItem('token'), sessionStorage.getItem('step')]"


async def _log_in(mcp, site) -> str:
    url = site.route("/state/app", "<title>app</title>")
    await mcp.ok("page_navigate", {"url": url})
    await mcp.ok("storage_set_cookies", {"cookies": [{"name": "sid", "value": "42", "url": url}]})
    await mcp.ok("storage_local_set", {"key": "token", "value": "t-42"})
    await mcp.ok("storage_session_set", {"key": "step", "value": "3"})
    return url


async def test_save_clear_load_brings_everything_back(mcp, site, tool_config):
    url = await _log_in(mcp, site)
    saved = await mcp.ok("state_save", {"name": "logged-in_1"})
    path = tool_config.output_dir.resolve() / "states" / "logged-in_1.json"
    assert saved["path"] == str(path) and saved["cookies"] == 1 and saved["origins"] == [site.url("")]
    stored = json.loads(path.read_text())
    assert stored["origins"][0]["localStorage"] == {"token": "t-42"}

    await mcp.ok("storage_clear_all")
    await mcp.ok("page_navigate", {"url": url})
    assert await mcp.js(READ_ALL) == ["", None, None]

    loaded = await mcp.ok("state_load", {"name": "logged-in_1"})
    assert loaded["cookies"] == 1 and loaded["origins"] == [site.url("")]
    await mcp.ok("page_navigate", {"url": url})
    assert await mcp.js(READ_ALL) == ["sid=42", "t-42", "3"]
    site.route("/state/echo", lambda req: Response(req.headers.get("Cookie", ""), content_type="text/plain"))
    assert await mcp.js("fetch('/state/echo').then(r => r.text())") == "sid=42"


async def test_a_saved_state_outlives_the_server(mcp, site, tool_config):
    url = await _log_in(mcp, site)
    await mcp.ok("state_save", {"name": "session"})
    later = ServerConfig(browser_url=tool_config.browser_url, isolated=True, output_dir=tool_config.output_dir)
    async with Client(build_server(later)) as raw:
        fresh = ToolClient(raw)
        assert (await fresh.ok("state_list"))["states"] == ["session"]
        await fresh.ok("state_load", {"name": "session"})
        await fresh.ok("page_navigate", {"url": url})
        assert await fresh.js(READ_ALL) == ["sid=42", "t-42", "3"]


async def test_list_delete_missing_and_bad_names(mcp, site):
    assert await mcp.ok("state_list") == {"states": [], "count": 0}
    await mcp.ok("page_navigate", {"url": site.route("/state/blank", "<p>x</p>")})
    await mcp.ok("state_save", {"name": "b"})
    await mcp.ok("state_save", {"name": "a"})
    assert await mcp.ok("state_list") == {"states": ["a", "b"], "count": 2}
    await mcp.ok("state_delete", {"name": "a"})
    assert (await mcp.ok("state_list"))["states"] == ["b"]

    for tool in ("state_load", "state_delete"):
        err = await mcp.fail(tool, {"name": "a"})
        assert err["code"] == "not_found" and "saved: b" in err["message"]
    for bad in ("../escape", "has space", "x" * 65, ""):
        err = await mcp.fail("state_save", {"name": bad})
        assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "name"
