"""cdp_ extensions on a browser this server launches itself (over the debugging pipe)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from mcp import Client

from a11y.mcp_server import build_server
from tests.tools.conftest import ToolClient
from tools.session import ServerConfig

EXTENSION = Path(__file__).resolve().parents[1] / "fixtures" / "extension"


@pytest.fixture
async def launched(tmp_path):
    """A server with its own launched (pipe) browser: the shared test browser is a websocket one."""
    async with Client(build_server(ServerConfig(output_dir=tmp_path / "out"))) as client:
        yield ToolClient(client)


async def _marked(mcp) -> str | None:
    return await mcp.js("document.documentElement.dataset.a11yExt || null")


async def test_install_list_and_uninstall_an_extension(launched, site):
    mcp = launched
    url = site.route("/ext/page", "<title>ext</title><p>page</p>")
    installed = await mcp.ok("cdp_install_extension", {"path": str(EXTENSION)})
    assert installed["name"] == "a11y test marker" and len(installed["id"]) == 32
    listing = await mcp.ok("cdp_list_extensions")
    assert listing["count"] == 1
    assert listing["extensions"][0]["id"] == installed["id"] and listing["extensions"][0]["enabled"] is True
    await mcp.ok("page_navigate", {"url": url})
    with trio.fail_after(30):
        while await _marked(mcp) != "1":  # the content script runs at document_end
            await trio.sleep(0.05)
    await mcp.ok("cdp_uninstall_extension", {"id": installed["id"]})
    assert (await mcp.ok("cdp_list_extensions"))["count"] == 0
    await mcp.ok("page_navigate", {"url": url})
    assert await _marked(mcp) is None
    assert (await mcp.fail("cdp_uninstall_extension", {"id": installed["id"]}))["code"] == "not_found"


async def test_bad_extension_paths(launched, tmp_path):
    err = await launched.fail("cdp_install_extension", {"path": str(tmp_path)})
    assert err["code"] == "invalid_path" and "manifest.json" in err["message"]
    err = await launched.fail("cdp_install_extension", {})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "path"


async def test_browser_without_extension_support_explains_why_not(mcp):
    """The shared browser runs with --disable-extensions: Chromium answers loadUnpacked with an id
    but loads nothing; the tool notices and says what to do instead."""
    err = await mcp.fail("cdp_install_extension", {"path": str(EXTENSION)})
    assert err["code"] == "cdp_error"
    assert "did not load it" in err["message"] and "--browser-url" in err["message"]
    assert (await mcp.ok("cdp_list_extensions"))["count"] == 0
