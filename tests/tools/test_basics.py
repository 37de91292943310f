"""page_navigate and js_evaluate: the two tools every other test leans on."""

from __future__ import annotations

from tests.support.site import Response, refused_url


async def test_navigate_returns_url_title_status(mcp, site):
    url = site.route("/tools/basic", "<title>Basic</title><h1>Hi</h1>")
    data = await mcp.ok("page_navigate", {"url": url})
    assert data == {"url": url, "title": "Basic", "status": 200}


async def test_navigate_404_reports_status(mcp, site):
    data = await mcp.ok("page_navigate", {"url": site.url("/tools/missing-page")})
    assert data["status"] == 404


async def test_navigate_refused_is_navigation_failed(mcp):
    err = await mcp.fail("page_navigate", {"url": refused_url()})
    assert err["code"] == "navigation_failed"
    assert "ERR_CONNECTION_REFUSED" in err["message"]


async def test_navigate_timeout(mcp, site):
    url = site.route("/tools/slow", Response("<p>slow</p>", delay=2))
    err = await mcp.fail("page_navigate", {"url": url, "timeout_ms": 300})
    assert err["code"] == "timeout"


async def test_js_evaluate_values_functions_promises_and_errors(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/tools/js", "<title>JS</title>")})
    assert await mcp.js("1 + 2") == 3
    assert await mcp.js("() => document.title") == "JS"
    assert await mcp.js("new Promise(r => setTimeout(() => r({a: [1, 2]}), 10))") == {"a": [1, 2]}
    err = await mcp.fail("js_evaluate", {"script": "throw new RangeError('nope')"})
    assert err["code"] == "javascript_error"
    assert "RangeError: nope" in err["message"]
    data = await mcp.ok("js_evaluate", {"script": "'x'.repeat(100)", "max_result_size": 10})
    assert data["truncated"] is True and len(data["result"]) == 10


async def test_js_evaluate_calls_functions_once_and_runs_statements(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/tools/js-forms", "<title>F</title>")})
    assert await mcp.js("(async (u) => u + '!')('x')") == "x!"  # already a call: not called again
    assert await mcp.js("async () => { await null; return 7; }") == 7
    assert await mcp.js("window.n = (window.n || 0) + 1; window.n") == 1
    assert await mcp.js("window.n") == 1  # the statement ran exactly once
    assert await mcp.js("const a = 2; a * 21") == 42
