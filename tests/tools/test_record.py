"""record_: out-of-order calls, what gets recorded, export formats, and replay through batch_execute."""

from __future__ import annotations

import json

import pytest
import yaml

FORM = """<!doctype html><title>Order</title>
<form id=order>
  <input id=name name=name>
  <input id=email name=email type=email>
  <select id=size name=size><option value=s>Small</option><option value=m>Medium</option><option value=l>Large</option></select>
  <input id=gift type=checkbox name=gift>
  <textarea id=note name=note></textarea>
</form>
"""

FORM_STATE = ("(() => { const f = document.getElementById('order');"
              " return {name: f.name.value, email: f.email.value, size: f.size.value, gift: f.gift.checked,"
              " note: f.note.value}; })()")


@pytest.fixture
def form_url(site):
    return site.route("/tools/record/form", FORM)


async def test_out_of_order_calls(mcp):
    assert (await mcp.fail("record_stop"))["code"] == "not_started"
    assert (await mcp.fail("record_export"))["code"] == "not_started"
    status = await mcp.ok("record_get_status")
    assert status["recording"] is False and status["stepCount"] == 0 and status["started_at"] is None
    await mcp.ok("record_start", {"name": "first"})
    err = await mcp.fail("record_start", {"name": "second"})
    assert err["code"] == "already_started" and "record_stop" in err["message"]
    assert (await mcp.ok("record_stop"))["stepCount"] == 0
    assert (await mcp.fail("record_stop"))["code"] == "not_started"
    err = await mcp.fail("record_export", {"format": "xml"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "format"


async def test_records_successful_actions_only(mcp, form_url):
    started = await mcp.ok("record_start", {"name": "order", "description": "fill the order form",
                                             "baseUrl": form_url.rsplit("/", 3)[0]})
    assert started["name"] == "order" and started["started_at"].endswith("Z")
    await mcp.ok("page_navigate", {"url": form_url})
    await mcp.ok("element_fill", {"selector": "#name", "value": "Ada"})
    await mcp.fail("element_click", {"selector": "#missing", "timeout_ms": 0})  # failed: not recorded
    await mcp.ok("element_get_value", {"selector": "#name"})  # a read: not recorded
    await mcp.ok("test_verify_value", {"selector": "#name", "expected": "Ada", "timeout_ms": 0})  # a check: not recorded
    await mcp.ok("js_evaluate", {"script": "document.title"})
    status = await mcp.ok("record_get_status")
    assert status["recording"] is True and status["stepCount"] == 3 and status["last_step"] == "js_evaluate"
    assert status["name"] == "order" and status["description"] == "fill the order form"
    stopped = await mcp.ok("record_stop")
    assert stopped["stepCount"] == 3
    await mcp.ok("element_fill", {"selector": "#name", "value": "after stop"})  # not recording any more

    data = await mcp.ok("record_export")
    assert data["format"] == "json" and data["stepCount"] == 3
    script = json.loads(data["script"])
    assert script["name"] == "order" and script["description"] == "fill the order form"
    assert script["baseUrl"] == form_url.rsplit("/", 3)[0] and script["stopped_at"] and script["stepCount"] == 3
    assert script["steps"] == [
        {"tool": "page_navigate", "args": {"url": form_url}},
        {"tool": "element_fill", "args": {"selector": "#name", "value": "Ada"}},
        {"tool": "js_evaluate", "args": {"script": "document.title"}},
    ]
    assert len(script["timestamps"]) == 3

    as_yaml = await mcp.ok("record_export", {"format": "yaml"})
    assert as_yaml["format"] == "yaml" and yaml.safe_load(as_yaml["script"]) == script

    cleared = await mcp.ok("record_clear")
    assert cleared["cleared"] == 3
    assert json.loads((await mcp.ok("record_export"))["script"])["steps"] == []
    assert (await mcp.ok("record_get_status"))["stepCount"] == 0


async def test_clear_while_recording_keeps_recording(mcp, form_url):
    await mcp.ok("record_start", {})
    await mcp.ok("page_navigate", {"url": form_url})
    assert (await mcp.ok("record_clear"))["cleared"] == 1
    await mcp.ok("element_fill", {"selector": "#name", "value": "Bo"})
    status = await mcp.ok("record_get_status")
    assert status["recording"] is True and status["stepCount"] == 1 and status["last_step"] == "element_fill"
    # A new start after a stop begins from an empty list.
    await mcp.ok("record_stop")
    await mcp.ok("record_start", {"name": "again"})
    assert (await mcp.ok("record_get_status"))["stepCount"] == 0


async def test_exported_script_replays_through_batch_execute(mcp, form_url):
    await mcp.ok("page_navigate", {"url": form_url})
    await mcp.ok("record_start", {"name": "order form", "baseUrl": form_url})
    await mcp.ok("element_fill", {"selector": "#name", "value": "Ada Lovelace"})
    await mcp.ok("element_fill", {"selector": "#email", "value": "ada@example.org"})
    await mcp.ok("element_type", {"selector": "#note", "text": "Ring twice"})
    await mcp.ok("element_click", {"selector": "#gift"})
    await mcp.ok("js_evaluate", {"script": "document.getElementById('size').value = 'm'"})
    assert (await mcp.ok("record_stop"))["stepCount"] == 5
    recorded = await mcp.js(FORM_STATE)  # read after the stop, or this js_evaluate would be a step too
    assert recorded == {"name": "Ada Lovelace", "email": "ada@example.org", "size": "m", "gift": True,
                        "note": "Ring twice"}
    exported = await mcp.ok("record_export")
    assert exported["replayable"] is True and exported["warnings"] == []
    script = json.loads(exported["script"])

    await mcp.js("document.getElementById('order').reset()")
    assert await mcp.js(FORM_STATE) == {"name": "", "email": "", "size": "s", "gift": False, "note": ""}

    replay = await mcp.ok("batch_execute", {"steps": script["steps"]})
    assert replay["total_steps"] == replay["success_count"] == 5, replay
    assert replay["failure_count"] == 0 and replay["stopped_early"] is False
    assert await mcp.js(FORM_STATE) == recorded


async def test_recording_a_batch_records_its_steps(mcp, form_url):
    await mcp.ok("page_navigate", {"url": form_url})
    await mcp.ok("record_start", {})
    await mcp.ok("batch_execute", {"steps": [{"tool": "element_fill", "args": {"selector": "#name", "value": "Bo"}}]})
    await mcp.ok("element_select", {"selector": "#size", "values": ["l"]})
    await mcp.ok("record_stop")
    exported = await mcp.ok("record_export")
    steps = json.loads(exported["script"])["steps"]
    assert [s["tool"] for s in steps] == ["element_fill", "element_select"]  # the batch's step, not the batch
    assert exported["replayable"] is True  # every recorded action is a batch_execute step
    assert exported["warnings"] == []
