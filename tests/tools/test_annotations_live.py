"""The annotations held against what the tools do, through the MCP layer on real Chromium.

One page is prepared as an agent leaves it mid-task: a form with a typed value, a ticked box
and focus, a scrolled viewport, cookies (one HttpOnly), localStorage and sessionStorage, a
console message, a finished (empty) recording, a check in the test report, a saved state and
a second tab. Every tool whose readOnlyHint is true is then called on it, and after each call
the page (URL, DOM, field values, scroll, focus, storage, cookies) and the output directory
must be as they were; the browser's tabs and cookies, the server's buffers, report, recording
and routes are compared once at the end. A sample of the other tools shows the hint that sets
them apart: files written, a page scrolled, a check added, kept data removed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.site import Response
from tools import catalog

PAGE = """<!doctype html><title>Ledger</title><link rel=icon href="data:,">
<style>body { min-height: 3000px } #low { margin-top: 2000px }</style>
<script>
  localStorage.setItem('plan', 'pro');
  sessionStorage.setItem('step', '2');
  document.cookie = 'seen=yes; path=/';
  console.log('ledger ready');
</script>
<h1>Ledger</h1>
<form id=f action="/ann/other"><label>Name <input id=name name=name value="Ada"></label>
<label><input type=checkbox id=agree> I agree</label>
<select id=plan><option>free<option>pro</select>
<button id=go>Save</button></form>
<table id=t><tr><th>Item<th>Cost<tr><td>Tea<td>3</table>
<p id=low>Below the fold</p>"""

#: The arguments each read-only tool gets on the page (a tool not named takes none).
READ_ARGS: dict[str, dict[str, Any]] = {
    "element_get_attribute": {"selector": "#name", "name": "name"},
    "element_get_bounding_box": {"selector": "#go"}, "element_get_inner_html": {"selector": "#f"},
    "element_get_inner_text": {"selector": "#f"}, "element_get_label": {"selector": "#name"},
    "element_get_outer_html": {"selector": "#go"}, "element_get_role": {"selector": "#go"},
    "element_get_text": {"selector": "h1"}, "element_get_value": {"selector": "#name"},
    "element_is_checked": {"selector": "#agree"}, "element_is_editable": {"selector": "#name"},
    "element_is_enabled": {"selector": "#go"}, "element_is_hidden": {"selector": "#missing"},
    "element_is_visible": {"selector": "#go"},
    "storage_local_get": {"key": "plan"}, "storage_session_get": {"key": "step"},
    "test_generate_locator": {"selector": "#go"}, "test_validate_selectors": {"selectors": ["#go", ".nope"]},
    "wait_for_load": {"state": "load"}, "wait_for_selector": {"selector": "#go"}, "wait_for_state": {"selector": "#low", "state": "attached"},
    "wait_for_text": {"text": "Ledger"}, "wait_for_url": {"pattern": "/ann/ledger"},
    "workflow_extract_table": {"selector": "#t"},
}

#: Everything a read could disturb in the current page, read in one call.
PAGE_STATE = """JSON.stringify({
  url: location.href, title: document.title, html: document.documentElement.outerHTML,
  fields: [...document.querySelectorAll('input, select')].map(e => [e.id, e.value, e.checked, e.selectedIndex]),
  scroll: [scrollX, scrollY], focus: document.activeElement && document.activeElement.id,
  local: {...localStorage}, session: {...sessionStorage}, cookie: document.cookie})"""


def _files(root: Path) -> list[tuple[str, int]]:
    """Every file under the output directory, with its size."""
    found = root.rglob("*") if root.exists() else []
    return sorted((str(p.relative_to(root)), p.stat().st_size) for p in found if p.is_file())


async def _page(mcp: Any) -> str:
    return await mcp.js(PAGE_STATE)


async def _world(mcp: Any) -> dict[str, Any]:
    """What lives beyond the page: tabs, every cookie (HttpOnly too), the server's records."""
    tabs = await mcp.ok("tab_list")
    return {
        "tabs": [(t["url"], t["index"]) for t in tabs["tabs"]], "current": tabs["current_tab"],
        "cookies": sorted((c["name"], c["value"]) for c in (await mcp.ok("storage_get_cookies"))["cookies"]),
        "console": (await mcp.ok("cdp_get_console_entries"))["total"],
        "requests": (await mcp.ok("network_get_requests"))["total_matched"],
        "report": (await mcp.ok("test_get_report"))["total"],
        "recording": (await mcp.ok("record_get_status"))["stepCount"],
        "routes": (await mcp.ok("network_list_routes"))["count"],
        "states": (await mcp.ok("state_list"))["states"],
    }


