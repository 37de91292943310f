"""frame_ tools: after frame_select, js and element location act inside the iframe.

Both kinds of iframe are covered: a same-origin one (same renderer, its own
execution context) and a cross-site one (an out-of-process iframe with its
own CDP session, whose coordinates need the iframe's offset in the page).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

from tests.support.site import Response
from tools import catalog, locate
from tools.registry import call
from tools.session import ServerConfig, ToolSession

INNER = """<title>{title}</title><style>body{{margin:0}}</style>
<button id=b style="margin:{margin}px 0 0 {margin}px" onclick="document.title = 'clicked ' + location.host">
  Inner {title}</button>"""


def frames_page(site, suffix: str = "") -> str:
    site.route(f"/frame/same{suffix}", INNER.format(title="Same", margin=10))
    site.route(f"/frame/cross{suffix}", INNER.format(title="Cross", margin=20))
    return site.route(f"/frame/top{suffix}", f"""<title>Top</title><style>body{{margin:0}}</style>
        <button id=b>Top button</button><div style="height:40px"></div>
        <iframe name=samename id=sameid src="{site.url(f'/frame/same{suffix}')}"
                style="width:300px;height:120px;border:4px solid"></iframe>
        <iframe id=crossid src="{site.cross_site_url(f'/frame/cross{suffix}')}"
                style="width:300px;height:120px;border:7px solid;margin-left:33px"></iframe>""")


async def test_same_origin_frame_by_name_and_id(mcp, site):
    await mcp.ok("page_navigate", {"url": frames_page(site)})
    selected = await mcp.ok("frame_select", {"name_or_url": "samename"})
    assert selected["out_of_process"] is False and selected["url"].endswith("/frame/same")
    assert await mcp.js("document.title") == "Same"
    assert "Inner Same" in await mcp.js("document.querySelector('#b').textContent")
    inspected = await mcp.ok("page_inspect")
    assert [i["name"] for i in inspected["items"]] == ["Inner Same"]

    back = await mcp.ok("frame_select_main")
    assert "main frame" in back["message"]
    assert await mcp.js("document.title") == "Top"
    assert "already" in (await mcp.ok("frame_select_main"))["message"]

    await mcp.ok("frame_select", {"name_or_url": "sameid"})
    assert await mcp.js("document.title") == "Same"


async def test_cross_site_frame_by_url(mcp, site):
    await mcp.ok("page_navigate", {"url": frames_page(site, "-x")})
    selected = await mcp.ok("frame_select", {"name_or_url": "localhost"})  # URL substring
    assert selected["out_of_process"] is True and selected["url"].startswith("http://localhost:")
    assert await mcp.js("location.hostname") == "localhost"
    assert await mcp.js("document.title") == "Cross"
    await mcp.ok("frame_select_main")
    assert await mcp.js("location.hostname") == "127.0.0.1"

    globbed = await mcp.ok("frame_select", {"name_or_url": "http://localhost:*/frame/cross*"})
    assert globbed["out_of_process"] is True
    assert await mcp.js("document.title") == "Cross"
    by_id = await mcp.ok("frame_select", {"name_or_url": "crossid"})
    assert by_id["frame_id"] == globbed["frame_id"]
    # A navigation returns to the main frame.
    await mcp.ok("page_navigate", {"url": site.url("/frame/top-x")})
    assert await mcp.js("document.title") == "Top"


async def test_element_tools_act_inside_the_selected_frame(mcp, site):
    await mcp.ok("page_navigate", {"url": frames_page(site, "-e")})
    assert (await mcp.ok("element_get_text", {"selector": "#b"}))["text"] == "Top button"
    for wanted, host in (("samename", "127.0.0.1"), ("crossid", "localhost")):
        await mcp.ok("frame_select", {"name_or_url": wanted})
        text = (await mcp.ok("element_get_text", {"selector": "#b"}))["text"]
        assert text.startswith("Inner ")
        await mcp.ok("element_click", {"selector": "#b"})  # a real mouse click, routed by coordinates
        assert await mcp.js("document.title") == f"clicked {host}:{site.port}"
    await mcp.ok("frame_select_main")
    assert (await mcp.ok("element_get_text", {"selector": "#b"}))["text"] == "Top button"
    assert await mcp.js("document.title") == "Top"


async def test_frame_not_found_lists_the_frames(mcp, site):
    await mcp.ok("page_navigate", {"url": frames_page(site, "-nf")})
    await mcp.ok("frame_select", {"name_or_url": "crossid"})  # both frames are up
    err = await mcp.fail("frame_select", {"name_or_url": "nothing-like-this", "timeout_ms": 200})
    assert err["code"] == "not_found"
    assert "samename" in err["message"] and "/frame/cross-nf" in err["message"]
    assert "out-of-process" in err["message"]
    err = await mcp.fail("frame_select", {"name_or_url": ""})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "name_or_url"


async def test_frame_select_waits_for_a_late_iframe(mcp, site):
    site.route("/frame/late-inner", "<title>Late</title>")
    await mcp.ok("page_navigate", {"url": site.route("/frame/late", """<title>Late top</title><script>
        setTimeout(() => { const f = document.createElement('iframe'); f.name = 'late';
                           f.src = '/frame/late-inner'; document.body.append(f); }, 300);</script>""")})
    await mcp.ok("frame_select", {"name_or_url": "late", "timeout_ms": 30000})
    assert await mcp.js("document.title") == "Late"


async def test_frame_select_waits_for_the_frame_s_own_document(mcp, site):
    """A frame's document exists, empty, from the moment it commits until the parser reaches its
    content: selecting the frame waits until its document is parsed (here a script the parser
    waits for, answered half a second late, stands before the title)."""
    parsing = threading.Event()

    def slow_script(request: object) -> Response:
        parsing.set()  # the frame's document has committed and its parser waits for this
        return Response("document.body;", content_type="application/javascript", delay=0.5)

    site.route("/frame/slow.js", slow_script)
    site.route("/frame/slow-inner", '<script src="/frame/slow.js"></script><title>Slow</title><p>Inside')
    await mcp.ok("page_navigate", {"url": site.route("/frame/slow", """<title>Slow top</title><script>
        addEventListener('load', () => { const f = document.createElement('iframe'); f.name = 'slow';
                                          f.src = '/frame/slow-inner'; document.body.append(f); });</script>""")})
    assert await trio.to_thread.run_sync(parsing.wait, 30)
    await mcp.ok("frame_select", {"name_or_url": "slow", "timeout_ms": 30000})
    assert await mcp.js("document.title") == "Slow"


async def _title_becomes(session: ToolSession, expected: str) -> None:
    with trio.fail_after(30):
        while await locate.evaluate(session, "document.title") != expected:
            await trio.sleep(0.02)


@asynccontextmanager
async def direct_session(chromium, tmp_path) -> AsyncIterator[ToolSession]:
    """A ToolSession without the MCP layer, to drive ``locate`` the way element tools do."""
    catalog.load()
    config = ServerConfig(browser_url=chromium.ws_url, isolated=True, output_dir=tmp_path)
    async with trio.open_nursery() as nursery:
        session = ToolSession(config, nursery)
        try:
            yield session
        finally:
            await session.quit()
            nursery.cancel_scope.cancel()


async def test_locate_and_real_clicks_land_inside_frames(chromium, site, tmp_path):
    """The element layer (locate.actionable + a real mouse click) honours the selected frame,
    including the offset of an out-of-process iframe."""
    async with direct_session(chromium, tmp_path) as session:
        assert (await call(session, "page_navigate", {"url": frames_page(site, "-c")})).ok
        for wanted, host in (("samename", "127.0.0.1"), ("crossid", "localhost")):
            outcome = await call(session, "frame_select", {"name_or_url": wanted})
            assert outcome.ok, outcome.data
            button = await locate.actionable(session, "#b", 5000)
            assert "Inner" in await button.call("function() { return this.textContent; }")
            await button.click()
            await _title_becomes(session, f"clicked {host}:{site.port}")
        assert (await call(session, "frame_select_main", {})).ok
        top = await locate.actionable(session, "#b", 5000)
        assert (await top.call("function() { return this.textContent; }")) == "Top button"
        assert await locate.evaluate(session, "document.title") == "Top"


async def test_click_in_a_cross_site_frame_below_the_fold(chromium, site, tmp_path):
    """Scrolling the button into view inside the OOPIF scrolls the top page too; the click
    must use the iframe's position after that scroll, not the one at frame_select."""
    site.route("/frame/far-inner", INNER.format(title="Far", margin=15))
    url = site.route("/frame/far", f"""<title>Far</title><div style="height:1500px"></div>
        <iframe id=far src="{site.cross_site_url('/frame/far-inner')}"></iframe>
        <div style="height:1500px"></div>""")
    async with direct_session(chromium, tmp_path) as session:
        assert (await call(session, "page_navigate", {"url": url})).ok
        assert (await call(session, "frame_select", {"name_or_url": "far"})).data["out_of_process"]
        button = await locate.actionable(session, "#b", 5000)
        tab = await session.tab()
        assert await tab.page.evaluate("scrollY") > 0  # the top page did scroll
        await button.click()
        await _title_becomes(session, f"clicked localhost:{site.port}")
