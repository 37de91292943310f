"""--allowed-origins / --blocked-origins: every way a page could reach another origin is refused.

Two allowed origins (127.0.0.1 and localhost on the shared site, so cross-site iframes run out
of process) and a third server that must never be reached (``evil``). Each test tries one way
around the rule (a navigation, a redirect, a popup, an iframe, fetch, a dedicated, shared and
service worker, a WebSocket, WebRTC) next to the same thing aimed at an allowed origin, so a
refusal is the guard's and not a broken page.
"""

from __future__ import annotations

import socket

import pytest
import trio
from mcp import Client

from a11y.mcp_server import build_server
from tests.support.site import Response, Site
from tests.tools.conftest import ToolClient
from tools.guard.policy import GuardConfig, parse_patterns
from tools.session import ServerConfig


@pytest.fixture(scope="module")
def evil():
    server = Site().start()
    yield server
    server.stop()


def origin(url: str) -> str:
    return url.split("/", 3)[0] + "//" + url.split("/", 3)[2]


@pytest.fixture
async def guarded(chromium, site, evil, tmp_path):
    evil.log.clear()
    guard = GuardConfig(allowed=parse_patterns([f"{origin(site.url())}, {origin(site.cross_site_url())}"]))
    config = ServerConfig(browser_url=chromium.ws_url, isolated=True, output_dir=tmp_path / "out", guard=guard)
    async with Client(build_server(config)) as client:
        yield ToolClient(client)


def reached(evil: Site) -> list[str]:
    return [r.path for r in evil.log]


async def open_page(mcp: ToolClient, site: Site, path: str, html: str = "<title>guarded</title><p>page</p>") -> None:
    await mcp.ok("page_navigate", {"url": site.route(path, html)})


async def test_navigation_and_redirect_to_another_origin_are_refused(guarded, site, evil):
    err = await guarded.fail("page_navigate", {"url": evil.url("/guard/nav")})
    assert err["code"] == "blocked_by_policy"
    assert origin(evil.url()) in err["message"] and "--allowed-origins" in err["message"]

    hop = site.route("/guard/redirect", Response("", status=302, headers={"Location": evil.url("/guard/after")}))
    err = await guarded.fail("page_navigate", {"url": hop})
    assert err["code"] == "blocked_by_policy"
    assert origin(evil.url()) in err["message"] and "/guard/after" in err["message"]
    assert any(r.path == "/guard/redirect" for r in site.log)  # the allowed hop was made

    err = await guarded.fail("http_request", {"url": evil.url("/guard/http")})
    assert err["code"] == "blocked_by_policy"
    err = await guarded.fail("cdp_run_quality_audit", {"url": site.url("/guard/q")})
    assert err["code"] == "blocked_by_policy"
    assert reached(evil) == []


FETCHES = """(async () => {
  const out = {};
  for (const [key, url] of Object.entries(%s)) {
    try { out[key] = (await fetch(url, {mode: 'no-cors'})).type; } catch (e) { out[key] = 'failed: ' + e.message; }
  }
  return out;
})()"""


async def test_fetch_iframe_and_popup_to_another_origin_fail_like_network_errors(guarded, site, evil):
    await open_page(guarded, site, "/guard/fetch")
    got = await guarded.js(FETCHES % {"ok": site.cross_site_url("/guard/ok"), "evil": evil.url("/guard/fetch")})
    assert got == {"ok": "opaque", "evil": "failed: Failed to fetch"}

    frames = site.route("/guard/frames", f"""<title>frames</title>
        <iframe id=ok src="{site.cross_site_url('/guard/frame-ok')}"></iframe>
        <iframe id=evil src="{evil.url('/guard/frame')}"></iframe>""")
    site.route("/guard/frame-ok", "<title>frame ok</title>")
    await guarded.ok("page_navigate", {"url": frames})  # waits for load, frames included
    assert any(r.path == "/guard/frame-ok" for r in site.log)

    await guarded.js(f"window.open({evil.url('/guard/popup')!r}); 1")
    with trio.fail_after(10):
        while (listing := await guarded.ok("tab_list"))["count"] < 2:
            await trio.sleep(0.05)
    await guarded.ok("tab_select", {"index": next(t["index"] for t in listing["tabs"] if t["index"] != 0)})
    with trio.fail_after(10):  # the popup's document request ends failed, refused by the guard
        while not (failed := [r for r in (await guarded.ok("network_get_requests"))["requests"] if r["failed"]]):
            await trio.sleep(0.05)
    assert failed[0]["url"] == evil.url("/guard/popup") and "BLOCKED_BY_CLIENT" in failed[0]["error_text"]
    assert reached(evil) == []


WORKERS = """(async () => {
  const channel = new BroadcastChannel('guard');
  const results = {};
  const done = new Promise((resolve) => {
    channel.onmessage = (event) => { results[event.data.from] = event.data; if (Object.keys(results).length === 3) resolve(); };
  });
  new Worker('/guard/worker.js');
  new SharedWorker('/guard/worker.js?shared');
  await navigator.serviceWorker.register('/guard/worker.js?service', {scope: '/guard/'});
  await done;
  return results;
})()"""

