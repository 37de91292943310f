"""element_ getters and is_* checkers through the MCP layer against real Chromium."""

from __future__ import annotations

import time


async def load(mcp, site, path: str, body: str) -> None:
    await mcp.ok("page_navigate", {"url": site.route(f"/el-state/{path}", "<!doctype html><meta charset=utf-8>" + body)})


TEXT_PAGE = """
<body style="margin:0">
<div id=card data-id="42" aria-expanded="false">
  <h2 id=title>  Hello   <em>world</em>  </h2>
  <p id=para>Line one<br>Line two<span style="display:none"> secret</span></p>
</div>
<input id=field value="initial">
<textarea id=area>text area</textarea>
<select id=pick><option value=a>A</option><option value=b selected>B</option></select>
<div id=ce contenteditable>editable words</div>
<div id=box style="position:absolute;left:30px;top:40px;width:120px;height:60px"></div>
</body>
"""


async def test_text_and_html_getters(mcp, site):
    await load(mcp, site, "text", TEXT_PAGE)
    assert (await mcp.ok("element_get_text", {"selector": "#title"}))["text"] == "Hello world"
    assert (await mcp.ok("element_get_text", {"selector": "#para"}))["text"] == "Line one\nLine two"
    inner = (await mcp.ok("element_get_inner_text", {"selector": "#para"}))["text"]
    assert inner == "Line one\nLine two" and "secret" not in inner
    assert (await mcp.ok("element_get_inner_html", {"selector": "#title"}))["html"] == "  Hello   <em>world</em>  "
    outer = (await mcp.ok("element_get_outer_html", {"selector": "#title"}))["html"]
    assert outer == '<h2 id="title">  Hello   <em>world</em>  </h2>'


