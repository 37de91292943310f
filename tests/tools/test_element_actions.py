"""element_ actions through the MCP layer against real Chromium: each test asserts the effect on the page."""

from __future__ import annotations

import struct
import time
import zlib
from pathlib import Path

import trio

import tools.downloads
from tests.support.site import Response

RECORDER = """
<script>
window.log = [];
const rec = (e) => log.push(e.type + ':' + (e.target.id || e.target.localName) + ':' + e.isTrusted);
</script>
"""


async def load(mcp, site, path: str, body: str) -> None:
    await mcp.ok("page_navigate", {"url": site.route(f"/el-actions/{path}", "<!doctype html><meta charset=utf-8>" + body)})


async def tool_names(mcp) -> set[str]:
    return {t.name for t in (await mcp.client.list_tools()).tools}


# -- clicks ---------------------------------------------------------------------------------


async def test_click_is_real_input_with_events_in_order(mcp, site):
    await load(mcp, site, "click", RECORDER + """
        <button id=b style="position:absolute;left:100px;top:50px;width:100px;height:40px">Go</button>
        <script>
        for (const t of ['pointerdown', 'mousedown', 'focus', 'pointerup', 'mouseup', 'click', 'contextmenu', 'dblclick'])
          b.addEventListener(t, rec);
        b.addEventListener('click', (e) => { window.at = [e.clientX, e.clientY]; });
        </script>""")
    data = await mcp.ok("element_click", {"selector": "#b"})
    assert "clicked" in data["message"]
    assert await mcp.js("log") == ["pointerdown:b:true", "mousedown:b:true", "focus:b:true",
                                   "pointerup:b:true", "mouseup:b:true", "click:b:true"]
    assert await mcp.js("at") == [150, 70]
    await mcp.js("log.length = 0")
    await mcp.ok("element_click", {"selector": "#b", "button": "right"})
    assert "contextmenu:b:true" in await mcp.js("log")
    await mcp.js("log.length = 0")
    await mcp.ok("element_double_click", {"selector": "#b"})
    events = await mcp.js("log")
    assert events.count("click:b:true") == 2 and events[-1] == "dblclick:b:true"


SEMANTIC_PAGE = """
<script>window.hits = []; document.addEventListener('click', (e) => hits.push(e.composedPath()[0].closest('[id]').id));</script>
<button id=save>Save draft</button>
<button id=send aria-label="Send message">➤</button>
<a id=docs href="#docs">Documentation</a>
<p id=para>Plain words here</p>
<label for=email>Email address</label><input id=email>
<input id=search placeholder="Search the site">
<div id=tid data-testid="card-7">card</div>
<img id=logo alt="Company logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width=20 height=20>
<span id=tip title="More information">?</span>
<div id=host></div>
<script>
const root = host.attachShadow({mode: 'open'});
root.innerHTML = '<button id=inner>Shadow button</button>';
</script>
"""


async def test_semantic_locators_find_the_right_element(mcp, site):
    await load(mcp, site, "semantic", SEMANTIC_PAGE)
    cases = [
        ({"role": "button", "name": "Save draft"}, "save"),
        ({"role": "button", "name": "send message"}, "send"),
        ({"role": "link", "name": "Documentation"}, "docs"),
        ({"text": "Plain words here"}, "para"),
        ({"label": "Email address"}, "email"),
        ({"placeholder": "Search the site"}, "search"),
        ({"testid": "card-7"}, "tid"),
        ({"alt": "Company logo"}, "logo"),
        ({"title": "More information"}, "tip"),
        ({"xpath": "//p[@id='para']"}, "para"),
        ({"selector": "#host >>> #inner"}, "inner"),
        ({"role": "button", "name": "Shadow button"}, "inner"),
    ]
    for locator, expected in cases:
        await mcp.js("hits.length = 0")
        await mcp.ok("element_click", locator)
        assert await mcp.js("hits") == [expected], locator


async def test_covered_element_is_reported_with_its_cover(mcp, site):
    await load(mcp, site, "covered", """
        <button id=b style="position:absolute;left:10px;top:10px">Under</button>
        <div id=overlay style="position:fixed;inset:0;background:rgba(0,0,0,.3)"></div>""")
    err = await mcp.fail("element_click", {"selector": "#b", "timeout_ms": 300})
    assert err["code"] == "timeout"
    assert "covered by div#overlay" in err["message"] and "#b" in err["message"]


