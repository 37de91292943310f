"""The Streamable HTTP transport: a real server process on loopback, the SDK's HTTP client."""

from __future__ import annotations

import subprocess
import sys

import trio
from mcp import Client

from tests.support.ports import listening_port


async def test_streamable_http_serves_tools(chromium, tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "a11y", "mcp", "--http", "--port", "0", "--browser-url", chromium.ws_url,
         "--output-dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        port = await trio.to_thread.run_sync(listening_port, proc, 30)
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            tools = await client.list_tools()
            assert len(tools.tools) == 169
            result = await client.call_tool("config_get", {})
            assert not result.is_error
            assert result.structured_content["project"] == "a11y"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
