"""Per-tab buffers are bounded: a flood drops the oldest entries and the readers say how many."""

from __future__ import annotations

import trio

from tools.tab import CONSOLE_KEPT

EXTRA = 25  # messages past the bound
TOTAL = CONSOLE_KEPT + EXTRA


async def _last_entry_text(mcp) -> str:
    entries = (await mcp.ok("cdp_get_console_entries", {"limit": 1}))["entries"]
    return entries[-1]["text"] if entries else ""


async def test_console_flood_drops_the_oldest_and_counts_them(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/buffers/flood", "<title>Flood</title>")})
    await mcp.ok("console_clear")
    await mcp.js(f"for (let i = 0; i < {TOTAL}; i++) console.log('m' + i); 0")
    with trio.fail_after(30):  # the tab records events as they arrive, after the evaluate's reply
        while await _last_entry_text(mcp) != f"m{TOTAL - 1}":
            await trio.sleep(0.02)

    entries = await mcp.ok("cdp_get_console_entries", {"limit": 5})
    assert entries["total"] == CONSOLE_KEPT and entries["dropped"] == EXTRA

    await mcp.js("console.log('one more'); 0")  # the buffer is still full: one more drop
    with trio.fail_after(30):
        while await _last_entry_text(mcp) != "one more":
            await trio.sleep(0.02)

    data = await mcp.ok("console_get_messages", {"clear": True})
    assert data["count"] == CONSOLE_KEPT
    assert data["dropped"] == EXTRA + 1  # reported as it was before the clear
    assert data["messages"][0]["text"] == f"m{EXTRA + 1}"  # m0 … m25 went first
    assert data["messages"][-1]["text"] == "one more"

    after = await mcp.ok("console_get_messages")
    assert after["count"] == 0 and after["dropped"] == 0  # clearing starts the count afresh


async def test_readers_report_no_drops_for_a_quiet_page(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/buffers/quiet", "<script>console.log('hi')</script>")})
    assert (await mcp.ok("console_get_messages"))["dropped"] == 0
    requests = await mcp.ok("network_get_requests")
    assert requests["count"] >= 1 and requests["dropped"] == 0
    assert (await mcp.ok("cdp_get_browser_logs"))["dropped"] == 0
