"""The Streamable HTTP transport: a real server process on loopback, the SDK's HTTP client."""

from __future__ import annotations

import socket
import subprocess
import sys

import trio
from mcp import Client


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_streamable_http_serves_tools(chromium, tmp_path):
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "a11y", "mcp", "--http", "--port", str(port), "--browser-url", chromium.ws_url,
         "--output-dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        with trio.fail_after(30):
            while True:
                try:
                    stream = await trio.open_tcp_stream("127.0.0.1", port)
                    await stream.aclose()
                    break
                except OSError:
                    await trio.sleep(0.1)
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            tools = await client.list_tools()
            assert len(tools.tools) == 169
            result = await client.call_tool("config_get", {})
            assert not result.is_error
            assert result.structured_content["project"] == "a11y"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
