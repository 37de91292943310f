"""wait_: element states, text, JS predicates, URL changes and load states, each with its timeout."""

from __future__ import annotations

import threading

import pytest

from tests.support.site import Response
from tools.namespaces.wait import url_matcher

LATER = """<title>Later</title><div id=spinner>Loading…</div><div id=slot></div>
<script>
setTimeout(() => {
  document.getElementById('slot').innerHTML = '<p id=ready style="display:none">Results: 3 items</p>';
}, 100);
setTimeout(() => { document.getElementById('ready').style.display = 'block'; }, 250);
setTimeout(() => { document.getElementById('spinner').remove(); window.appReady = {items: 3}; }, 300);
</script>"""


async def _open(mcp, site, path, html):
    await mcp.ok("page_navigate", {"url": site.route(path, html)})


async def _navigate_soon(mcp, url):
    """Start a navigation 100 ms from now, once page_navigate has returned (not from a page
    timer, which could fire while page_navigate still waits for load)."""
    await mcp.js(f"setTimeout(() => location.href = {url!r}, 100); 0")


STEPS = """<div id=spinner>Loading…</div><div id=slot></div><script>
window.attach = () => { document.getElementById('slot').innerHTML = '<p id=ready style="display:none">Ready</p>'; };
window.show = () => { document.getElementById('ready').style.display = 'block'; };
window.done = () => document.getElementById('spinner').remove();
</script>"""


async def test_wait_for_selector_states(mcp, site):
    await _open(mcp, site, "/wait/states", STEPS)
    await mcp.js("setTimeout(attach, 50); 0")
    attached = await mcp.ok("wait_for_selector", {"selector": "#ready", "state": "attached", "timeout_ms": 30000})
    assert attached["message"] == "selector '#ready' is attached"
    # Attached but still display:none, so it is not yet visible.
    assert await mcp.js("getComputedStyle(document.getElementById('ready')).display") == "none"
    await mcp.js("setTimeout(show, 50); 0")
    visible = await mcp.ok("wait_for_selector", {"selector": "#ready", "timeout_ms": 30000})
    assert visible["message"].endswith("is visible")
    assert await mcp.js("document.getElementById('ready').getBoundingClientRect().height") > 0
    await mcp.js("setTimeout(done, 50); 0")
    await mcp.ok("wait_for_state", {"selector": "#spinner", "state": "detached", "timeout_ms": 30000})
    assert await mcp.js("document.getElementById('spinner')") is None
    hidden = await mcp.ok("wait_for_state", {"selector": "#spinner", "state": "hidden", "timeout_ms": 0})
    assert hidden["message"] == "selector '#spinner' is hidden"