async def test_value_attribute_and_box(mcp, site):
    await load(mcp, site, "value", TEXT_PAGE)
    assert (await mcp.ok("element_get_value", {"selector": "#field"}))["value"] == "initial"
    await mcp.ok("element_fill", {"selector": "#field", "value": "typed by the tool"})
    assert (await mcp.ok("element_get_value", {"selector": "#field"}))["value"] == "typed by the tool"
    assert (await mcp.ok("element_get_value", {"selector": "#area"}))["value"] == "text area"
    assert (await mcp.ok("element_get_value", {"selector": "#pick"}))["value"] == "b"
    assert (await mcp.ok("element_get_value", {"selector": "#ce"}))["value"] == "editable words"
    err = await mcp.fail("element_get_value", {"selector": "#title"})
    assert err["code"] == "invalid_arguments" and "element_get_text" in err["message"]
    data = await mcp.ok("element_get_attribute", {"selector": "#card", "name": "data-id"})
    assert data == {"name": "data-id", "value": "42"}
    assert (await mcp.ok("element_get_attribute", {"selector": "#card", "name": "aria-expanded"}))["value"] == "false"
    assert (await mcp.ok("element_get_attribute", {"selector": "#card", "name": "href"}))["value"] is None
    err = await mcp.fail("element_get_attribute", {"selector": "#card"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "name"
    box = await mcp.ok("element_get_bounding_box", {"selector": "#box"})
    assert box == {"x": 30, "y": 40, "width": 120, "height": 60}


async def test_getters_wait_then_fail_with_element_not_found(mcp, site):
    await load(mcp, site, "late", "<script>setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<b id=late>arrived</b>'), 200)</script>")
    assert (await mcp.ok("element_get_text", {"selector": "#late"}))["text"] == "arrived"
    err = await mcp.fail("element_get_text", {"selector": "#never", "timeout_ms": 150})
    assert err["code"] == "element_not_found" and "'#never'" in err["message"]


async def test_role_and_label_come_from_the_accessibility_tree(mcp, site):
    await load(mcp, site, "roles", """
        <button id=b>Save</button>
        <a id=l href="/x">Docs</a>
        <div id=d>plain</div>
        <div id=t role=tab aria-label="Settings tab">⚙</div>
        <label for=e>Email address</label><input id=e type=email>
        <span id=cap>Search terms</span><input id=s type=search aria-labelledby=cap>
        <input id=c type=checkbox title="Accept terms">
        <h3 id=h>Section</h3>
        <img id=i alt="Company logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
        <button id=hidden aria-hidden=true>Hidden</button>""")
    roles = {}
    for element in ("b", "l", "d", "t", "e", "s", "c", "h", "i"):
        roles[element] = (await mcp.ok("element_get_role", {"selector": f"#{element}"}))["role"]
    assert roles == {"b": "button", "l": "link", "d": "generic", "t": "tab", "e": "textbox", "s": "searchbox",
                     "c": "checkbox", "h": "heading", "i": "image"}
    assert (await mcp.ok("element_get_role", {"selector": "#hidden"}))["ignored"] is True
    labels = {}
    for element in ("b", "l", "t", "e", "s", "c", "i"):
        labels[element] = (await mcp.ok("element_get_label", {"selector": f"#{element}"}))["label"]
    assert labels == {"b": "Save", "l": "Docs", "t": "Settings tab", "e": "Email address", "s": "Search terms",
                      "c": "Accept terms", "i": "Company logo"}


async def test_is_visible_and_is_hidden_answer_at_once_even_for_missing_elements(mcp, site):
    await load(mcp, site, "visible", """
        <p id=shown>here</p><p id=none style="display:none">x</p><p id=invis style="visibility:hidden">x</p>
        <p id=empty style="width:0;height:0;overflow:hidden"></p>
        <p class=many style="display:none">a</p><p class=many>b</p>""")
    expected = {"#shown": True, "#none": False, "#invis": False, "#empty": False, "#absent": False, ".many": True}
    for selector, visible in expected.items():
        started = time.monotonic()
        probe = {"selector": selector, "timeout_ms": 60_000}
        assert (await mcp.ok("element_is_visible", probe))["visible"] is visible, selector
        assert (await mcp.ok("element_is_hidden", probe))["hidden"] is not visible
        assert time.monotonic() - started < 30, f"{selector} waited for its timeout"
    err = await mcp.fail("element_is_visible", {"selector": "p[["})
    assert err["code"] == "invalid_arguments"


async def test_is_enabled_checked_editable(mcp, site):
    await load(mcp, site, "states", """
        <button id=on>on</button><button id=off disabled>off</button>
        <fieldset disabled><input id=inset><legend><input id=inlegend></legend></fieldset>
        <div role=button id=aria aria-disabled=true>aria</div>
        <input type=checkbox id=cb checked><input type=radio id=r><div role=switch id=sw aria-checked=true></div>
        <label for=cb id=cblabel>label</label><p id=para>text</p>
        <input id=text><input id=ro readonly><textarea id=ta disabled></textarea><div id=ce contenteditable>x</div>""")
    enabled = {s: (await mcp.ok("element_is_enabled", {"selector": f"#{s}"}))["enabled"]
               for s in ("on", "off", "inset", "aria", "para")}
    assert enabled == {"on": True, "off": False, "inset": False, "aria": False, "para": True}
    checked = {s: (await mcp.ok("element_is_checked", {"selector": f"#{s}"}))["checked"] for s in ("cb", "r", "sw", "cblabel")}
    assert checked == {"cb": True, "r": False, "sw": True, "cblabel": True}
    await mcp.ok("element_uncheck", {"selector": "#cb"})
    assert (await mcp.ok("element_is_checked", {"selector": "#cb"}))["checked"] is False
    err = await mcp.fail("element_is_checked", {"selector": "#para"})
    assert err["code"] == "invalid_arguments" and "not a checkbox" in err["message"]
    editable = {s: (await mcp.ok("element_is_editable", {"selector": f"#{s}"}))["editable"]
                for s in ("text", "ro", "ta", "ce", "cb", "on", "para")}
    assert editable == {"text": True, "ro": False, "ta": False, "ce": True, "cb": False, "on": False, "para": False}
    err = await mcp.fail("element_is_enabled", {"selector": "#nothing", "timeout_ms": 100})
    assert err["code"] == "element_not_found"


async def test_state_tools_pierce_shadow_roots(mcp, site):
    await load(mcp, site, "shadow", """
        <div id=host></div>
        <script>host.attachShadow({mode: 'open'}).innerHTML = '<label>Name <input id=inner value=deep></label>';</script>""")
    assert (await mcp.ok("element_get_value", {"selector": "#host >>> #inner"}))["value"] == "deep"
    assert (await mcp.ok("element_get_label", {"selector": "#host >>> #inner"}))["label"] == "Name"
    assert (await mcp.ok("element_is_visible", {"selector": "#host >>> #inner"}))["visible"] is True
    await mcp.ok("element_fill", {"selector": "#host >>> #inner", "value": "shallow"})
    assert await mcp.js("host.shadowRoot.querySelector('input').value") == "shallow"


async def test_frames_boxes_are_in_top_page_coordinates(mcp, site):
    inner = site.route("/el-state/frame-inner", """<body style="margin:0">
        <input id=city style="position:absolute;left:50px;top:20px;width:100px;height:30px;border:0;padding:0">
        <label for=city style="position:absolute;left:0;top:20px">City</label>
        <button id=go style="position:absolute;left:200px;top:20px" onclick="window.went = (window.went || 0) + 1">Go</button>""")
    cross = site.cross_site_url("/el-state/frame-inner")
    await load(mcp, site, "frames", f"""<body style="margin:0"><div style="height:100px"></div>
        <iframe id=same src="{inner}" style="border:0;margin-left:200px;width:400px;height:120px"></iframe><br>
        <iframe id=cross src="{cross}" style="border:0;margin-left:40px;width:400px;height:120px"></iframe>""")
    # same-origin iframe reached with >>>: box and clicks both in top-page coordinates
    await mcp.ok("element_click", {"selector": "#same >>> #go"})
    assert await mcp.js("document.getElementById('same').contentWindow.went") == 1
    box = await mcp.ok("element_get_bounding_box", {"selector": "#same >>> #city"})
    frame = await mcp.ok("element_get_bounding_box", {"selector": "#same"})
    assert frame == {"x": 200, "y": 100, "width": 400, "height": 120}
    assert box == {"x": 250, "y": 120, "width": 100, "height": 30}
    # out-of-process iframe chosen with frame_select
    await mcp.ok("frame_select", {"name_or_url": "cross"})
    await mcp.ok("element_fill", {"label": "City", "value": "Lyon"})
    assert (await mcp.ok("element_get_value", {"selector": "#city"}))["value"] == "Lyon"
    assert (await mcp.ok("element_get_role", {"selector": "#city"}))["role"] == "textbox"
    assert (await mcp.ok("element_get_label", {"selector": "#city"}))["label"] == "City"
    await mcp.ok("element_click", {"role": "button", "name": "Go"})
    assert await mcp.js("window.went") == 1
    inner_box = await mcp.ok("element_get_bounding_box", {"selector": "#city"})
    await mcp.ok("frame_select_main")
    cross_frame = await mcp.ok("element_get_bounding_box", {"selector": "#cross"})
    assert inner_box == {"x": cross_frame["x"] + 50, "y": cross_frame["y"] + 20, "width": 100, "height": 30}
