"""dialog_: a real click opens prompt/confirm/alert dialogs; they are reported and answered."""

from __future__ import annotations

PAGE = """<title>Dialogs</title>
<button id=ask style="position:absolute; left:10px; top:10px; width:100px; height:40px"
  onclick="document.getElementById('out').textContent = 'name=' + prompt('Your name?', 'Anon')">Ask</button>
<button id=sure style="position:absolute; left:10px; top:60px; width:100px; height:40px"
  onclick="document.getElementById('out').textContent = 'sure=' + confirm('Delete it?')">Delete</button>
<p id=out></p>"""


async def _center(mcp, selector):
    return await mcp.js(f"(() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect();"
                        " return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()")


async def test_prompt_opened_by_click_is_reported_and_answered(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/dialog/page", PAGE)})
    assert await mcp.ok("dialog_get") == {"has_dialog": False, "dialog_type": None, "message": "", "default_value": ""}
    clicked = await mcp.ok("input_mouse_click", await _center(mcp, "#ask"))  # must not hang on the prompt
    assert "opened a prompt dialog ('Your name?')" in clicked["message"]
    info = await mcp.ok("dialog_get")
    assert info == {"has_dialog": True, "dialog_type": "prompt", "message": "Your name?", "default_value": "Anon"}
    blocked = await mcp.fail("js_evaluate", {"script": "1"})
    assert blocked["code"] == "dialog_open" and "dialog_handle" in blocked["message"]
    handled = await mcp.ok("dialog_handle", {"action": "accept", "prompt_text": "Ada"})
    assert handled == {"message": "accepted the prompt ('Your name?') with 'Ada'", "dialog_type": "prompt"}
    assert await mcp.js("document.getElementById('out').textContent") == "name=Ada"
    assert (await mcp.ok("dialog_get"))["has_dialog"] is False


async def test_confirm_dismissed_and_prompt_default(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/dialog/confirm", PAGE)})
    await mcp.ok("input_mouse_click", await _center(mcp, "#sure"))
    assert (await mcp.ok("dialog_get"))["dialog_type"] == "confirm"
    err = await mcp.fail("dialog_handle", {"action": "accept", "prompt_text": "x"})
    assert err["code"] == "invalid_arguments"
    await mcp.ok("dialog_handle", {"action": "dismiss"})
    assert await mcp.js("document.getElementById('out').textContent") == "sure=false"
    await mcp.ok("input_mouse_click", await _center(mcp, "#ask"))
    await mcp.ok("dialog_handle", {"action": "accept"})
    assert await mcp.js("document.getElementById('out').textContent") == "name=Anon"
    await mcp.ok("input_mouse_click", await _center(mcp, "#ask"))
    await mcp.ok("dialog_handle", {"action": "dismiss"})
    assert await mcp.js("document.getElementById('out').textContent") == "name=null"


async def test_alert_from_timer_and_errors(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/dialog/alert", PAGE)})
    err = await mcp.fail("dialog_handle", {"action": "accept"})
    assert err["code"] == "not_found" and "no dialog is open" in err["message"]
    err = await mcp.fail("dialog_handle", {"action": "maybe"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "action"
    await mcp.js("setTimeout(() => { alert('Saved!'); document.title = 'after alert'; }, 20); 0")
    info = await _dialog_soon(mcp)
    assert info["dialog_type"] == "alert" and info["message"] == "Saved!"
    await mcp.ok("dialog_handle", {"action": "accept"})
    assert await mcp.js("document.title") == "after alert"


async def _dialog_soon(mcp):
    """dialog_get until the timer's dialog is open. It opens about 20 ms later on a quiet
    machine; the wait is bounded by time, not by a count of calls: on a loaded one, 200 quick
    calls once ran out before the page's timer fired."""
    import trio

    with trio.move_on_after(10):
        while True:
            info = await mcp.ok("dialog_get")
            if info["has_dialog"]:
                return info
            await trio.sleep(0.01)
    raise AssertionError("no dialog opened within 10 s")


async def test_navigate_to_a_page_that_alerts_on_load_reports_the_dialog(mcp, site):
    """#17 item 6: page_navigate says dialog_open at once instead of waiting out its timeout,
    and after dialog_handle the next navigation works."""
    import trio

    alerting = site.route("/dialog/onload", "<title>Alerts</title><script>alert('welcome')</script><p>body</p>")
    with trio.fail_after(10):
        err = await mcp.fail("page_navigate", {"url": alerting})
    assert err["code"] == "dialog_open" and "welcome" in err["message"]
    await mcp.ok("dialog_handle", {"action": "accept"})
    plain = site.route("/dialog/after", "<title>After</title>")
    assert (await mcp.ok("page_navigate", {"url": plain}))["title"] == "After"


async def test_navigate_away_from_a_beforeunload_page_reports_the_dialog(mcp, site):
    import trio

    guarded = site.route("/dialog/guarded", """<title>Guarded</title>
        <script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; });</script>""")
    await mcp.ok("page_navigate", {"url": guarded})
    await mcp.js("document.title = 'touched'")  # a user gesture, so beforeunload may prompt
    elsewhere = site.route("/dialog/elsewhere", "<title>Elsewhere</title>")
    with trio.fail_after(10):
        err = await mcp.fail("page_navigate", {"url": elsewhere})
    assert err["code"] == "dialog_open" and "beforeunload" in err["message"]
    await mcp.ok("dialog_handle", {"action": "accept"})
    assert (await mcp.ok("page_navigate", {"url": elsewhere}))["title"] == "Elsewhere"