async def _prepare(mcp: Any, site: Any) -> str:
    url = site.route("/ann/ledger", Response(PAGE, headers={"Set-Cookie": "sid=s3cret; Path=/; HttpOnly"}))
    other = site.route("/ann/other", "<!doctype html><title>Other</title><p>Other tab")
    await mcp.ok("page_navigate", {"url": url})
    await mcp.ok("element_fill", {"selector": "#name", "value": "Grace"})
    await mcp.ok("element_check", {"selector": "#agree"})
    await mcp.ok("element_select", {"selector": "#plan", "values": ["pro"]})
    await mcp.ok("page_scroll", {"direction": "down", "amount": 40})
    await mcp.ok("element_focus", {"selector": "#name"})
    await mcp.ok("record_start")
    await mcp.ok("record_stop")
    await mcp.ok("test_assert_element", {"selector": "#go"})
    await mcp.ok("state_save", {"name": "before"})
    await mcp.ok("page_new", {"url": other})
    await mcp.ok("tab_select", {"index": 0})
    return url


async def test_read_only_tools_change_nothing_and_destructive_ones_remove(mcp, site, tool_config):
    url = await _prepare(mcp, site)
    out = Path(tool_config.output_dir)
    readers = [t.name for t in catalog.listed() if t.annotations["readOnlyHint"]]
    assert len(readers) == 48 and set(READ_ARGS) <= set(readers)
    world, page, files = await _world(mcp), await _page(mcp), _files(out)
    assert world["tabs"] == [(url, 0), (site.url("/ann/other"), 1)] and world["report"] == 1
    assert ("sid", "s3cret") in world["cookies"] and json.loads(page)["focus"] == "name"
    for name in readers:
        await mcp.ok(name, READ_ARGS.get(name, {}))  # each succeeds: a failed call proves nothing
        assert await _page(mcp) == page, f"{name} changed the page"
        assert _files(out) == files, f"{name} wrote files"
    assert await _world(mcp) == world, "a read-only tool changed the browser or the server's records"

    await _not_read_only(mcp, out, files, world)
    await _destructive(mcp, world)


async def _not_read_only(mcp: Any, out: Path, files: list[tuple[str, int]], world: dict[str, Any]) -> None:
    """Tools that look like reads but are not: each shows the change that decided it."""
    await mcp.ok("page_screenshot", {"format": "file"})
    await mcp.ok("page_screenshot", {"format": "file"})  # acts: a second file, not the same one again
    assert len(_files(out)) == len(files) + 2
    before = json.loads(await _page(mcp))["scroll"]
    await mcp.ok("element_screenshot", {"selector": "#low"})  # scrolls the element into view
    assert json.loads(await _page(mcp))["scroll"] != before
    await mcp.ok("test_verify_visible", {"selector": "#go"})  # a check is kept for the report
    assert (await mcp.ok("test_get_report"))["total"] == world["report"] + 1


async def _destructive(mcp: Any, world: dict[str, Any]) -> None:
    """A sample of destructiveHint tools, each removing what it names (and a repeat of an
    idempotent one removing nothing more)."""
    assert (await mcp.ok("storage_local_delete", {"key": "plan"}))["existed"] is True
    assert (await mcp.ok("storage_local_delete", {"key": "plan"}))["existed"] is False  # idempotent
    assert (await mcp.ok("storage_local_get", {"key": "plan"}))["value"] is None
    assert (await mcp.ok("storage_clear_cookies"))["count"] == len(world["cookies"])
    assert (await mcp.ok("storage_get_cookies"))["count"] == 0
    assert (await mcp.ok("console_get_messages", {"clear": True}))["count"] >= 1
    assert (await mcp.ok("console_get_messages"))["count"] == 0
    assert (await mcp.ok("network_get_requests", {"clear": True}))["count"] >= 1
    assert (await mcp.ok("network_get_requests"))["count"] == 0
    await mcp.ok("record_start")  # drops the steps kept from the last recording
    await mcp.ok("element_click", {"selector": "#agree"})
    await mcp.ok("record_stop")
    assert (await mcp.ok("record_get_status"))["stepCount"] == 1
    await mcp.ok("record_start")
    assert (await mcp.ok("record_get_status"))["stepCount"] == 0
    await mcp.ok("record_stop")
    await mcp.ok("test_reset")
    assert (await mcp.ok("test_get_report"))["total"] == 0
    await mcp.ok("state_delete", {"name": "before"})
    assert (await mcp.ok("state_list"))["states"] == []
    assert (await mcp.ok("tab_close", {"index": 1}))["count"] == 1  # destroys: tab 1 is another tab now
    assert [t["index"] for t in (await mcp.ok("tab_list"))["tabs"]] == [0]