async def test_disabled_button_click_times_out_saying_disabled(mcp, site):
    await load(mcp, site, "disabled", "<button id=b disabled onclick='window.clicked=1'>No</button>")
    err = await mcp.fail("element_click", {"selector": "#b", "timeout_ms": 300})
    assert err["code"] == "timeout"
    assert "disabled" in err["message"]
    assert await mcp.js("window.clicked === undefined")


async def test_click_waits_for_a_late_element_and_a_link_in_a_disabled_fieldset_is_clickable(mcp, site):
    await load(mcp, site, "late", """
        <fieldset disabled><a id=link href="#ok" onclick="window.linked = 1">link</a></fieldset>
        <script>setTimeout(() => { document.body.insertAdjacentHTML('beforeend',
          '<button id=late onclick="window.late = 1">late</button>'); }, 200);</script>""")
    await mcp.ok("element_click", {"selector": "#late"})
    await mcp.ok("element_click", {"selector": "#link", "timeout_ms": 30000})
    assert await mcp.js("[window.late, window.linked]") == [1, 1]


async def test_click_waits_for_a_moving_element_and_follows_navigation(mcp, site):
    second = site.route("/el-actions/second", "<title>Second</title><h1 id=h>Arrived</h1>")
    await load(mcp, site, "moving", f"""
        <style>#m {{ position:absolute; left:0; top:40px; transition: left 300ms linear; }}</style>
        <a id=m href="{second}">moving link</a><p id=gone style="display:none">hidden</p>
        <script>requestAnimationFrame(() => requestAnimationFrame(() => {{ m.style.left = '300px'; }}));</script>""")
    err = await mcp.fail("element_click", {"selector": "#gone", "timeout_ms": 200})
    assert err["code"] == "timeout" and "not visible" in err["message"]
    await mcp.ok("element_click", {"selector": "#m"})
    assert (await mcp.ok("element_get_text", {"selector": "#h"}))["text"] == "Arrived"
    assert await mcp.js("document.title") == "Second"


async def test_a_click_that_navigates_returns_once_the_new_page_is_parsed(mcp, site, monkeypatch):
    # The new page commits at once but parses only after a slow parser-blocking script: the
    # click must not hand the agent an empty document (a snapshot would see none of it).
    site.route("/el-actions/slow.js", Response("window.slow = 1;", content_type="text/javascript", delay=0.4))
    parsed = site.route("/el-actions/parsed", "<!doctype html><title>Parsed</title>"
                                              "<script src=/el-actions/slow.js></script><p id=end>end</p>")
    await load(mcp, site, "to-parsed", f"<a id=go href='{parsed}'>go</a>")
    await mcp.ok("element_click", {"selector": "#go"})
    state = await mcp.js("[document.title, document.readyState !== 'loading', !!document.getElementById('end'), window.slow]")
    assert state == ["Parsed", True, True, 1]
    # A click that navigates nowhere does not wait for any document. The window a navigation
    # has to show is made a minute long, so a click that waited in it cannot pass for quick.
    monkeypatch.setattr(tools.downloads, "START_WAIT", 60.0)
    await mcp.js("document.body.insertAdjacentHTML('beforeend', '<button id=b>b</button>'); 0")
    started = time.perf_counter()
    await mcp.ok("element_click", {"selector": "#b"})
    assert time.perf_counter() - started < 30


async def test_a_script_driven_mover_is_not_clicked_until_it_stops(mcp, site):
    # No CSS animation: a script moves the button every frame until told to stop.
    await load(mcp, site, "js-mover", """
        <button id=b style="position:absolute;left:0;top:40px" onclick="window.hits=(window.hits||0)+1">go</button>
        <script>let frames = 0, stopAt = Infinity; (function step() {
          if (performance.now() < stopAt) { b.style.left = (++frames % 2 ? 200 : 0) + 'px'; requestAnimationFrame(step); }
        })();</script>""")
    err = await mcp.fail("element_click", {"selector": "#b", "timeout_ms": 100})
    assert err["code"] == "timeout" and "still moving" in err["message"]
    assert await mcp.js("window.hits") is None
    await mcp.js("stopAt = performance.now() + 300; 0")
    await mcp.ok("element_click", {"selector": "#b", "timeout_ms": 30000})
    assert await mcp.js("window.hits") == 1


