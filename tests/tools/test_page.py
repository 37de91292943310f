"""page_ tools through the MCP layer, against real Chromium: each test checks the effect."""

from __future__ import annotations

import json
import os
import re
import signal
import struct
from pathlib import Path

import trio
from mcp import Client

from a11y.mcp_server import build_server
from tools.session import ServerConfig

TALL = "<title>Tall</title><style>body{margin:0}</style><div style='height:5000px;width:4000px'>top</div>"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


# -- history ---------------------------------------------------------------------------------


async def test_back_forward_reload(mcp, site):
    first = site.route("/page/h1", "<title>One</title><p>1</p>")
    second = site.route("/page/h2", "<title>Two</title><p>2</p>")
    err = await mcp.fail("page_go_back")
    assert err["code"] == "not_found" and "no previous page" in err["message"]
    await mcp.ok("page_navigate", {"url": first})
    await mcp.ok("page_navigate", {"url": second})

    assert await mcp.ok("page_go_back") == {"url": first, "title": "One"}
    assert await mcp.js("document.querySelector('p').textContent") == "1"
    assert await mcp.ok("page_go_forward") == {"url": second, "title": "Two"}
    err = await mcp.fail("page_go_forward")
    assert err["code"] == "not_found" and "no next page" in err["message"]

    await mcp.js("window.marker = 42")
    assert await mcp.ok("page_reload") == {"url": second, "title": "Two"}
    assert await mcp.js("typeof window.marker") == "undefined"


async def test_back_within_the_same_document(mcp, site):
    url = site.route("/page/hash", "<title>Hash</title>")
    await mcp.ok("page_navigate", {"url": url})
    await mcp.js("history.pushState({}, '', '#step2')")
    assert (await mcp.ok("page_get_url"))["url"] == url + "#step2"
    assert (await mcp.ok("page_go_back"))["url"] == url
    assert (await mcp.ok("page_go_forward"))["url"] == url + "#step2"


