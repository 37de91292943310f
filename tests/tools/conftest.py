"""MCP fixtures: a real SDK client talking to our server, which drives the shared Chromium."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client

from a11y.mcp_server import build_server
from tools.session import ServerConfig


class ToolClient:
    """Thin helpers over the SDK client: ``ok`` asserts success, ``fail`` asserts an error."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def call(self, name: str, args: dict[str, Any] | None = None) -> tuple[bool, dict[str, Any]]:
        result = await self.client.call_tool(name, args or {})
        data = result.structured_content
        if data is None:
            data = json.loads(result.content[0].text)
        return not result.is_error, data

    async def ok(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        success, data = await self.call(name, args)
        assert success, f"{name} failed: {data}"
        return data

    async def fail(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        success, data = await self.call(name, args)
        assert not success, f"{name} unexpectedly succeeded: {data}"
        return data["error"]

    async def js(self, script: str) -> Any:
        return (await self.ok("js_evaluate", {"script": script}))["result"]


@pytest.fixture
def tool_config(chromium, tmp_path):
    return ServerConfig(browser_url=chromium.ws_url, isolated=True, output_dir=tmp_path / "out")


@pytest.fixture
async def mcp(tool_config):
    async with Client(build_server(tool_config)) as client:
        yield ToolClient(client)
