"""cdp_ console debugger, console entries with (async) stacks, and the browser's own log."""

from __future__ import annotations

import trio

ASYNC_PAGE = """<title>console</title><script>
function outerCaller() { setTimeout(function innerLogger() { console.log('deep', {a: 1}); }, 10); }
</script>"""


async def _wait_for(mcp, tool, args, predicate, timeout=30):
    with trio.fail_after(timeout):
        while True:
            data = await mcp.ok(tool, args)
            if predicate(data):
                return data
            await trio.sleep(0.05)


async def test_console_entries_carry_sync_and_async_stacks(mcp, site):
    assert (await mcp.fail("cdp_disable_console_debugger"))["code"] == "not_started"
    await mcp.ok("page_navigate", {"url": site.route("/cdp/console", ASYNC_PAGE)})
    enabled = await mcp.ok("cdp_enable_console_debugger")
    assert enabled["tabs"] == 1
    assert (await mcp.fail("cdp_enable_console_debugger"))["code"] == "already_started"
    await mcp.js("outerCaller(); console.error('plain error'); 0")
    data = await _wait_for(mcp, "cdp_get_console_entries", {"type": "log"}, lambda d: d["count"] >= 1)
    entry = data["entries"][-1]
    assert entry["text"].startswith("deep") and entry["args"][0] == "deep"
    top = entry["stack"][0]
    assert top["function"] == "innerLogger"
    assert top["url"] == site.url("/cdp/console") and top["line"] == 2 and top["column"] > 1
    chain = entry["async_stack"]
    assert chain[0]["description"] == "setTimeout"
    assert chain[0]["frames"][0]["function"] == "outerCaller"
    errors = await mcp.ok("cdp_get_console_entries", {"type": "error"})
    assert [e["text"] for e in errors["entries"]] == ["plain error"]
    assert (await mcp.ok("cdp_get_console_entries", {"limit": 1}))["count"] == 1
    await mcp.ok("cdp_disable_console_debugger")
    assert (await mcp.fail("cdp_disable_console_debugger"))["code"] == "not_started"


async def test_violation_reported_while_debugger_is_on(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/cdp/violation", "<p>busy</p>")})
    await mcp.ok("cdp_enable_console_debugger")
    await mcp.js("setTimeout(() => { const t = performance.now(); while (performance.now() - t < 250) {} }, 0); 0")
    data = await _wait_for(mcp, "cdp_get_browser_logs", {"source": "violation"}, lambda d: d["count"] >= 1)
    assert any("handler took" in log["text"] for log in data["logs"]), data
    assert all(log["source"] == "violation" for log in data["logs"])
    await mcp.ok("cdp_disable_console_debugger")


async def test_synchronous_xhr_is_a_deprecation(mcp, site):
    url = site.route("/cdp/sync-xhr", "<!doctype html><p>xhr</p>")
    await mcp.ok("page_navigate", {"url": url})
    await mcp.js("(() => { const x = new XMLHttpRequest(); x.open('GET', location.href, false); x.send(); return x.status; })()")
    data = await _wait_for(mcp, "cdp_get_browser_logs", {"source": "deprecation"}, lambda d: d["count"] >= 1)
    assert any("XMLHttpRequestSynchronous" in log["text"] for log in data["logs"]), data
    assert data["logs"][0]["level"] == "warning"
    assert (await mcp.ok("cdp_get_browser_logs", {"level": "error", "source": "deprecation"}))["count"] == 0


async def test_console_filters_validate(mcp):
    err = await mcp.fail("cdp_get_console_entries", {"type": "shout"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "type"
    err = await mcp.fail("cdp_get_console_entries", {"limit": 0})
    assert err["details"][0]["field"] == "limit"
    err = await mcp.fail("cdp_get_browser_logs", {"source": "gossip"})
    assert err["details"][0]["field"] == "source"
