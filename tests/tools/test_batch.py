"""batch_execute: steps through the one dispatcher, stop or continue on errors, up-front checks."""

from __future__ import annotations

FORM = """<title>Form</title>
<input id=name><button id=go onclick="document.getElementById('out').textContent = 'Hello ' + document.getElementById('name').value">Go</button>
<p id=out></p>"""


def _flow(url: str, broken_step: dict) -> list[dict]:
    return [
        {"tool": "page_navigate", "args": {"url": url}},
        {"tool": "element_fill", "args": {"selector": "#name", "value": "Ada"}},
        broken_step,
        {"tool": "element_click", "args": {"selector": "#go"}},
        {"tool": "element_get_text", "args": {"selector": "#out"}},
        {"tool": "page_get_title", "args": {}},
    ]


MISSING = {"tool": "element_click", "args": {"selector": "#missing", "timeout_ms": 200}}


async def test_batch_runs_steps_in_order(mcp, site):
    url = site.route("/batch/form", FORM)
    steps = [s for s in _flow(url, MISSING) if s is not MISSING]
    data = await mcp.ok("batch_execute", {"steps": steps})
    assert data["total_steps"] == 5 and data["success_count"] == 5 and data["failure_count"] == 0
    assert data["stopped_early"] is False
    assert [r["tool"] for r in data["results"]] == [s["tool"] for s in steps]
    assert [r["index"] for r in data["results"]] == list(range(5))
    assert data["results"][0]["result"]["url"] == url
    assert data["results"][3]["result"]["text"] == "Hello Ada"
    assert data["results"][4]["result"] == {"title": "Form"}
    assert all("error" not in r and r["duration_ms"] >= 0 for r in data["results"])
    assert data["total_duration_ms"] >= sum(r["duration_ms"] for r in data["results"]) - 5
    assert await mcp.js("document.getElementById('name').value") == "Ada"  # the page really changed


async def test_batch_stops_at_first_failure_by_default(mcp, site):
    data = await mcp.ok("batch_execute", {"steps": _flow(site.route("/batch/stop", FORM), MISSING)})
    assert data["total_steps"] == 6 and len(data["results"]) == 3
    assert data["success_count"] == 2 and data["failure_count"] == 1 and data["stopped_early"] is True
    failed = data["results"][2]
    assert failed["ok"] is False and "result" not in failed
    assert failed["error"]["code"] == "element_not_found" and "#missing" in failed["error"]["message"]
    assert await mcp.js("document.getElementById('out').textContent") == ""  # step 3 never ran


async def test_batch_continues_on_error(mcp, site):
    for options in ({"continue_on_error": True}, {"stop_on_error": False}):
        data = await mcp.ok("batch_execute", {"steps": _flow(site.route("/batch/go-on", FORM), MISSING), **options})
        assert len(data["results"]) == 6 and data["stopped_early"] is False
        assert data["success_count"] == 5 and data["failure_count"] == 1
        assert [r["ok"] for r in data["results"]] == [True, True, False, True, True, True]
        assert data["results"][4]["result"]["text"] == "Hello Ada"


async def test_batch_js_wait_and_http_steps(mcp, site):
    site.route("/batch/api", '{"n": 1}')
    url = site.route("/batch/js", "<title>JS</title><script>setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<i id=late>late</i>'), 50)</script>")
    data = await mcp.ok("batch_execute", {"steps": [
        {"tool": "page_navigate", "args": {"url": url}},
        {"tool": "wait_for_selector", "args": {"selector": "#late", "timeout_ms": 3000}},
        {"tool": "js_evaluate", "args": {"script": "document.getElementById('late').textContent"}},
        {"tool": "wait_for_load", "args": {"state": "load"}},
        {"tool": "http_request", "args": {"url": site.url("/batch/api")}},
    ]})
    assert data["success_count"] == 5, data
    assert data["results"][2]["result"]["result"] == "late"
    assert data["results"][4]["result"]["body"] == '{"n": 1}'


async def test_batch_refuses_bad_steps_before_running_any(mcp, site):
    url = site.route("/batch/refuse", FORM)
    err = await mcp.fail("batch_execute", {"steps": [
        {"tool": "page_navigate", "args": {"url": url}},
        {"tool": "browser_quit", "args": {}},
    ]})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "steps.1.tool"
    err = await mcp.fail("batch_execute", {"steps": [
        {"tool": "page_navigate", "args": {"url": url}},
        {"tool": "element_fill", "args": {"selector": "#name"}},
    ]})
    assert err["code"] == "invalid_arguments"
    assert err["details"][0]["field"] == "steps.1.args.value"
    assert await mcp.js("location.href") == "about:blank"  # the navigate step never ran
    err = await mcp.fail("batch_execute", {"steps": [{"tool": "batch_execute", "args": {}}]})
    assert err["details"][0]["field"] == "steps.0.tool"
    err = await mcp.fail("batch_execute", {"steps": []})
    assert err["details"][0]["field"] == "steps"
    err = await mcp.fail("batch_execute", {"steps": [{"tool": "js_evaluate", "args": {"script": "1"}}] * 101})
    assert err["details"][0]["field"] == "steps"


def test_every_recorded_action_can_be_replayed_by_batch_execute():
    from tools.catalog import load
    from tools.namespaces.batch import BATCH_TOOLS

    recorded = {t.name for t in load() if t.records}
    assert recorded <= set(BATCH_TOOLS), sorted(recorded - set(BATCH_TOOLS))


async def test_batch_runs_a_recorded_select_and_check(mcp, site):
    url = site.route("/batch/select", "<select id=s><option value=a>A</option><option value=b>B</option></select>"
                     "<input type=checkbox id=c>")
    data = await mcp.ok("batch_execute", {"steps": [
        {"tool": "page_navigate", "args": {"url": url}},
        {"tool": "element_select", "args": {"selector": "#s", "values": ["b"]}},
        {"tool": "element_check", "args": {"selector": "#c"}},
    ]})
    assert data["success_count"] == 3
    assert await mcp.js("[document.querySelector('#s').value, document.querySelector('#c').checked]") == ["b", True]


async def test_batch_screenshots_come_as_image_blocks_in_step_order(mcp, site):
    """A step's result keeps the picture's metadata; the pictures follow the text as image blocks."""
    steps = [
        {"tool": "page_navigate", "args": {"url": site.route("/batch/shots", FORM)}},
        {"tool": "page_screenshot", "args": {}},
        {"tool": "page_screenshot", "args": {"image_type": "jpeg"}},
        {"tool": "page_screenshot", "args": {"format": "file", "path": "batch.png"}},
    ]
    success, data, images = await mcp.call_with_images("batch_execute", {"steps": steps})
    assert success and data["success_count"] == 4
    png, jpeg, saved = (r["result"] for r in data["results"][1:])
    assert [mime for mime, _ in images] == ["image/png", "image/jpeg"]
    assert images[0][1][:8] == b"\x89PNG\r\n\x1a\n" and images[1][1][:2] == b"\xff\xd8"
    assert (png["size"], jpeg["size"]) == (len(images[0][1]), len(images[1][1]))
    assert png["path"] is None and "data" not in png and saved["path"].endswith("batch.png")
