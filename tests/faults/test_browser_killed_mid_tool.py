"""The browser SIGKILLed while a tool call waits on it (issue #17's fault suite): that call
ends at once with a typed error, never a hang, and the next call gets a new browser."""

from __future__ import annotations

import os
import signal

import trio
from mcp import Client

from a11y.mcp_server import build_server
from tests.tools.test_page import _our_chromium_pids
from tools.session import ServerConfig


async def test_a_tool_call_in_flight_when_the_browser_dies_fails_cleanly(site, tmp_path):
    url = site.route("/faults/mid-tool", "<title>Alive</title>")
    before = _our_chromium_pids()
    async with Client(build_server(ServerConfig(output_dir=tmp_path))) as client:
        assert not (await client.call_tool("page_navigate", {"url": url})).is_error
        (pid,) = _our_chromium_pids() - before
        outcome = {}

        async def slow_call() -> None:  # waits on the page for 20 s unless something ends it
            outcome["result"] = await client.call_tool(
                "js_evaluate", {"script": "new Promise(r => setTimeout(() => r('late'), 20000))"})

        with trio.fail_after(15):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(slow_call)
                await trio.sleep(0.5)
                os.killpg(pid, signal.SIGKILL)
        result = outcome["result"]
        assert result.is_error
        text = result.content[0].text
        assert "late" not in text and "Traceback" not in text
        assert any(code in text for code in ("browser", "target_closed", "crashed", "closed")), text
        with trio.fail_after(30):
            again = await client.call_tool("page_navigate", {"url": url})
        assert not again.is_error and again.structured_content["title"] == "Alive"
