"""Files tools write come back as resource_link blocks and read back through resources/read
(a11y.mcp_files), only inside the output directory, through the SDK's own client against real
Chromium: in-process in both protocol eras, and over Streamable HTTP, where one client cannot
read another's files.
"""

from __future__ import annotations

import base64
from dataclasses import replace
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from a11y.mcp_server import build_server
from tests.tools.conftest import ToolClient
from tests.tools.test_http_contexts import served

PAGE = "<!doctype html><title>Files</title><h1 style='color:#036'>Saved to disk</h1>"


async def refused(client: Client, uri: str) -> str:
    """The reason resources/read gives for refusing ``uri``."""
    with pytest.raises(MCPError) as caught:
        await client.read_resource(uri, cache_mode="bypass")
    return caught.value.error.data["code"]


def blob(result: Any) -> bytes:
    (contents,) = result.contents
    return base64.b64decode(contents.blob)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_screenshot_file_is_linked_and_read_back(tool_config, site, mode):
    out = tool_config.output_dir
    async with Client(build_server(tool_config), mode=mode) as client:
        tools = ToolClient(client)
        await tools.ok("page_navigate", {"url": site.route("/files/page", PAGE)})
        result = await client.call_tool("page_screenshot", {"path": "shots/page.png"})
        assert not result.is_error
        (link,) = [block for block in result.content if block.type == "resource_link"]
        saved = (out / "shots" / "page.png").read_bytes()
        assert (link.uri, link.name, link.mime_type, link.size) == (
            "a11y-file://default/shots/page.png", "shots/page.png", "image/png", len(saved))
        assert blob(await client.read_resource(link.uri)) == saved
        listed = await client.list_resources()
        assert [r.uri for r in listed.resources] == [link.uri]
        # An image for the agent writes no file, so links none.
        shown = await client.call_tool("page_screenshot", {})
        assert [block.type for block in shown.content] == ["text", "image"]

        (out.parent / "secret.txt").write_text("not yours")
        (out / "link.txt").symlink_to(out.parent / "secret.txt")
        assert await refused(client, "a11y-file://default/../secret.txt") == "outside_output"
        assert await refused(client, "a11y-file://default/shots/%2E%2E/%2E%2E/secret.txt") == "outside_output"
        assert await refused(client, "a11y-file://default/link.txt") == "outside_output"
        assert await refused(client, f"file://{out / 'shots' / 'page.png'}") == "unknown_scheme"
        assert await refused(client, "https://example.com/page.png") == "unknown_scheme"
        assert await refused(client, "a11y-file://default/shots/none.png") == "not_found"
        assert await refused(client, "a11y-file://default/shots") == "not_found"
        assert await refused(client, "a11y-file://someone-else/shots/page.png") == "other_context"


async def test_over_http_a_client_reads_only_its_own_files(tool_config, site):
    config = replace(tool_config, isolated=False)
    page = site.route("/files/http", PAGE)
    async with served(config) as url, Client(url, mode="legacy") as first, Client(url, mode="legacy") as second:
        await ToolClient(first).ok("page_navigate", {"url": page})
        result = await first.call_tool("page_pdf", {"path": "first.pdf"})
        (link,) = [block for block in result.content if block.type == "resource_link"]
        assert link.mime_type == "application/pdf" and link.uri.endswith("/first.pdf")
        assert blob(await first.read_resource(link.uri)) == (config.output_dir / "first.pdf").read_bytes()
        assert await refused(second, link.uri) == "other_context"  # the URI names the first's context
        handle = link.uri.removeprefix("a11y-file://").split("/")[0]
        await ToolClient(second).ok("page_navigate", {"url": page})
        await second.call_tool("page_pdf", {"path": "second.pdf"})
        # The second client's context did not write first.pdf, though it is in the same folder.
        own = (await second.list_resources()).resources
        assert [r.name for r in own] == ["second.pdf"]
        assert await refused(second, own[0].uri.replace("second.pdf", "first.pdf")) == "not_found"
        assert handle not in own[0].uri


async def test_a_download_is_linked_and_read_back(mcp, site, tool_config):
    page = site.route("/files/dl", "<a id=get href='/files/notes.txt' download='notes.txt'>notes</a>")
    site.route("/files/notes.txt", "saved notes\n")
    await mcp.ok("page_navigate", {"url": page})
    result = await mcp.client.call_tool("element_click", {"selector": "#get"})
    (link,) = [block for block in result.content if block.type == "resource_link"]
    assert link.uri == "a11y-file://default/downloads/notes.txt" and link.size == len("saved notes\n")
    (contents,) = (await mcp.client.read_resource(link.uri)).contents
    assert contents.text == "saved notes\n"
