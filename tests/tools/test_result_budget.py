"""Every tool result has a budget (issue #17 item 7): a page cannot make a result as large as
it likes, a cut is flagged, and a large result is not sent twice (structured and as text); no
result is sent twice to a client that reads structured content (issue #25)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from mcp import Client
from mcp.client import advertise

from a11y.mcp_server import build_server
from a11y.result_budget import FULL_TEXT_CHARS, READS_STRUCTURED, fit


def test_fit_cuts_the_longest_strings_and_keeps_the_shape():
    data = {"result": "x" * 50_000, "small": "keep me", "items": [{"name": "y" * 30_000}]}
    cut, original = fit(data, 10_000)
    assert original == len(json.dumps(data, separators=(",", ":")))
    assert len(json.dumps(cut, ensure_ascii=False, separators=(",", ":"))) <= 10_000
    assert set(cut) == set(data) and cut["small"] == "keep me"
    assert "truncated" in cut["result"] and cut["result"].startswith("x")
    assert fit({"a": "b"}, 10) == ({"a": "b"}, None)


async def test_a_huge_js_result_is_cut_to_the_budget_and_sent_once(tool_config):
    config = replace(tool_config, max_result_chars=200_000)
    async with Client(build_server(config)) as client:
        huge = await client.call_tool("js_evaluate", {"script": "'z'.repeat(5 * 1024 * 1024)"})
        small = await client.call_tool("js_evaluate", {"script": "'hello'"})
    assert not huge.is_error
    structured = huge.structured_content
    assert len(json.dumps(structured)) <= 200_000 + 100
    assert structured["result"].startswith("zzz") and "truncated" in structured["result"]
    assert huge.meta["a11y/truncated"] is True and huge.meta["a11y/originalChars"] > 5_000_000
    text = huge.content[0].text
    assert len(text) < FULL_TEXT_CHARS and "structured content" in text  # no second copy
    assert small.meta is None or "a11y/truncated" not in small.meta
    assert json.loads(small.content[0].text) == small.structured_content  # small: the JSON itself
    assert small.structured_content["result"] == "hello"


def test_the_budget_flag_refuses_a_budget_too_small_to_be_useful(capsys):
    import pytest

    from a11y.cli import build_parser

    assert build_parser().parse_args(["mcp", "--max-result-size", "20000"]).max_result_size == 20_000
    for bad in ("5", "many"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["mcp", "--max-result-size", bad])
    assert "--max-result-size" in capsys.readouterr().err


async def _url_and_error(client: Client) -> tuple[object, object]:
    """A successful result and an error result, as this client receives them."""
    return (await client.call_tool("page_get_url", {}),
            await client.call_tool("element_click", {"selector": "#nowhere", "timeout_ms": 50}))


@pytest.mark.parametrize("mode", ["legacy", "auto"])  # the handshake era, and 2026-07-28
async def test_a_client_that_reads_structured_content_gets_the_json_once(tool_config, mode):
    async with Client(build_server(tool_config), mode=mode) as plain, \
            Client(build_server(tool_config), mode=mode, extensions=[advertise(READS_STRUCTURED)]) as reader:
        compat, compat_error = await _url_and_error(plain)
        once, once_error = await _url_and_error(reader)
    assert compat.structured_content == once.structured_content == {"url": "about:blank"}
    assert json.loads(compat.content[0].text) == compat.structured_content  # compat: the JSON twice
    assert once.content[0].text == "The result is in the structured content: {url}."  # once
    for error in (compat_error, once_error):  # an error has no structured content: its text is the JSON
        assert error.is_error and error.structured_content is None
        assert json.loads(error.content[0].text)["error"]["code"] == "element_not_found"


async def test_structured_only_sends_every_client_the_json_once(tool_config):
    async with Client(build_server(replace(tool_config, structured_only=True))) as client:
        result, error = await _url_and_error(client)
        screenshot = await client.call_tool("page_screenshot", {})
    assert result.structured_content == {"url": "about:blank"} and "about:blank" not in result.content[0].text
    assert json.loads(error.content[0].text)["error"]["code"] == "element_not_found"
    text, image = screenshot.content
    assert image.type == "image" and screenshot.structured_content["mime_type"] == image.mime_type
    assert text.text.startswith("The result is in the structured content: {") and len(text.text) < 200


def test_structured_only_comes_from_the_command_line():
    from a11y.cli import build_parser
    from a11y.mcp_server import config_from_args

    assert config_from_args(build_parser().parse_args(["mcp", "--structured-only"])).structured_only is True
    assert config_from_args(build_parser().parse_args(["mcp"])).structured_only is False