WORKER_SCRIPT = """
const from = self.registration ? 'service' : location.search === '?shared' ? 'shared' : 'dedicated';
const attempt = (url) => fetch(url, {mode: 'no-cors'}).then(() => 'reached', (e) => 'failed: ' + e.message);
const socket = (url) => new Promise((resolve) => {
  const ws = new WebSocket(url);
  ws.onopen = () => resolve('open');
  ws.onerror = () => resolve('error');
});
Promise.all([attempt(%(ok)r), attempt(%(evil)r), socket(%(ws)r)]).then(([ok, evil, ws]) => {
  new BroadcastChannel('guard').postMessage({from, ok, evil, ws, webrtc: typeof self.RTCPeerConnection});
});
"""


async def test_workers_of_every_kind_cannot_reach_another_origin(guarded, site, evil):
    site.route("/guard/worker.js", Response(WORKER_SCRIPT % {
        "ok": site.cross_site_url("/guard/from-worker"), "evil": evil.url("/guard/from-worker"),
        "ws": evil.url("/guard/ws-worker").replace("http", "ws"),
    }, content_type="application/javascript"))
    await open_page(guarded, site, "/guard/workers")
    got = await guarded.js(WORKERS)
    for kind in ("dedicated", "shared", "service"):
        assert got[kind] == {"from": kind, "ok": "reached", "evil": "failed: Failed to fetch", "ws": "error",
                             "webrtc": "undefined"}, kind
    assert reached(evil) == []


SOCKETS = """(async () => {
  const open = (url) => new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve('open');
    ws.onclose = (e) => resolve('closed ' + e.code);
  });
  return [await open(%r), await open(%r)];
})()"""


TRANSPORT = """(async () => {
  try {
    const t = new WebTransport(%r);
    await t.ready;
    return 'ready';
  } catch (e) { return e.name; }
})()"""


async def test_websockets_and_webtransport_reach_only_allowed_origins(guarded, site, evil):
    await open_page(guarded, site, "/guard/sockets")
    allowed = site.cross_site_url("/guard/ws-ok").replace("http", "ws")
    refused = evil.url("/guard/ws").replace("http", "ws")
    assert await guarded.js(SOCKETS % (allowed, refused)) == ["closed 1006", "closed 1006"]
    assert any(r.path == "/guard/ws-ok" and r.headers.get("Upgrade") == "websocket" for r in site.log)
    assert reached(evil) == []  # the proxy refused the connection: no handshake ever arrived

    # WebTransport is HTTP/3 over UDP, which no proxy carries: a guarded context sends none.
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.setblocking(False)
    try:
        port = udp.getsockname()[1]
        assert await guarded.js(TRANSPORT % f"https://127.0.0.1:{port}/") == "WebTransportError"
        with pytest.raises(BlockingIOError):
            udp.recv(2048)
    finally:
        udp.close()


RTC = """(async () => {
  const blank = document.createElement('iframe');
  document.body.append(blank);
  const out = {main: typeof window.RTCPeerConnection, webkit: typeof window.webkitRTCPeerConnection,
               blank: typeof blank.contentWindow.RTCPeerConnection};
  return out;
})()"""


async def test_webrtc_is_off_in_the_page_its_frames_and_popups(guarded, site, evil):
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.setblocking(False)
    try:
        site.route("/guard/rtc-frame", "<title>frame</title>")
        await open_page(guarded, site, "/guard/rtc", f"""<title>rtc</title>
            <iframe src="{site.cross_site_url('/guard/rtc-frame')}"></iframe>""")
        assert await guarded.js(RTC) == {"main": "undefined", "webkit": "undefined", "blank": "undefined"}
        await guarded.ok("frame_select", {"name_or_url": "/guard/rtc-frame"})  # out of process
        assert await guarded.js("typeof window.RTCPeerConnection") == "undefined"
        await guarded.ok("frame_select_main")
        await guarded.js("window.open('/guard/rtc-frame'); 1")
        with trio.fail_after(10):
            while (listing := await guarded.ok("tab_list"))["count"] < 2:
                await trio.sleep(0.05)
        await guarded.ok("tab_select", {"index": next(t["index"] for t in listing["tabs"] if t["index"] != 0)})
        await guarded.ok("wait_for_load", {"state": "load"})
        assert await guarded.js("typeof window.RTCPeerConnection") == "undefined"
        with pytest.raises(BlockingIOError):
            udp.recv(2048)  # nothing ever asked this port anything
    finally:
        udp.close()


async def test_a_blocklist_refuses_its_origins_and_lets_others_through(chromium, site, evil, tmp_path):
    evil.log.clear()
    guard = GuardConfig(blocked=parse_patterns([origin(evil.url())]))
    config = ServerConfig(browser_url=chromium.ws_url, isolated=True, output_dir=tmp_path / "out", guard=guard)
    async with Client(build_server(config)) as client:
        mcp = ToolClient(client)
        await open_page(mcp, site, "/guard/blocklist")
        got = await mcp.js(FETCHES % {"ok": site.cross_site_url("/guard/ok2"), "evil": evil.url("/guard/b")})
        assert got == {"ok": "opaque", "evil": "failed: Failed to fetch"}
        err = await mcp.fail("page_navigate", {"url": evil.url("/guard/b-nav")})
        assert err["code"] == "blocked_by_policy" and "--blocked-origins" in err["message"]
    assert reached(evil) == []