async def test_missing_element_is_element_not_found_naming_selector_and_frame(mcp, site):
    await load(mcp, site, "missing", "<p>nothing to click</p>")
    err = await mcp.fail("element_click", {"selector": "#nope", "timeout_ms": 200})
    assert err["code"] == "element_not_found"
    assert "'#nope'" in err["message"] and "frame main" in err["message"] and "page_inspect" in err["message"]
    err = await mcp.fail("element_fill", {"label": "No such label", "value": "x", "timeout_ms": 200})
    assert err["code"] == "element_not_found" and "label 'No such label'" in err["message"]


async def test_invalid_arguments_name_the_field(mcp):
    err = await mcp.fail("element_double_click", {})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "selector"
    err = await mcp.fail("element_click", {"selector": "#a", "role": "button"})
    assert err["code"] == "invalid_arguments" and "got selector, role" in err["message"]
    err = await mcp.fail("element_click", {})
    assert err["code"] == "invalid_arguments" and "got none" in err["message"]
    err = await mcp.fail("element_click", {"selector": "#a", "colour": "red"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "colour"
    err = await mcp.fail("element_click", {"selector": "#a", "button": "fourth"})
    assert err["details"][0]["field"] == "button"
    err = await mcp.fail("element_press", {"selector": "#a", "key": "Hyper+Q"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "key"
    err = await mcp.fail("element_select", {"selector": "#a", "values": ["x"], "indexes": [1]})
    assert err["code"] == "invalid_arguments" and "values, indexes" in err["message"]
    err = await mcp.fail("element_type", {"selector": "#a"})
    assert err["details"][0]["field"] == "text"
    err = await mcp.fail("element_fill_form", {"fields": [{"selector": "#a"}]})
    assert err["details"][0]["field"] == "fields.0.value"
    err = await mcp.fail("element_click", {"selector": "#a", "timeout_ms": -1})
    assert err["details"][0]["field"] == "timeout_ms"


async def test_click_that_opens_an_alert_returns_and_leaves_the_dialog_open(mcp, site):
    await load(mcp, site, "alert", "<button id=b onclick=\"alert('hello there')\">Alert</button>")
    with trio.fail_after(20):
        data = await mcp.ok("element_click", {"selector": "#b"})
    assert "alert" in data["message"] and "dialog_handle" in data["message"]
    err = await mcp.fail("js_evaluate", {"script": "1"})
    assert err["code"] == "dialog_open" and "hello there" in err["message"]
    names = await tool_names(mcp)
    if "dialog_get" in names:
        assert (await mcp.ok("dialog_get"))["has_dialog"] is True
    if "dialog_handle" in names:
        await mcp.ok("dialog_handle", {"action": "accept"})
        assert await mcp.js("1 + 1") == 2


# -- keyboard and text ------------------------------------------------------------------------


async def test_type_appends_with_real_key_events(mcp, site):
    await load(mcp, site, "type", RECORDER + """
        <input id=t value="ab"><input id=mail type=email value="me@x"><div id=ce contenteditable>Hi</div>
        <script>for (const t of ['keydown', 'input', 'keyup']) document.getElementById('t').addEventListener(t, rec);</script>""")
    await mcp.ok("element_type", {"selector": "#t", "text": "cD!"})
    assert await mcp.js("document.getElementById('t').value") == "abcD!"
    log = await mcp.js("log")
    assert log[:3] == ["keydown:t:true", "input:t:true", "keyup:t:true"] and len(log) == 9
    await mcp.ok("element_type", {"selector": "#mail", "text": ".org"})
    assert await mcp.js("document.getElementById('mail').value") == "me@x.org"
    await mcp.ok("element_type", {"selector": "#ce", "text": " there"})
    assert await mcp.js("document.getElementById('ce').textContent") == "Hi there"


async def test_fill_replaces_value_and_fires_trusted_input_and_one_change(mcp, site):
    await load(mcp, site, "fill", RECORDER + """
        <input id=f value="old text" placeholder="Your name"><textarea id=ta>x</textarea>
        <div id=ce contenteditable><b>old</b> rich</div>
        <input id=d type=date><input id=n type=number><select id=s><option>a</select>
        <input id=ro readonly value=fixed>
        <script>
        for (const t of ['input', 'change']) for (const id of ['f', 'd', 'ce']) document.getElementById(id).addEventListener(t, rec);
        </script>""")
    data = await mcp.ok("element_fill", {"placeholder": "Your name", "value": "Ada Lovelace"})
    assert data["value"] == "Ada Lovelace"
    assert await mcp.js("document.getElementById('f').value") == "Ada Lovelace"
    assert await mcp.js("log") == ["input:f:true", "change:f:true"]
    assert await mcp.js("document.activeElement.id") == "f"
    await mcp.js("document.getElementById('f').blur()")
    assert await mcp.js("log.filter(e => e.startsWith('change')).length") == 1  # no second change on blur
    await mcp.ok("element_fill", {"selector": "#ta", "value": "line 1\nline 2"})
    assert await mcp.js("document.getElementById('ta').value") == "line 1\nline 2"
    await mcp.js("log.length = 0")
    await mcp.ok("element_fill", {"selector": "#ce", "value": "plain"})
    assert await mcp.js("document.getElementById('ce').textContent") == "plain"
    assert await mcp.js("log") == ["input:ce:true"]
    await mcp.js("log.length = 0")
    await mcp.ok("element_fill", {"selector": "#d", "value": "2024-02-29"})
    assert await mcp.js("document.getElementById('d').value") == "2024-02-29"
    assert await mcp.js("log") == ["input:d:false", "change:d:false"]
    err = await mcp.fail("element_fill", {"selector": "#d", "value": "tomorrow"})
    assert err["code"] == "invalid_arguments" and "date" in err["message"]
    await mcp.ok("element_fill", {"selector": "#n", "value": "42.5"})
    assert await mcp.js("document.getElementById('n').valueAsNumber") == 42.5
    err = await mcp.fail("element_fill", {"selector": "#n", "value": "forty"})
    assert err["code"] == "invalid_arguments" and "not a number" in err["message"]
    err = await mcp.fail("element_fill", {"selector": "#s", "value": "a"})
    assert err["code"] == "invalid_arguments" and "element_select" in err["message"]
    err = await mcp.fail("element_fill", {"selector": "#ro", "value": "x", "timeout_ms": 200})
    assert err["code"] == "timeout" and "not editable" in err["message"]


async def test_clear_and_fill_under_a_floating_label(mcp, site):
    await load(mcp, site, "clear", RECORDER + """
        <input id=c value=something><script>c.addEventListener('change', rec)</script>
        <div style="position:relative"><input id=under style="width:200px">
          <span style="position:absolute;left:0;top:0;width:200px;background:#fff">Floating label</span></div>""")
    await mcp.ok("element_clear", {"selector": "#c"})
    assert await mcp.js("document.getElementById('c').value") == ""
    assert await mcp.js("log") == ["change:c:true"]
    await mcp.ok("element_fill", {"selector": "#under", "value": "typed below the label", "timeout_ms": 30000})
    assert await mcp.js("under.value") == "typed below the label"


async def test_press_keys_and_combos(mcp, site):
    await load(mcp, site, "press", """
        <form id=form onsubmit="event.preventDefault(); window.submitted = document.getElementById('q').value">
          <input id=q value="hello world"></form>
        <div id=plain>not focusable</div>""")
    await mcp.ok("element_press", {"selector": "#q", "key": "Control+A"})
    await mcp.ok("element_press", {"selector": "#q", "key": "Backspace"})
    assert await mcp.js("document.getElementById('q').value") == ""
    await mcp.ok("element_type", {"selector": "#q", "text": "mcp"})
    await mcp.ok("element_press", {"selector": "#q", "key": "Shift+a"})  # Shift types capitals
    await mcp.ok("element_press", {"selector": "#q", "key": "Shift+1"})
    await mcp.ok("element_press", {"role": "textbox", "key": "Enter"})
    assert await mcp.js("window.submitted") == "mcpA!"
    data = await mcp.ok("element_press", {"selector": "#plain", "key": "PageDown"})
    assert "cannot take focus" in data["message"]


# -- checkboxes, selects, files ----------------------------------------------------------------


CHECK_PAGE = """
<input type=checkbox id=cb>
<input type=radio name=r id=r1 value=one><input type=radio name=r id=r2 value=two>
<div id=sw role=switch aria-checked=false tabindex=0 style="width:40px;height:20px;background:#ccc"
     onclick="this.setAttribute('aria-checked', this.getAttribute('aria-checked') === 'true' ? 'false' : 'true')"></div>
<input type=checkbox id=styled style="display:none"><label for=styled id=styled-label>Styled option</label>
<input type=checkbox id=stubborn onclick="event.preventDefault()">
<label id=toggle style="position:relative;display:inline-block;width:40px;height:20px">
  <input type=checkbox id=knob style="margin:0;width:40px;height:20px">
  <span style="position:absolute;inset:0;background:#888;border-radius:10px"></span></label>
<div id=plain>plain</div>
"""


async def test_check_and_uncheck(mcp, site):
    await load(mcp, site, "check", CHECK_PAGE)
    await mcp.ok("element_check", {"selector": "#cb"})
    assert await mcp.js("document.getElementById('cb').checked") is True
    assert "already checked" in (await mcp.ok("element_check", {"selector": "#cb"}))["message"]
    await mcp.ok("element_uncheck", {"selector": "#cb"})
    assert await mcp.js("document.getElementById('cb').checked") is False
    await mcp.ok("element_check", {"selector": "#r2"})
    assert await mcp.js("[r1.checked, r2.checked]") == [False, True]
    err = await mcp.fail("element_uncheck", {"selector": "#r2"})
    assert err["code"] == "invalid_arguments" and "radio" in err["message"]
    await mcp.ok("element_check", {"selector": "#sw"})
    assert await mcp.js("sw.getAttribute('aria-checked')") == "true"
    await mcp.ok("element_uncheck", {"selector": "#sw"})
    assert await mcp.js("sw.getAttribute('aria-checked')") == "false"
    await mcp.ok("element_check", {"selector": "#styled"})  # hidden input: toggled through its label
    assert await mcp.js("styled.checked") is True
    await mcp.ok("element_check", {"selector": "#knob"})  # covered by its label's slider: the label is clicked
    assert await mcp.js("knob.checked") is True
    await mcp.ok("element_uncheck", {"selector": "#toggle"})  # the label stands for its control
    assert await mcp.js("knob.checked") is False
    err = await mcp.fail("element_check", {"selector": "#plain"})
    assert err["code"] == "invalid_arguments" and "not a checkbox" in err["message"]
    err = await mcp.fail("element_check", {"selector": "#stubborn", "timeout_ms": 300})
    assert err["code"] == "timeout" and "still not checked" in err["message"]


SELECT_PAGE = RECORDER + """
<select id=one><option value="">Pick</option><option value="fr">France</option><option value="de">Germany</option>
  <option value="xx" disabled>Gone</option></select>
<select id=many multiple><option value=a>Apple</option><option value=b>Banana</option><option value=c>Cherry</option></select>
<select id=late></select>
<script>
for (const t of ['input', 'change']) one.addEventListener(t, rec);
setTimeout(() => { late.innerHTML = '<option value=1>One</option><option value=2>Two</option>'; }, 300);
</script>
"""


async def test_select_by_values_labels_indexes(mcp, site):
    await load(mcp, site, "select", SELECT_PAGE)
    data = await mcp.ok("element_select", {"selector": "#one", "values": ["de"]})
    assert data["values"] == ["de"] and data["labels"] == ["Germany"]
    assert await mcp.js("one.value") == "de"
    assert await mcp.js("log") == ["input:one:false", "change:one:false"]
    await mcp.ok("element_select", {"selector": "#one", "labels": ["france"]})
    assert await mcp.js("one.value") == "fr"
    await mcp.ok("element_select", {"selector": "#one", "indexes": [0]})
    assert await mcp.js("one.selectedIndex") == 0
    data = await mcp.ok("element_select", {"selector": "#many", "labels": ["Apple", "Cherry"]})
    assert data["values"] == ["a", "c"]
    assert await mcp.js("[...many.selectedOptions].map(o => o.value)") == ["a", "c"]
    data = await mcp.ok("element_select", {"selector": "#late", "values": ["2"]})
    assert data["labels"] == ["Two"]
    err = await mcp.fail("element_select", {"selector": "#one", "values": ["it"], "timeout_ms": 200})
    assert err["code"] == "element_not_found" and '"fr" ("France")' in err["message"]
    err = await mcp.fail("element_select", {"selector": "#one", "values": ["fr", "de"]})
    assert err["code"] == "invalid_arguments" and "single-choice" in err["message"]
    err = await mcp.fail("element_select", {"selector": "#one", "values": ["xx"]})
    assert err["code"] == "invalid_arguments" and "disabled" in err["message"]
    err = await mcp.fail("element_select", {"selector": "#log-nothing, body", "values": ["x"]})
    assert err["code"] == "invalid_arguments" and "not a <select>" in err["message"]


FILE_PAGE = """
<input type=file id=up style="display:none"><input type=file id=multi multiple>
<button id=chooser onclick="up.click()">Upload…</button>
<script>
window.got = null;
up.addEventListener('change', () => { window.got = [...up.files].map((f) => [f.name, f.size]); });
</script>
"""


async def test_set_files_uploads_and_refuses_other_elements(mcp, site, tmp_path):
    report = tmp_path / "report.txt"
    report.write_bytes(b"x" * 1234)
    other = tmp_path / "other.csv"
    other.write_text("a,b\n")
    await load(mcp, site, "files", FILE_PAGE)
    data = await mcp.ok("element_set_files", {"selector": "#up", "files": [str(report)]})
    assert data["files"] == ["report.txt"]
    assert await mcp.js("window.got") == [["report.txt", 1234]]
    data = await mcp.ok("element_set_files", {"selector": "#multi", "files": [str(report), str(other)]})
    assert data["files"] == ["report.txt", "other.csv"]
    err = await mcp.fail("element_set_files", {"selector": "#chooser", "files": [str(report)]})
    assert err["code"] == "invalid_arguments" and "input[type=file]" in err["message"]
    assert await mcp.js("1 + 1") == 2  # the tab survived
    err = await mcp.fail("element_set_files", {"selector": "#up", "files": [str(tmp_path / "absent.bin")]})
    assert err["code"] == "invalid_path" and "absent.bin" in err["message"]
    err = await mcp.fail("element_set_files", {"selector": "#up", "files": [str(report), str(other)]})
    assert err["code"] == "invalid_arguments" and "one file" in err["message"]


async def test_fill_form_fills_every_kind_and_reports_failures(mcp, site, tmp_path):
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG....")
    await load(mcp, site, "form", """
        <form>
          <input id=name><textarea id=bio></textarea>
          <select id=country><option value=fr>France</option><option value=jp>Japan</option></select>
          <input type=checkbox id=terms><input type=checkbox id=news checked>
          <label><input type=radio name=size value=s> Small</label>
          <label><input type=radio name=size value=l> Large</label>
          <input type=file id=pic>
        </form>""")
    data = await mcp.ok("element_fill_form", {"timeout_ms": 2000, "fields": [
        {"selector": "#name", "value": "Grace"},
        {"selector": "#bio", "value": "Admiral"},
        {"selector": "#country", "value": "Japan"},
        {"selector": "#terms", "value": True},
        {"selector": "#news", "value": "false"},
        {"selector": "input[name=size]", "value": "Large"},
        {"selector": "#missing", "value": "x"},
        {"selector": "#pic", "value": str(photo)},
        {"selector": "#terms", "value": "maybe"},
    ]})
    assert data["filled"] == 7
    assert [(e["selector"], e["code"]) for e in data["errors"]] == [("#missing", "element_not_found"),
                                                                   ("#terms", "invalid_arguments")]
    state = await mcp.js("""[document.getElementById('name').value, bio.value, country.value, terms.checked, news.checked,
        document.querySelector('input[name=size]:checked').value, pic.files[0].name]""")
    assert state == ["Grace", "Admiral", "jp", True, False, "l", "photo.png"]
    await mcp.ok("element_fill_form", {"fields": [{"selector": "input[name=size]", "value": "s"}]})
    assert await mcp.js("document.querySelector('input[name=size]:checked').value") == "s"


# -- pointer: hover, focus, tap, drag, scroll ------------------------------------------------------


async def test_hover_focus_and_tap(mcp, site):
    await load(mcp, site, "hover", RECORDER + """
        <style>#h:hover { background: rgb(255, 0, 0); }</style>
        <div id=h style="width:100px;height:50px">hover me</div>
        <input id=i><div id=nf>no focus</div>
        <div id=t style="width:80px;height:80px;background:#eee">tap</div>
        <script>
        h.addEventListener('mouseover', rec); i.addEventListener('focus', rec);
        for (const e of ['touchstart', 'touchend', 'click']) t.addEventListener(e, rec);
        </script>""")
    await mcp.ok("element_hover", {"selector": "#h"})
    assert await mcp.js("getComputedStyle(h).backgroundColor") == "rgb(255, 0, 0)"
    assert await mcp.js("log") == ["mouseover:h:true"]
    await mcp.ok("element_focus", {"selector": "#i"})
    assert await mcp.js("document.activeElement.id") == "i"
    err = await mcp.fail("element_focus", {"selector": "#nf"})
    assert err["code"] == "invalid_arguments" and "focus" in err["message"]
    await mcp.js("log.length = 0")
    await mcp.ok("element_tap", {"selector": "#t"})
    assert await mcp.js("log") == ["touchstart:t:true", "touchend:t:true", "click:t:true"]


async def test_drag_to_with_mouse_driven_code(mcp, site):
    await load(mcp, site, "drag-mouse", """
        <div id=box style="position:absolute;left:20px;top:20px;width:40px;height:40px;background:red"></div>
        <div id=goal style="position:absolute;left:300px;top:200px;width:60px;height:60px;outline:1px solid"></div>
        <script>
        window.trail = [];
        let grab = null;
        box.addEventListener('mousedown', (e) => { grab = [e.clientX - box.offsetLeft, e.clientY - box.offsetTop]; trail.push(['down', e.clientX, e.clientY]); });
        document.addEventListener('mousemove', (e) => { if (!grab) return; trail.push(['move', e.clientX, e.clientY]);
          box.style.left = (e.clientX - grab[0]) + 'px'; box.style.top = (e.clientY - grab[1]) + 'px'; });
        document.addEventListener('mouseup', (e) => { grab = null; trail.push(['up', e.clientX, e.clientY]); });
        </script>""")
    await mcp.ok("element_drag_to", {"source_selector": "#box", "target_selector": "#goal", "steps": 5})
    trail = await mcp.js("trail")
    assert trail[0] == ["down", 40, 40] and trail[-1] == ["up", 330, 230]
    assert sum(1 for t in trail if t[0] == "move") >= 5
    assert await mcp.js("[box.offsetLeft, box.offsetTop]") == [310, 210]


async def test_drag_to_with_native_html5_drag_and_drop(mcp, site):
    await load(mcp, site, "drag-html5", """
        <ul id=list><li id=item draggable=true style="width:80px">Item</li></ul>
        <div id=bin style="margin-top:150px;width:200px;height:100px;border:1px solid">Bin</div>
        <script>
        window.events = [];
        item.addEventListener('dragstart', (e) => { e.dataTransfer.setData('text/plain', 'item'); events.push('dragstart'); });
        bin.addEventListener('dragover', (e) => { e.preventDefault(); if (events.at(-1) !== 'dragover') events.push('dragover'); });
        bin.addEventListener('drop', (e) => { e.preventDefault(); events.push('drop:' + e.dataTransfer.getData('text/plain'));
          bin.appendChild(document.getElementById(e.dataTransfer.getData('text/plain'))); });
        item.addEventListener('dragend', () => events.push('dragend'));
        </script>""")
    await mcp.ok("element_drag_to", {"source_selector": "#item", "target_selector": "#bin"})
    assert await mcp.js("events") == ["dragstart", "dragover", "drop:item", "dragend"]
    assert await mcp.js("document.getElementById('item').parentElement.id") == "bin"


async def test_scroll_into_view(mcp, site):
    await load(mcp, site, "scroll", """<div style="height:3000px"></div><button id=far>Far</button><div style="height:3000px"></div>""")
    assert await mcp.js("scrollY") == 0
    data = await mcp.ok("element_scroll_into_view", {"selector": "#far"})
    height = await mcp.js("innerHeight")
    assert await mcp.js("scrollY") > 2000
    assert data["box"]["y"] >= 0 and data["box"]["y"] + data["box"]["height"] <= height


# -- synthetic events, evaluate, screenshot -------------------------------------------------------


async def test_dispatch_event_builds_the_right_event(mcp, site):
    await load(mcp, site, "dispatch", """
        <div id=d>target</div>
        <script>
        window.seen = [];
        d.addEventListener('my-event', (e) => seen.push([e.constructor.name, e.detail.n, e.bubbles]));
        document.addEventListener('click', (e) => seen.push([e.constructor.name, e.clientX, e.isTrusted]));
        d.addEventListener('keydown', (e) => { seen.push([e.constructor.name, e.key]); e.preventDefault(); });
        </script>""")
    data = await mcp.ok("element_dispatch_event", {"selector": "#d", "event_type": "my-event", "event_init": {"detail": {"n": 7}}})
    assert data["event_class"] == "CustomEvent" and data["default_prevented"] is False
    await mcp.ok("element_dispatch_event", {"selector": "#d", "event_type": "click", "event_init": {"clientX": 12}})
    data = await mcp.ok("element_dispatch_event", {"selector": "#d", "event_type": "keydown", "event_init": {"key": "q"}})
    assert data["event_class"] == "KeyboardEvent" and data["default_prevented"] is True
    assert await mcp.js("seen") == [["CustomEvent", 7, True], ["MouseEvent", 12, False], ["KeyboardEvent", "q"]]


async def test_element_evaluate(mcp, site):
    await load(mcp, site, "evaluate", "<div id=e data-x=5>hi</div>")
    data = await mcp.ok("element_evaluate", {"selector": "#e", "function": "(el, arg) => el.id + ':' + el.dataset.x + ':' + arg", "arg": "z"})
    assert data["result"] == "e:5:z"
    data = await mcp.ok("element_evaluate", {"selector": "#e", "function": "async function () { await null; return this.textContent.length; }"})
    assert data["result"] == 2
    await mcp.ok("element_evaluate", {"selector": "#e", "function": "el => { el.textContent = 'changed'; };"})
    assert await mcp.js("e.textContent") == "changed"
    err = await mcp.fail("element_evaluate", {"selector": "#e", "function": "el.textContent"})
    assert err["code"] == "javascript_error"
    err = await mcp.fail("element_evaluate", {"selector": "#e", "function": "42"})
    assert err["code"] == "invalid_arguments" and "not a function" in err["message"]
    err = await mcp.fail("element_evaluate", {"selector": "#e", "function": "el => { throw new TypeError('bad el') }"})
    assert err["code"] == "javascript_error" and "bad el" in err["message"]


def _png_pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB/RGBA PNG into rows (enough to check colours in a screenshot)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        chunk = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


async def test_element_screenshot_clips_to_the_element(mcp, site, tool_config):
    await load(mcp, site, "shot", """<body style="margin:0">
        <div style="height:1500px;background:#fff"></div>
        <div id=red style="width:120px;height:80px;background:rgb(255,0,0);margin-left:30px"></div>
        <iframe id=fr style="border:0;margin-left:100px" srcdoc="<body style='margin:0'>
          <div id=blue style='margin:10px;width:50px;height:40px;background:rgb(0,0,255)'></div>"></iframe>
        <div style="height:1500px"></div>""")
    data, png = await mcp.image("element_screenshot", {"selector": "#red"})
    width, height, rows = _png_pixels(png)
    assert (width, height) == (data["width"], data["height"]) == (120, 80)
    channels = len(rows[0]) // width
    for x, y in ((0, 0), (60, 40), (119, 79)):
        assert rows[y][x * channels:x * channels + 3] == b"\xff\x00\x00", (x, y)
    data, png = await mcp.image("element_screenshot", {"selector": "#fr >>> #blue"})
    width, height, rows = _png_pixels(png)
    assert (width, height) == (50, 40)
    channels = len(rows[0]) // width
    assert {rows[y][x * channels:x * channels + 3] for x, y in ((0, 0), (25, 20), (49, 39))} == {b"\x00\x00\xff"}
    success, data, images = await mcp.call_with_images(
        "element_screenshot", {"selector": "#red", "format": "file", "path": "shots/red.png"})
    assert success and images == []
    assert data["path"] == str((tool_config.output_dir / "shots" / "red.png").resolve())
    assert _png_pixels(Path(data["path"]).read_bytes())[:2] == (120, 80)
    err = await mcp.fail("element_screenshot", {"selector": "#red", "format": "file", "path": "../escape.png"})
    assert err["code"] == "invalid_path"
