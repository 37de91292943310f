"""MCP fixtures: a real SDK client talking to our server, which drives the shared Chromium."""

from __future__ import annotations

import base64
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
        success, data, _ = await self.call_with_images(name, args)
        return success, data

    async def call_with_images(self, name: str, args: dict[str, Any] | None = None,
                               ) -> tuple[bool, dict[str, Any], list[tuple[str, bytes]]]:
        """The result's data and its image blocks as (mime type, decoded bytes), in order."""
        result = await self.client.call_tool(name, args or {})
        data = result.structured_content
        if data is None:
            data = json.loads(result.content[0].text)
        assert result.content[0].type == "text"
        images = [(block.mime_type, base64.b64decode(block.data))
                  for block in result.content[1:] if block.type == "image"]
        return not result.is_error, data, images

    async def image(self, name: str, args: dict[str, Any] | None = None) -> tuple[dict[str, Any], bytes]:
        """Call a picture tool that must succeed with exactly one image block."""
        success, data, images = await self.call_with_images(name, args)
        assert success, f"{name} failed: {data}"
        assert len(images) == 1, f"{name} returned {len(images)} image blocks"
        mime, image = images[0]
        assert mime == data["mime_type"] and len(image) == data["size"]
        return data, image

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
