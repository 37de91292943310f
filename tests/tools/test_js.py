"""js_init_script, js_add_script and js_add_style (js_evaluate is covered in test_basics)."""

from __future__ import annotations

PAGE = """<title>Init</title><p id=out></p>
<script>document.getElementById('out').textContent = 'seen:' + (window.__flag || 'none');</script>"""


async def test_init_script_runs_before_page_scripts_on_every_navigation(mcp, site):
    first = site.route("/js/init-1", PAGE)
    second = site.route("/js/init-2", PAGE)
    await mcp.ok("page_navigate", {"url": first})
    assert await mcp.js("document.getElementById('out').textContent") == "seen:none"
    data = await mcp.ok("js_init_script", {"script": "window.__flag = 'early'; window.__runs = (window.__runs || 0) + 1;"})
    assert "from the next navigation" in data["message"]
    assert await mcp.js("window.__flag === undefined")  # not the current document
    for url in (second, first):
        await mcp.ok("page_navigate", {"url": url})
        assert await mcp.js("document.getElementById('out').textContent") == "seen:early"
        assert await mcp.js("window.__runs") == 1
    again = await mcp.ok("js_init_script", {"script": "window.__flag = 'early'; window.__runs = (window.__runs || 0) + 1;"})
    assert "already registered" in again["message"]
    await mcp.ok("page_navigate", {"url": second})
    assert await mcp.js("window.__runs") == 1


async def test_init_script_reaches_tabs_opened_later(mcp, site):
    url = site.route("/js/init-popup", PAGE)
    await mcp.ok("page_navigate", {"url": site.route("/js/opener", "<p>opener</p>")})
    await mcp.ok("js_init_script", {"script": "window.__flag = 'popup'"})
    await mcp.js("window.popup = window.open('about:blank'); 0")
    # The server adopts the popup as a tab shortly after it opens; from then on every
    # document the popup loads runs the init script first.
    data = await mcp.ok("wait_for_function", {"function": f"""async () => {{
        popup.location.href = {url!r};
        await new Promise((r) => setTimeout(r, 100));
        const out = popup.document.getElementById('out');
        return out && out.textContent === 'seen:popup' && out.textContent;
    }}""", "timeout_ms": 5000})
    assert data["value"] == "seen:popup"


async def test_add_script_runs_in_page_world(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/js/add-script", "<p id=t>before</p>")})
    data = await mcp.ok("js_add_script", {"source": "window.injected = 7; document.getElementById('t').textContent = 'after'"})
    assert "injected and run" in data["message"]
    assert await mcp.js("window.injected") == 7
    assert await mcp.js("document.getElementById('t').textContent") == "after"
    assert await mcp.js("document.querySelectorAll('script').length") == 1
    err = await mcp.fail("js_add_script", {"source": "throw new TypeError('bad injection')"})
    assert err["code"] == "javascript_error" and "TypeError: bad injection" in err["message"]
    err = await mcp.fail("js_add_script", {"source": "let = ;"})
    assert err["code"] == "javascript_error" and "SyntaxError" in err["message"]
    err = await mcp.fail("js_add_script", {"source": ""})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "source"


async def test_add_script_blocked_by_csp_is_reported(mcp, site):
    from tests.support.site import Response

    url = site.route("/js/csp", Response("<p>strict</p>", headers={"Content-Security-Policy": "script-src 'none'"}))
    await mcp.ok("page_navigate", {"url": url})
    err = await mcp.fail("js_add_script", {"source": "window.x = 1"})
    assert err["code"] == "javascript_error" and "Content-Security-Policy" in err["message"]
    assert await mcp.js("window.x === undefined")


async def test_add_style_changes_computed_style(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/js/add-style", "<p id=p>text</p>")})
    assert await mcp.js("getComputedStyle(document.getElementById('p')).color") == "rgb(0, 0, 0)"
    data = await mcp.ok("js_add_style", {"source": "#p { color: rgb(255, 0, 0); } .none { display: none }"})
    assert data["message"] == "style injected: 2 rule(s) parsed"
    assert await mcp.js("getComputedStyle(document.getElementById('p')).color") == "rgb(255, 0, 0)"
