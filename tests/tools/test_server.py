"""The server itself: catalog, schemas, argument errors, browser lifecycle, stdio."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters

from a11y.mcp_server import build_server
from tools import catalog
from tools.session import ServerConfig


def _list_tools(*extra: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "a11y", "mcp", "--list-tools", *extra],
                         capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout)


def test_list_tools_shape_and_counts():
    data = _list_tools()
    assert set(data) == {"tools", "categories", "total"}
    assert data["total"] == len(data["tools"]) == sum(data["categories"].values())
    for entry in data["tools"]:
        assert set(entry) == {"name", "description", "category", "annotations"}
        assert entry["name"].startswith(entry["category"] + "_")
        assert len(entry["description"]) > 20
    assert data["categories"]["browser"] == 2
    assert data["categories"]["config"] == 1


def test_declaring_the_tools_loads_no_driver():
    """--list-tools and the handshake stay fast because no handler dependency loads with the registry."""
    script = ("import sys; from tools.catalog import load; assert len(load()) == 169; "
              "print(sorted({m.split('.')[0] for m in sys.modules} & {'cdpdriver', 'trio', 'audit', 'yaml', 'httpx', 'mcp'}))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_stdio_server_imports_only_the_sdks_server():
    """A stdio server skips the SDK's client and MCPServer and builds the SDK's models on first
    use; with the SDK imported already it uses it as it is (a11y.mcp_sdk)."""
    script = ("import sys; {first}from a11y.mcp_sdk import import_stdio_server; import_stdio_server(); "
              "from mcp.server.lowlevel import Server; from mcp.server.stdio import stdio_server; "
              "import mcp_types; from pydantic._internal._config import config_defaults; "
              "built = mcp_types.Tool.__pydantic_complete__; "
              "tool = mcp_types.Tool.model_validate({{'name': 'n', 'inputSchema': {{'type': 'object'}}}}); "
              "print(sorted({{m for m in sys.modules if m.startswith(('mcp.client', 'mcp.server.mcpserver'))}})[:1], "
              "built, tool.input_schema == {{'type': 'object'}}, config_defaults['defer_build'])")
    bare = subprocess.run([sys.executable, "-c", script.format(first="")], capture_output=True, text=True,
                          check=True, timeout=60)
    assert bare.stdout.strip() == "[] False True False"
    usual = subprocess.run([sys.executable, "-c", script.format(first="import mcp; ")], capture_output=True,
                           text=True, check=True, timeout=60)
    assert usual.stdout.strip() == "['mcp.client'] True True False"


def test_list_tools_subset():
    data = _list_tools("--namespaces", "browser")
    assert {t["name"] for t in data["tools"]} == {"browser_launch", "browser_quit"}
    data = _list_tools("--tools", "config_get")
    assert data["total"] == 1


def test_profiles_add_up_with_namespaces_and_tools():
    core = {t["name"] for t in _list_tools("--profile", "core")["tools"]}
    assert {"page_navigate", "element_click", "page_screenshot", "browser_launch"} <= core and len(core) < 60
    forms = {t["name"] for t in _list_tools("--profile", "forms")["tools"]}
    assert core < forms and {"input_mouse_click", "frame_select", "element_get_role"} <= forms
    both = _list_tools("--profile", "core,network", "--namespaces", "state", "--tools", "cdp_list_extensions")
    names = {t["name"] for t in both["tools"]}
    assert core | {"network_route", "http_request", "state_save", "cdp_list_extensions"} <= names
    assert "storage_get_cookies" not in names
    assert _list_tools("--profile", "all")["total"] == _list_tools()["total"] == 169
    out = subprocess.run([sys.executable, "-m", "a11y", "mcp", "--list-tools", "--profile", "everything"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "unknown profile everything" in out.stderr


async def test_every_tool_has_input_and_output_schema(mcp):
    listing = await mcp.client.list_tools()
    assert listing.tools
    for t in listing.tools:
        assert t.input_schema["type"] == "object"
        assert t.output_schema and t.output_schema["type"] == "object"
    # tools/list is served from tools/tool_list.json: it must say what the registry declares
    served = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listing.tools]
    assert served == catalog.listing_of(catalog.load())


async def test_config_and_browser_lifecycle(mcp):
    before = await mcp.ok("config_get")
    assert before["project"] == "a11y"
    assert before["default_timeout_ms"] == 5000
    assert before["browser_launched"] is False
    launched = await mcp.ok("browser_launch", {})
    assert "running" in launched["message"]
    assert (await mcp.ok("config_get"))["browser_launched"] is True
    await mcp.ok("browser_quit")
    assert (await mcp.ok("config_get"))["browser_launched"] is False
    assert "no browser" in (await mcp.ok("browser_quit"))["message"]


async def test_bad_arguments_name_the_field(mcp):
    err = await mcp.fail("browser_launch", {"headless": "yes please"})
    assert err["code"] == "invalid_arguments"
    assert err["details"][0]["field"] == "headless"
    err = await mcp.fail("browser_launch", {"headles": True})
    assert err["code"] == "invalid_arguments"
    assert err["details"][0]["field"] == "headles"
    err = await mcp.fail("no_such_tool", {})
    assert err["code"] == "not_found"


async def test_project_name_is_configurable(chromium, tmp_path):
    config = ServerConfig(browser_url=chromium.ws_url, isolated=True, output_dir=tmp_path, project="shop")
    async with Client(build_server(config)) as client:
        result = await client.call_tool("config_get", {})
        assert result.structured_content["project"] == "shop"


async def test_stdio_transport_end_to_end(chromium, tmp_path):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "a11y", "mcp", "--browser-url", chromium.ws_url, "--output-dir", str(tmp_path)],
    )
    async with Client(params) as client:
        tools = await client.list_tools()
        assert any(t.name == "config_get" for t in tools.tools)
        result = await client.call_tool("browser_launch", {})
        assert not result.is_error, result
        result = await client.call_tool("config_get", {})
        assert result.structured_content["browser_launched"] is True
        # an error result and an image block, each a kind of message the stdio server builds on first use
        result = await client.call_tool("no_such_tool", {})
        assert result.is_error and json.loads(result.content[0].text)["error"]["code"] == "not_found"
        result = await client.call_tool("page_screenshot", {})
        assert [block.type for block in result.content] == ["text", "image"]
        assert result.content[1].mime_type == "image/png" and result.structured_content["width"] > 0


SPEC_COUNTS = {
    "accessibility": 1, "batch": 1, "browser": 2, "cdp": 20, "config": 1, "console": 2, "dialog": 2,
    "element": 33, "frame": 2, "http": 1, "human": 1, "input": 12, "js": 4, "network": 6, "page": 20,
    "record": 5, "state": 4, "storage": 17, "tab": 3, "test": 16, "trace": 6, "video": 2, "wait": 6,
    "workflow": 2,
}


def test_catalog_is_complete_and_matches_the_spec_names():
    import re
    from pathlib import Path

    data = _list_tools()
    assert data["total"] == 169
    assert data["categories"] == SPEC_COUNTS
    catalog_md = Path(__file__).resolve().parents[3] / "shared" / "spec" / "catalog.md"
    if catalog_md.exists():
        spec_names = set(re.findall(r"^\| `([a-z_]+)` \|", catalog_md.read_text(), re.M))
        assert spec_names == {t["name"] for t in data["tools"]}


def test_tool_reference_doc_is_up_to_date():
    out = subprocess.run([sys.executable, str(Path(__file__).resolve().parents[2] / "scripts" / "gen_tool_docs.py"), "--check"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