async def test_history_reports_a_beforeunload_dialog_instead_of_hanging(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/page/plain", "<title>Plain</title>")})
    await mcp.ok("page_navigate", {"url": site.route("/page/guarded", """<title>Guarded</title>
        <script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; });</script>""")})
    await mcp.js("document.title = 'touched'")  # js_evaluate is a user gesture: beforeunload may prompt
    with trio.fail_after(10):
        err = await mcp.fail("page_go_back")
    assert err["code"] == "dialog_open" and "beforeunload" in err["message"]
    err = await mcp.fail("page_reload")
    assert err["code"] == "dialog_open"


# -- scrolling ---------------------------------------------------------------------------------


async def test_scroll_page_and_element(mcp, site):
    await mcp.ok("page_set_viewport", {"width": 800, "height": 600})
    await mcp.ok("page_navigate", {"url": site.route("/page/tall", TALL + """
        <div id=box style='position:fixed;top:0;left:0;width:200px;height:100px;overflow:auto'>
          <div style='height:1000px'>inner</div></div>""")})
    down = await mcp.ok("page_scroll", {"direction": "down", "amount": 300})
    assert down["y"] == 300 and await mcp.js("scrollY") == 300
    assert down["max_y"] == 5000 - 600
    page = await mcp.ok("page_scroll", {"direction": "down"})  # amount 0: one page
    assert page["y"] == 900 and await mcp.js("scrollY") == 900
    assert (await mcp.ok("page_scroll", {"direction": "up", "amount": 100}))["y"] == 800
    right = await mcp.ok("page_scroll", {"direction": "right", "amount": 50})
    assert right["x"] == 50 and await mcp.js("scrollX") == 50
    assert "scrolled the page right by 50 px" in right["message"]

    inner = await mcp.ok("page_scroll", {"direction": "down", "amount": 250, "selector": "#box"})
    assert inner["y"] == 250 and inner["max_y"] == 1000 - 100
    assert await mcp.js("document.querySelector('#box').scrollTop") == 250
    assert await mcp.js("scrollY") == 800  # the page itself did not move

    err = await mcp.fail("page_scroll", {"direction": "sideways"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "direction"
    err = await mcp.fail("page_scroll", {"direction": "down", "selector": "#nope", "timeout_ms": 200})
    assert err["code"] == "element_not_found"


# -- title, URL, content -----------------------------------------------------------------------


async def test_title_url_content_and_set_content(mcp, site):
    url = site.route("/page/content", "<!doctype html><title>Before</title><p id=p>hello</p>")
    await mcp.ok("page_navigate", {"url": url})
    assert await mcp.ok("page_get_title") == {"title": "Before"}
    assert await mcp.ok("page_get_url") == {"url": url}
    await mcp.js("document.title = 'After'; document.querySelector('#p').textContent = 'changed'")
    assert (await mcp.ok("page_get_title"))["title"] == "After"
    content = await mcp.ok("page_get_content")
    assert content["html"].startswith("<!DOCTYPE html>\n<html>")
    assert '<p id="p">changed</p>' in content["html"]  # the live DOM, not the source
    assert content["length"] == len(content["html"]) and content["truncated"] is False
    cut = await mcp.ok("page_get_content", {"max_length": 20})
    assert cut["truncated"] is True and cut["html"] == content["html"][:20]

    result = await mcp.ok("page_set_content", {
        "html": "<title>Set</title><ul><li>a<li>b</ul><script>document.body.dataset.ran = 'yes'</script>"})
    assert "title 'Set'" in result["message"]
    assert await mcp.js("document.querySelectorAll('li').length") == 2
    assert await mcp.js("document.body.dataset.ran") == "yes"
    assert (await mcp.ok("page_get_title"))["title"] == "Set"
    assert "<li>b</li>" in (await mcp.ok("page_get_content"))["html"]


# -- viewport, screenshots, PDF ----------------------------------------------------------------


async def test_viewport_and_screenshot_sizes(mcp, site, tool_config):
    await mcp.ok("page_navigate", {"url": site.route("/page/shot", TALL)})
    view = await mcp.ok("page_set_viewport", {"width": 640, "height": 480})
    assert view["width"] == 640 and view["height"] == 480
    assert await mcp.ok("page_get_viewport") == view
    assert await mcp.js("[innerWidth, innerHeight]") == [640, 480]
    scale = view["device_scale_factor"]

    shot, image = await mcp.image("page_screenshot", {"format": "base64"})
    assert png_size(image) == (round(640 * scale), round(480 * scale))
    assert (shot["width"], shot["height"]) == png_size(image) and shot["path"] is None
    assert shot["mime_type"] == "image/png" and "data" not in shot  # the pixels are only in the image block

    success, saved, images = await mcp.call_with_images("page_screenshot", {"format": "file", "path": "shots/view.png"})
    out_dir = tool_config.output_dir.resolve()
    assert success and images == [] and Path(saved["path"]) == out_dir / "shots" / "view.png"
    assert png_size(Path(saved["path"]).read_bytes()) == png_size(image) == (saved["width"], saved["height"])
    auto = await mcp.ok("page_screenshot", {"format": "file"})
    assert Path(auto["path"]).parent == out_dir and auto["path"].endswith(".png")

    full = await mcp.ok("page_screenshot", {"path": "full.png", "full_page": True})
    assert png_size(Path(full["path"]).read_bytes())[1] == round(5000 * scale)
    jpeg, image = await mcp.image("page_screenshot", {"image_type": "jpeg", "quality": 50})
    assert image[:2] == b"\xff\xd8" and jpeg["mime_type"] == "image/jpeg" and jpeg["width"] == round(640 * scale)

    retina = await mcp.ok("page_set_viewport", {"width": 300, "height": 200, "device_scale_factor": 2})
    assert retina == {"width": 300, "height": 200, "device_scale_factor": 2}
    assert png_size((await mcp.image("page_screenshot"))[1]) == (600, 400)

    err = await mcp.fail("page_screenshot", {"path": "../escape.png"})
    assert err["code"] == "invalid_path"
    err = await mcp.fail("page_set_viewport", {"width": 0, "height": 100})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "width"


async def test_pdf_is_a_real_file_in_the_output_dir(mcp, site, tool_config):
    await mcp.ok("page_navigate", {"url": site.route("/page/pdf", "<title>Doc</title><h1>Printable</h1>")})
    result = await mcp.ok("page_pdf", {"path": "doc.pdf", "format": "a4", "landscape": True,
                                       "print_background": True})
    path = Path(result["path"])
    assert path == tool_config.output_dir.resolve() / "doc.pdf"
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and result["size"] == len(data)
    box = re.search(rb"/MediaBox\s*\[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert box and float(box[1]) > float(box[2])  # landscape A4: 842 x 595 points
    assert abs(float(box[1]) - 842) < 2

    letter = Path((await mcp.ok("page_pdf"))["path"])
    assert letter.suffix == ".pdf" and letter.read_bytes().startswith(b"%PDF")
    err = await mcp.fail("page_pdf", {"scale": 5})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "scale"
    err = await mcp.fail("page_pdf", {"path": "/etc/evil.pdf"})
    assert err["code"] == "invalid_path"


# -- tabs as pages -----------------------------------------------------------------------------


async def test_new_count_close_and_front(mcp, site):
    first = site.route("/page/tab1", "<title>First</title>")
    second = site.route("/page/tab2", "<title>Second</title>")
    await mcp.ok("page_navigate", {"url": first})
    assert await mcp.ok("page_get_count") == {"count": 1, "current_tab": 0}

    opened = await mcp.ok("page_new", {"url": second})
    assert opened["tab"]["index"] == 1 and opened["tab"]["url"] == second and opened["count"] == 2
    assert await mcp.ok("page_get_count") == {"count": 2, "current_tab": 1}
    assert (await mcp.ok("page_get_title"))["title"] == "Second"
    assert await mcp.js("document.visibilityState") == "visible"

    blank = await mcp.ok("page_new")
    assert blank["tab"]["url"] == "about:blank" and blank["count"] == 3
    closed = await mcp.ok("page_close")
    assert closed["count"] == 2 and closed["current_tab"] == 1
    assert (await mcp.ok("page_get_url"))["url"] == second

    await mcp.ok("tab_select", {"index": 0})
    await mcp.ok("page_bring_to_front")
    assert await mcp.js("document.visibilityState") == "visible"

    closed = await mcp.ok("page_close")
    assert closed == {"message": closed["message"], "count": 1, "current_tab": 0}
    assert (await mcp.ok("page_get_url"))["url"] == second
    last = await mcp.ok("page_close")
    assert last["count"] == 0 and last["current_tab"] is None
    err = await mcp.fail("page_close")
    assert err["code"] == "not_found"
    # The next page tool opens a fresh tab.
    assert await mcp.ok("page_get_count") == {"count": 1, "current_tab": 0}


# -- emulation ---------------------------------------------------------------------------------


MEDIA_PROBE = """({
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
  reduce: matchMedia('(prefers-reduced-motion: reduce)').matches,
  forced: matchMedia('(forced-colors: active)').matches,
  more: matchMedia('(prefers-contrast: more)').matches,
  print: matchMedia('print').matches,
})"""


async def test_emulate_media_features_add_up_and_reset(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/page/media", "<title>Media</title>")})
    assert await mcp.js(MEDIA_PROBE) == dict.fromkeys(("dark", "reduce", "forced", "more", "print"), False)

    first = await mcp.ok("page_emulate_media", {"color_scheme": "dark", "reduced_motion": "reduce"})
    assert first["settings"] == ["prefers-color-scheme: dark", "prefers-reduced-motion: reduce"]
    assert await mcp.js(MEDIA_PROBE) == {"dark": True, "reduce": True, "forced": False, "more": False, "print": False}

    second = await mcp.ok("page_emulate_media", {"forced_colors": "active", "contrast": "more", "media": "print"})
    assert set(second["settings"]) == {"prefers-color-scheme: dark", "prefers-reduced-motion: reduce",
                                       "forced-colors: active", "prefers-contrast: more", "media: print"}
    await mcp.ok("page_reload")  # emulation survives navigation
    assert await mcp.js(MEDIA_PROBE) == dict.fromkeys(("dark", "reduce", "forced", "more", "print"), True)

    light = await mcp.ok("page_emulate_media", {"reset": True, "color_scheme": "light"})
    assert light["settings"] == ["prefers-color-scheme: light"]
    assert await mcp.js(MEDIA_PROBE) == dict.fromkeys(("dark", "reduce", "forced", "more", "print"), False)
    assert await mcp.js("matchMedia('(prefers-color-scheme: light)').matches") is True

    err = await mcp.fail("page_emulate_media", {"color_scheme": "purple"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "color_scheme"


async def test_geolocation_is_read_by_the_page(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/page/geo", "<title>Geo</title>")})
    result = await mcp.ok("page_set_geolocation", {"latitude": 52.37, "longitude": 4.89, "accuracy": 25})
    assert "52.37, 4.89" in result["message"]
    position = await mcp.js("""new Promise((resolve, reject) => navigator.geolocation.getCurrentPosition(
        (p) => resolve([p.coords.latitude, p.coords.longitude, p.coords.accuracy]),
        (e) => reject(new Error(e.message)), {timeout: 5000}))""")
    assert position == [52.37, 4.89, 25]
    err = await mcp.fail("page_set_geolocation", {"latitude": 100, "longitude": 0})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "latitude"
    err = await mcp.fail("page_set_geolocation", {"latitude": 1})
    assert err["details"][0]["field"] == "longitude"


# -- page_inspect ------------------------------------------------------------------------------

INSPECT_PAGE = """<!doctype html><title>Shop</title>
<h1>Checkout</h1>
<nav><a href="/home">Home</a> <a href="/cart">Cart</a></nav>
<form>
  <label for=email>Email</label><input id=email type=email value="a@b.c">
  <input name=pw type=password value="secret">
  <input placeholder="Coupon code">
  <label><input type=checkbox checked> Keep me posted</label>
  <select name=country><option>Norway<option selected>Peru</select>
  <textarea aria-label="Notes"></textarea>
  <button type=submit>Pay</button>
</form>
<div class=row><button>Buy</button></div>
<div class=row><button>Buy</button></div>
<button data-testid=help>?</button>
<h2 style="display:none">Hidden heading</h2>
<button style="visibility:hidden">Invisible</button>
<img src="/img/logo.png" alt="Logo"><img src="/img/x/decor.png">
<div role=button tabindex=0>Custom</div>
<fancy-card></fancy-card>
<iframe name=helpframe srcdoc="<p>help</p>" style="width:100px;height:50px"></iframe>
<script>
  customElements.define('fancy-card', class extends HTMLElement {
    constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<button>Inside</button><button>Other</button>'; }
  });
</script>"""

RESOLVE = """{ const resolve = (sel) => {
  const hops = sel.split(/\\s*>>>\\s*/);
  let roots = [document], found = [];
  for (let i = 0; i < hops.length; i++) {
    found = roots.flatMap((r) => [...r.querySelectorAll(hops[i])]);
    roots = found.map((el) => el.shadowRoot).filter(Boolean);
  }
  return found.map((el) => (el.innerText || el.value || el.getAttribute('alt') || el.localName).trim());
}; resolve(%s) }"""


def resolve(selector: str) -> str:
    """A script that returns a short description of every element the selector matches."""
    return RESOLVE % json.dumps(selector)


async def test_inspect_maps_visible_elements_with_unique_selectors(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/page/inspect", INSPECT_PAGE)})
    data = await mcp.ok("page_inspect")
    assert data["title"] == "Shop" and data["truncated"] is False and data["count"] == data["total"]
    items = data["items"]
    by_name = {i.get("name"): i for i in items}

    # Every selector matches exactly one element: the one described.
    for item in items:
        matched = await mcp.js(resolve(item["selector"]))
        assert len(matched) == 1, (item, matched)

    checkout = dict(by_name["Checkout"])
    assert re.fullmatch(r"e[1-9][0-9]*", checkout.pop("ref"))  # every item has its element reference
    assert checkout == {"kind": "heading", "selector": "h1", "tag": "h1", "name": "Checkout", "level": 1}
    assert len({i["ref"] for i in items}) == len(items)
    assert by_name["Home"]["kind"] == "link" and by_name["Home"]["href"] == "/home"
    assert by_name["Email"]["selector"] == "#email" and by_name["Email"]["value"] == "a@b.c"
    assert by_name["Email"]["type"] == "email"
    password = next(i for i in items if i.get("type") == "password")
    assert password["selector"] == 'input[name="pw"]' and password["value"] != "secret"
    coupon = next(i for i in items if i.get("placeholder") == "Coupon code")
    assert coupon["selector"] == 'input[placeholder="Coupon code"]'
    assert by_name["Keep me posted"]["checked"] is True and by_name["Keep me posted"]["role"] == "checkbox"
    assert by_name["Notes"]["selector"] == 'textarea[aria-label="Notes"]'
    select = next(i for i in items if i["kind"] == "select")
    assert select["value"] == "Peru" and select["options"] == 2
    assert by_name["?"]["selector"] == '[data-testid="help"]'
    assert by_name["Custom"]["kind"] == "button" and by_name["Custom"]["tag"] == "div"
    assert by_name["Logo"]["kind"] == "image" and by_name["Logo"]["selector"] == 'img[alt="Logo"]'
    assert any(i.get("src") == "decor.png" for i in items)

    buys = [i for i in items if i.get("name") == "Buy"]
    assert len(buys) == 2 and buys[0]["selector"] != buys[1]["selector"]
    assert [len(await mcp.js(resolve(b["selector"]))) for b in buys] == [1, 1]
    inside = next(i for i in items if i.get("name") == "Inside")
    assert " >>> " in inside["selector"]
    assert await mcp.js(resolve(inside["selector"])) == ["Inside"]

    names = [i.get("name") for i in items]
    assert "Hidden heading" not in names and "Invisible" not in names
    assert data["frames"] == [{"selector": 'iframe[name="helpframe"]', "name": "helpframe", "src": ""}]
    # Document order: heading first, then links.
    assert [i["kind"] for i in items[:3]] == ["heading", "link", "link"]


async def test_inspect_filters_and_truncates(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/page/inspect2", INSPECT_PAGE)})
    headings = await mcp.ok("page_inspect", {"include_buttons": False, "include_links": False,
                                             "include_inputs": False, "include_selects": False,
                                             "include_images": False})
    assert [i["name"] for i in headings["items"]] == ["Checkout"]
    few = await mcp.ok("page_inspect", {"max_items": 3})
    assert few["count"] == 3 and few["truncated"] is True and few["total"] > 3
    err = await mcp.fail("page_inspect", {"max_items": 0})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "max_items"


# -- resilience --------------------------------------------------------------------------------


def _our_chromium_pids() -> set[int]:
    """Browsers this test process launched itself (their profile lives in an a11y-chromium- dir)."""
    me = str(os.getpid())
    pids = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = stat.rsplit(")", 1)[1].split()[1]
        if ppid == me and b"a11y-chromium-" in cmdline and b"--type=" not in cmdline:
            pids.add(int(entry.name))
    return pids


async def test_server_survives_the_browser_being_killed(site, tmp_path):
    url = site.route("/page/crash", "<title>Alive</title>")
    before = _our_chromium_pids()
    async with Client(build_server(ServerConfig(output_dir=tmp_path))) as client:
        first = await client.call_tool("page_navigate", {"url": url})
        assert not first.is_error and first.structured_content["title"] == "Alive"
        launched = _our_chromium_pids() - before
        assert len(launched) == 1
        pid = launched.pop()
        os.killpg(pid, signal.SIGKILL)  # the browser and its renderers, as a crash would

        with trio.fail_after(10):  # the server notices the broken pipe on its own
            while (await client.call_tool("config_get", {})).structured_content["browser_launched"]:
                await trio.sleep(0.05)
        again = await client.call_tool("page_navigate", {"url": url})
        assert not again.is_error, again.content[0].text
        assert again.structured_content["title"] == "Alive"
        assert _our_chromium_pids() - before - {pid}, "a new browser was launched"
