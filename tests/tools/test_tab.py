"""tab_ tools through the MCP layer: listing (popups included), selecting, closing."""

from __future__ import annotations

import trio


async def wait_for_tab_count(mcp, count: int) -> dict:
    """Popups open asynchronously after the click that opens them: poll tab_list briefly."""
    with trio.fail_after(10):
        while True:
            listing = await mcp.ok("tab_list")
            if listing["count"] == count:
                return listing
            await trio.sleep(0.05)


async def test_list_select_close(mcp, site):
    first = site.route("/tab/one", "<title>One</title>")
    second = site.route("/tab/two", "<title>Two</title>")
    await mcp.ok("page_navigate", {"url": first})
    listing = await mcp.ok("tab_list")
    assert listing["count"] == 1 and listing["current_tab"] == 0
    assert listing["tabs"][0]["url"] == first and listing["tabs"][0]["title"] == "One"
    first_id = listing["tabs"][0]["id"]

    await mcp.ok("page_new", {"url": second})
    listing = await mcp.ok("tab_list")
    assert [t["title"] for t in listing["tabs"]] == ["One", "Two"] and listing["current_tab"] == 1
    assert [t["index"] for t in listing["tabs"]] == [0, 1]

    chosen = await mcp.ok("tab_select", {"index": 0})
    assert chosen["tab"] == listing["tabs"][0]
    assert (await mcp.ok("page_get_title"))["title"] == "One"
    assert await mcp.js("document.visibilityState") == "visible"
    assert (await mcp.ok("tab_list"))["current_tab"] == 0

    by_id = await mcp.ok("tab_select", {"id": listing["tabs"][1]["id"]})
    assert by_id["tab"]["index"] == 1
    assert (await mcp.ok("page_get_title"))["title"] == "Two"

    closed = await mcp.ok("tab_close", {"id": first_id})
    assert closed["count"] == 1 and closed["current_tab"] == 0
    assert (await mcp.ok("page_get_title"))["title"] == "Two"
    remaining = await mcp.ok("tab_list")
    assert remaining["tabs"][0]["url"] == second and remaining["tabs"][0]["index"] == 0


async def test_close_defaults_to_the_current_tab(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/tab/a", "<title>A</title>")})
    await mcp.ok("page_new", {"url": site.route("/tab/b", "<title>B</title>")})
    await mcp.ok("page_new", {"url": site.route("/tab/c", "<title>C</title>")})
    await mcp.ok("tab_select", {"index": 1})
    closed = await mcp.ok("tab_close")
    assert closed["count"] == 2
    titles = [t["title"] for t in (await mcp.ok("tab_list"))["tabs"]]
    assert titles == ["A", "C"]
    assert (await mcp.ok("page_get_title"))["title"] == titles[closed["current_tab"]]


async def test_popups_show_up_and_can_be_selected(mcp, site):
    popup = site.route("/tab/popup", "<title>Popup</title><p>opened</p>")
    blank = site.route("/tab/blank", "<title>Blank target</title>")
    opener = site.route("/tab/opener", f"""<title>Opener</title>
        <a id=link href="{blank}" target="_blank">new tab</a>
        <button id=open onclick="window.open('{popup}', 'pop')">open</button>""")
    await mcp.ok("page_navigate", {"url": opener})

    await mcp.js("document.querySelector('#open').click()")
    listing = await wait_for_tab_count(mcp, 2)
    assert listing["current_tab"] == 0  # opening a popup does not switch tabs by itself
    await mcp.js("document.querySelector('#link').click()")  # target=_blank, noopener by default
    listing = await wait_for_tab_count(mcp, 3)

    with trio.fail_after(10):  # the popups load on their own
        while {t["title"] for t in listing["tabs"]} != {"Opener", "Popup", "Blank target"}:
            await trio.sleep(0.05)
            listing = await mcp.ok("tab_list")
    index = next(t["index"] for t in listing["tabs"] if t["title"] == "Popup")
    await mcp.ok("tab_select", {"index": index})
    assert await mcp.js("document.querySelector('p').textContent") == "opened"
    assert (await mcp.ok("page_get_url"))["url"] == popup

    # A tab the page closes itself disappears from the list.
    await mcp.js("setTimeout(() => window.close(), 0)")
    listing = await wait_for_tab_count(mcp, 2)
    assert "Popup" not in {t["title"] for t in listing["tabs"]}
    assert 0 <= listing["current_tab"] < 2
    assert (await mcp.ok("page_get_count"))["count"] == 2


async def test_bad_tab_references(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/tab/only", "<title>Only</title>")})
    err = await mcp.fail("tab_select", {"index": 5})
    assert err["code"] == "not_found" and "tab_list" in err["message"]
    err = await mcp.fail("tab_select", {"id": "no-such-tab"})
    assert err["code"] == "not_found"
    err = await mcp.fail("tab_select", {})
    assert err["code"] == "invalid_arguments" and "index or id" in err["message"]
    err = await mcp.fail("tab_select", {"index": 0, "id": "x"})
    assert err["code"] == "invalid_arguments"
    err = await mcp.fail("tab_select", {"index": -1})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "index"
    err = await mcp.fail("tab_close", {"index": 3})
    assert err["code"] == "not_found"
    assert (await mcp.ok("tab_list"))["count"] == 1


async def test_a_popup_is_set_up_before_its_first_document_runs(mcp, site):
    # The popup's first inline script reads what an init script set and fetches a URL only a
    # route answers: both hold from its first line because the popup waits, paused, until
    # its whole set-up has been sent.
    popup = site.route("/tab/first-document", """<title>First</title><script>
        document.title = 'flag:' + window.__popupFlag;
        fetch('/tab/only-routed').then((r) => r.text()).then((t) => { document.body.dataset.fetched = t; });
        </script>""")
    opener = site.route("/tab/first-opener", f"""<title>Opener</title>
        <button id=open onclick="window.open('{popup}')">open</button>""")
    await mcp.ok("js_init_script", {"script": "window.__popupFlag = 'from-init-script'"})
    await mcp.ok("network_route", {"pattern": "*/tab/only-routed", "body": "from-route", "content_type": "text/plain"})
    await mcp.ok("page_navigate", {"url": opener})
    await mcp.ok("element_click", {"selector": "#open"})
    listing = await wait_for_tab_count(mcp, 2)
    index = next(t["index"] for t in listing["tabs"] if t["index"] != listing["current_tab"])
    await mcp.ok("tab_select", {"index": index})
    await mcp.ok("wait_for_function", {"function": "() => document.body?.dataset.fetched === 'from-route'", "timeout_ms": 30000})
    assert (await mcp.ok("page_get_title"))["title"] == "flag:from-init-script"
    assert (await mcp.ok("page_get_url"))["url"] == popup
    assert not any(r.path == "/tab/only-routed" for r in site.log)  # answered by the route, never fetched
