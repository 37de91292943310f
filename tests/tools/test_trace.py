"""trace_: a real Chrome trace, HAR, screenshots, DOM snapshots, chunks and groups, in a ZIP."""

from __future__ import annotations

import base64
import io
import json
import zipfile
from pathlib import Path

PAGE = """<title>Traced</title><link rel=stylesheet href="/trace/style.css">
<h1 id=h>Trace me</h1><input id=q><script src="/trace/app.js"></script>"""
SECOND = "<title>Second</title><p id=p>second page</p>"


def _routes(site) -> tuple[str, str]:
    site.route("/trace/style.css", "h1 { color: rebeccapurple }")
    from tests.support.site import Response

    site.route("/trace/app.js", Response("document.getElementById('h').dataset.ran = '1';",
                                         content_type="application/javascript"))
    return site.route("/trace/page", PAGE), site.route("/trace/second", SECOND)


def _trace_events(zf: zipfile.ZipFile) -> list[dict]:
    data = json.loads(zf.read("trace.json"))
    assert isinstance(data, dict)
    return data["traceEvents"]


async def test_trace_zip_has_trace_har_snapshots_and_groups(mcp, site):
    first, second = _routes(site)
    await mcp.ok("page_navigate", {"url": "about:blank"})
    started = await mcp.ok("trace_start", {"name": "checkout", "title": "Checkout flow"})
    assert started["name"] == "checkout"
    await mcp.ok("trace_group_start", {"name": "outer", "location": "test_trace.py:40"})
    await mcp.ok("page_navigate", {"url": first})
    inner = await mcp.ok("trace_group_start", {"name": "inner"})
    assert inner["depth"] == 1
    await mcp.ok("js_evaluate", {"script": "document.getElementById('h').textContent = 'changed'"})
    await mcp.ok("element_fill", {"selector": "#q", "value": "typed text"})
    await mcp.ok("trace_group_stop")
    await mcp.ok("trace_group_stop")
    await mcp.ok("page_navigate", {"url": second})
    data = await mcp.ok("trace_stop", {"path": "traces/checkout.zip"})
    path = Path(data["path"])
    assert path.name == "checkout.zip" and path.parent.name == "traces"
    assert data["size_kb"] >= 1 and "perfetto" in data["view_hint"].lower()
    with zipfile.ZipFile(path) as zf:
        names = set(zf.namelist())
        events = _trace_events(zf)
        assert len(events) > 100
        assert any(e.get("name") == "TracingStartedInBrowser" for e in events)
        groups = {e["name"]: e for e in events if e.get("cat") == "blink.user_timing" and e.get("ph") == "b"}
        assert {"outer", "inner"} <= set(groups)
        assert groups["outer"]["ts"] <= groups["inner"]["ts"]
        entries = json.loads(zf.read("network.har"))["log"]["entries"]
        urls = [e["request"]["url"] for e in entries]
        for wanted in (first, second, site.url("/trace/style.css"), site.url("/trace/app.js")):
            assert wanted in urls
        page_entry = entries[urls.index(first)]
        assert page_entry["response"]["status"] == 200 and page_entry["startedDateTime"].endswith("Z")
        snapshots = sorted(n for n in names if n.startswith("snapshots/"))
        assert any("page_navigate" in n for n in snapshots)
        changed = [n for n in snapshots if "js_evaluate" in n]
        html = zf.read(changed[0]).decode()
        assert "changed" in html and "<script" not in html and f'<base href="{first}">' in html
        filled = zf.read(next(n for n in snapshots if "element_fill" in n)).decode()
        assert 'value="typed text"' in filled
        assert any(n.startswith("screenshots/") and n.endswith(".jpg") for n in names)
        shot = next(n for n in names if n.startswith("screenshots/"))
        assert zf.read(shot)[:2] == b"\xff\xd8"
        markers = json.loads(zf.read("markers.json"))
        by_name = {g["name"]: g for g in markers["groups"]}
        assert by_name["inner"]["parent"] == "outer" and by_name["inner"]["depth"] == 1
        assert by_name["outer"]["location"] == "test_trace.py:40"
    assert data["requests"] == len(entries) and data["snapshots"] == len(snapshots)