async def test_selector_wait_errors(mcp, site):
    await _open(mcp, site, "/wait/errors", "<p id=here>here</p><p id=gone style='display:none'>x</p>")
    err = await mcp.fail("wait_for_selector", {"selector": "#never", "timeout_ms": 200})
    assert err["code"] == "element_not_found"
    assert "'#never' matched 0 elements" in err["message"]
    err = await mcp.fail("wait_for_selector", {"selector": "#gone", "timeout_ms": 200})
    assert err["code"] == "timeout"
    assert "not visible" in err["message"]
    err = await mcp.fail("wait_for_state", {"selector": "#here", "state": "detached", "timeout_ms": 200})
    assert err["code"] == "timeout" and "still attached" in err["message"]
    err = await mcp.fail("wait_for_state", {"selector": "#here", "state": "gone"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "state"
    err = await mcp.fail("wait_for_state", {"selector": "#here"})
    assert err["details"][0]["field"] == "state"


async def test_wait_for_text_page_and_scope(mcp, site):
    await _open(mcp, site, "/wait/text", LATER + "<aside id=side>Sidebar</aside>")
    data = await mcp.ok("wait_for_text", {"text": "results:   3 ITEMS", "timeout_ms": 30000})
    assert data["message"] == "text 'results:   3 ITEMS' is present"
    assert "Results: 3 items" in await mcp.js("document.body.innerText")
    await mcp.ok("wait_for_text", {"text": "Sidebar", "selector": "#side", "timeout_ms": 30000})
    err = await mcp.fail("wait_for_text", {"text": "Results", "selector": "#side", "timeout_ms": 200})
    assert err["code"] == "timeout"
    assert "the text there starts with 'Sidebar'" in err["message"]
    err = await mcp.fail("wait_for_text", {"text": "x", "selector": "#nope", "timeout_ms": 150})
    assert err["code"] == "element_not_found"
    err = await mcp.fail("wait_for_text", {"text": "x", "selector": "[[bad", "timeout_ms": 150})
    assert err["code"] == "invalid_arguments"


async def test_wait_for_text_sees_open_shadow_roots(mcp, site):
    html = """<div id=host></div><script>
    setTimeout(() => { document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = '<b>Shadow hello</b>'; }, 50);
    </script>"""
    await _open(mcp, site, "/wait/shadow", html)
    await mcp.ok("wait_for_text", {"text": "shadow hello", "timeout_ms": 30000})


async def test_wait_for_function_returns_value(mcp, site):
    await _open(mcp, site, "/wait/function", LATER)
    data = await mcp.ok("wait_for_function", {"function": "window.appReady;", "timeout_ms": 30000})
    assert data["value"] == {"items": 3}
    data = await mcp.ok("wait_for_function", {
        "function": "() => document.querySelectorAll('p').length && document.querySelector('p')"})
    assert data["value"] == "<p#ready>"
    data = await mcp.ok("wait_for_function", {"function": "async () => 40 + 2"})
    assert data["value"] == 42
    err = await mcp.fail("wait_for_function", {"function": "window.neverSet", "timeout_ms": 150})
    assert err["code"] == "timeout" and "last value: undefined" in err["message"]
    err = await mcp.fail("wait_for_function", {"function": "() => missingName.x", "timeout_ms": 500})
    assert err["code"] == "javascript_error" and "missingName" in err["message"]


async def test_wait_for_function_survives_navigation(mcp, site):
    target = site.route("/wait/nav-target", "<script>window.arrived = 'yes'</script>")
    await _open(mcp, site, "/wait/nav-start", "<p>start</p>")
    await _navigate_soon(mcp, target)
    data = await mcp.ok("wait_for_function", {"function": "window.arrived", "timeout_ms": 30000})
    assert data["value"] == "yes"


@pytest.mark.parametrize(("pattern", "url", "expected"), [
    ("**/done*", "http://x.test/a/done?ok=1", True),
    ("**/done*", "http://x.test/a/done/more", False),
    ("http://x.test/*/done", "http://x.test/a/done", True),
    ("http://x.test/*/done", "http://x.test/a/b/done", False),
    ("/step=\\d+$/", "http://x.test/?step=42", True),
    ("/STEP/i", "http://x.test/?step=1", True),
    ("/api/users", "http://x.test/api/users/7", True),
    ("done", "http://x.test/undone", True),
    ("done", "http://x.test/other", False),
])
def test_url_pattern_rules(pattern, url, expected):
    assert url_matcher(pattern)(url) is expected


async def test_wait_for_url_current_navigation_and_same_document(mcp, site):
    done = site.route("/wait/done", "<title>Done</title>")
    await _open(mcp, site, "/wait/url", "<p>start</p>")
    await _navigate_soon(mcp, done + "?ok=1")
    data = await mcp.ok("wait_for_url", {"pattern": "**/done*", "timeout_ms": 30000})
    assert data["url"] == done + "?ok=1"
    assert await mcp.js("location.href") == done + "?ok=1"
    now = await mcp.ok("wait_for_url", {"pattern": "/wait/done", "timeout_ms": 0})
    assert now["url"] == done + "?ok=1"
    await mcp.js("setTimeout(() => history.pushState({}, '', '/wait/step?n=2'), 50); 0")
    data = await mcp.ok("wait_for_url", {"pattern": "/n=\\d$/", "timeout_ms": 30000})
    assert data["url"].endswith("/wait/step?n=2")
    await mcp.js("setTimeout(() => location.hash = 'tab-2', 50); 0")
    data = await mcp.ok("wait_for_url", {"pattern": "#tab-2", "timeout_ms": 30000})
    assert data["url"].endswith("?n=2#tab-2")
    err = await mcp.fail("wait_for_url", {"pattern": "never-there", "timeout_ms": 150})
    assert err["code"] == "timeout" and "#tab-2" in err["message"]
    err = await mcp.fail("wait_for_url", {"pattern": "/(unclosed/"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "pattern"


def _held_response(site, path):
    """A route whose response waits until the returned event is set (at most 10 s)."""
    release = threading.Event()

    def respond(request):
        release.wait(10)
        return Response('{"ok": true}', content_type="application/json")

    site.route(path, respond)
    return release


async def test_wait_for_load_states(mcp, site):
    release = _held_response(site, "/wait/slow-api")
    html = "<title>Busy</title><script>fetch('/wait/slow-api').then(r => r.json()).then(j => window.got = j)</script>"
    try:
        await _open(mcp, site, "/wait/load", html)
        data = await mcp.ok("wait_for_load", {"state": "domcontentloaded"})
        assert data["url"].endswith("/wait/load") and data["message"] == "the page reached domcontentloaded"
        assert await mcp.js("window.got === undefined")
        threading.Timer(0.3, release.set).start()
        data = await mcp.ok("wait_for_load", {"state": "networkidle", "timeout_ms": 30000})
        assert await mcp.js("window.got") == {"ok": True}
        assert data["elapsed_ms"] >= 300
    finally:
        release.set()
    err = await mcp.fail("wait_for_load", {"state": "idle"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "state"


async def test_wait_for_load_networkidle_timeout(mcp, site):
    release = _held_response(site, "/wait/slower-api")
    try:
        await _open(mcp, site, "/wait/busy", "<script>fetch('/wait/slower-api')</script>")
        err = await mcp.fail("wait_for_load", {"state": "networkidle", "timeout_ms": 300})
        assert err["code"] == "timeout"
    finally:
        release.set()


async def test_wait_for_selector_across_navigation(mcp, site):
    target = site.route("/wait/sel-target", "<p id=arrived>new page</p>")
    await _open(mcp, site, "/wait/sel-start", "<p>start</p>")
    await _navigate_soon(mcp, target)
    await mcp.ok("wait_for_selector", {"selector": "#arrived", "timeout_ms": 30000})
    assert await mcp.js("location.pathname") == "/wait/sel-target"