async def test_trace_chunk_is_its_own_zip_and_base64_stop(mcp, site):
    first, second = _routes(site)
    await mcp.ok("trace_start", {"screenshots": False, "snapshots": False, "sources": True})
    await mcp.ok("page_navigate", {"url": first})
    await mcp.ok("trace_chunk_start", {"name": "step2"})
    assert (await mcp.fail("trace_chunk_start", {}))["code"] == "already_started"
    await mcp.ok("page_navigate", {"url": second})
    chunk = await mcp.ok("trace_chunk_stop", {"path": "step2.zip"})
    with zipfile.ZipFile(chunk["path"]) as zf:
        urls = [e["request"]["url"] for e in json.loads(zf.read("network.har"))["log"]["entries"]]
        assert second in urls and first not in urls
        assert _trace_events(zf)
        assert not [n for n in zf.namelist() if n.startswith(("screenshots/", "snapshots/"))]
    data = await mcp.ok("trace_stop")
    assert data.get("path") is None
    with zipfile.ZipFile(io.BytesIO(base64.b64decode(data["data"]))) as zf:
        urls = [e["request"]["url"] for e in json.loads(zf.read("network.har"))["log"]["entries"]]
        assert first in urls and second in urls
        points = json.loads(zf.read("markers.json"))["points"]
        assert [p["kind"] for p in points] == ["trace_start", "chunk_start", "chunk_stop", "trace_stop"]
        sources = [n for n in zf.namelist() if n.startswith("sources/")]
        assert sources and any(n.endswith("app.js") for n in sources)
        assert b"dataset.ran" in zf.read(next(n for n in sources if n.endswith("app.js")))


async def test_trace_out_of_order(mcp, site):
    assert (await mcp.fail("trace_stop"))["code"] == "not_started"
    assert (await mcp.fail("trace_group_start", {"name": "x"}))["code"] == "not_started"
    assert (await mcp.fail("trace_chunk_stop"))["code"] == "not_started"
    err = await mcp.fail("trace_group_start", {})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "name"
    await mcp.ok("page_navigate", {"url": site.route("/trace/order", "<p>x</p>")})
    await mcp.ok("trace_start", {"screenshots": False})
    assert (await mcp.fail("trace_start"))["code"] == "already_started"
    assert (await mcp.fail("trace_group_stop"))["code"] == "not_started"
    assert (await mcp.fail("trace_chunk_stop"))["code"] == "not_started"
    assert (await mcp.fail("trace_stop", {"path": "../escape.zip"}))["code"] == "invalid_path"
    # a refused path leaves the trace running, so the agent can retry
    assert (await mcp.ok("trace_stop", {"path": "ok.zip"}))["path"].endswith("ok.zip")
    assert (await mcp.fail("trace_stop"))["code"] == "not_started"


async def test_trace_of_a_closed_tab_still_saves_what_it_has(mcp, site):
    first, _ = _routes(site)
    await mcp.ok("page_navigate", {"url": "about:blank"})
    await mcp.ok("trace_start", {"screenshots": False})
    await mcp.ok("page_navigate", {"url": first})
    await mcp.ok("tab_close", {"index": 0})
    data = await mcp.ok("trace_stop", {"path": "closed.zip"})
    assert "closed" in data["message"]
    with zipfile.ZipFile(data["path"]) as zf:
        urls = [e["request"]["url"] for e in json.loads(zf.read("network.har"))["log"]["entries"]]
        assert first in urls
        assert any("page_navigate" in n for n in zf.namelist() if n.startswith("snapshots/"))
        json.loads(zf.read("trace.json"))
    await mcp.ok("page_navigate", {"url": first})
    await mcp.ok("trace_start", {"snapshots": False, "screenshots": False})  # nothing left behind
    await mcp.ok("trace_stop", {"path": "after.zip"})
