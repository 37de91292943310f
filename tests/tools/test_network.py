"""network_: request log with filters, mocked responses (routes), offline mode."""

from __future__ import annotations

from tests.support.site import Response


def fetch(url: str, init: str = "{}") -> str:
    """A page-side fetch that reports status, body, content type and X-Mock, or the error."""
    return f"""(async () => {{
      try {{
        const r = await fetch({url!r}, {init});
        return {{status: r.status, body: await r.text(), type: r.headers.get('content-type'),
                custom: r.headers.get('x-mock')}};
      }} catch (e) {{ return {{error: String(e)}}; }}
    }})()"""


async def test_route_mocks_fetch_status_body_type_and_header(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/net/page", "<title>net</title>")})
    data = await mcp.ok("network_route", {
        "pattern": "**/net/api/user*", "status": 201, "body": '{"name": "Ada"}',
        "headers": {"X-Mock": "yes"},
    })
    assert data["pattern"] == "**/net/api/user*"
    got = await mcp.js(fetch("/net/api/user?id=7"))
    assert got == {"status": 201, "body": '{"name": "Ada"}', "type": "application/json", "custom": "yes"}
    # The mocked request never reached the server, and it is in the request log with its status.
    assert not [r for r in site.log if r.path.startswith("/net/api/user")]
    logged = await mcp.ok("network_get_requests", {"url_pattern": "*/net/api/user*"})
    assert [(r["status"], r["resource_type"]) for r in logged["requests"]] == [(201, "Fetch")]


async def test_newest_route_wins_and_unroute_restores_the_real_response(mcp, site):
    real = site.route("/net/real", Response('{"real": true}', content_type="application/json"))
    await mcp.ok("page_navigate", {"url": site.route("/net/page2", "<p>x</p>")})
    await mcp.ok("network_route", {"pattern": "/net/", "body": "broad"})
    await mcp.ok("network_route", {"pattern": r"/\/net\/real$/", "body": "narrow", "content_type": "text/plain"})
    listed = await mcp.ok("network_list_routes")
    assert listed["count"] == 2
    assert listed["routes"][1] == {"pattern": r"/\/net\/real$/", "status": 200, "content_type": "text/plain"}
    assert (await mcp.js(fetch(real)))["body"] == "narrow"
    assert (await mcp.js(fetch("/net/other")))["body"] == "broad"

    await mcp.ok("network_unroute", {"pattern": r"/\/net\/real$/"})
    assert (await mcp.js(fetch(real)))["body"] == "broad"
    await mcp.ok("network_unroute", {"pattern": "/net/"})
    assert (await mcp.js(fetch(real)))["body"] == '{"real": true}'
    assert (await mcp.ok("network_list_routes"))["count"] == 0

    err = await mcp.fail("network_unroute", {"pattern": "/net/"})
    assert err["code"] == "not_found"


async def test_route_before_navigation_mocks_the_document_and_cross_origin_fetch(mcp, site):
    await mcp.ok("network_route", {"pattern": "*/net/mocked-doc", "content_type": "text/html",
                                   "body": "<title>Mocked doc</title><p>hello</p>"})
    api = site.cross_site_url("/net/cross-api")
    await mcp.ok("network_route", {"pattern": api, "body": "[1,2]", "headers": {"X-Mock": "cors"}})
    page = await mcp.ok("page_navigate", {"url": site.url("/net/mocked-doc")})
    assert page["title"] == "Mocked doc" and page["status"] == 200
    got = await mcp.js(fetch(api, "{credentials: 'include', headers: {'X-Custom': '1'}}"))
    assert got == {"status": 200, "body": "[1,2]", "type": "application/json", "custom": "cors"}


async def test_routes_reach_out_of_process_iframes(mcp, site):
    frame = site.cross_site_url("/net/frame")
    site.route("/net/frame", """<script>
      fetch('/net/frame-api').then(r => r.text()).then(t => parent.postMessage(t, '*'));
    </script>""")
    outer = site.route("/net/outer", f"""<script>
      window.got = new Promise(res => addEventListener('message', e => res(e.data)));
    </script><iframe src="{frame}"></iframe>""")
    await mcp.ok("network_route", {"pattern": "**/net/frame-api", "body": "from the mock"})
    await mcp.ok("page_navigate", {"url": outer})
    assert await mcp.js("window.got") == "from the mock"


async def test_offline_makes_fetch_fail_and_back(mcp, site):
    api = site.route("/net/ping", Response("pong", content_type="text/plain"))
    await mcp.ok("page_navigate", {"url": site.route("/net/page3", "<p>x</p>")})
    data = await mcp.ok("network_set_offline", {"offline": True})
    assert data["offline"] is True
    assert "error" in await mcp.js(fetch(api))
    assert await mcp.js("navigator.onLine") is False
    failed = await mcp.ok("network_get_requests", {"url_pattern": "/net/ping"})
    assert failed["requests"][-1]["failed"] is True
    assert "INTERNET_DISCONNECTED" in failed["requests"][-1]["error_text"]
    data = await mcp.ok("network_set_offline", {"offline": False})
    assert data["offline"] is False
    assert (await mcp.js(fetch(api)))["body"] == "pong"


async def test_get_requests_filters_by_glob_regex_method_and_type(mcp, site):
    site.route("/net/f/app.js", Response("window.loaded = 1", content_type="application/javascript"))
    site.route("/net/f/data", Response("{}", content_type="application/json"))
    page = site.route("/net/f/page", '<script src="/net/f/app.js"></script>')
    await mcp.ok("page_navigate", {"url": page})
    await mcp.js(fetch("/net/f/data"))
    await mcp.js(fetch("/net/f/data", "{method: 'POST', body: 'x'}"))

    every = await mcp.ok("network_get_requests")
    kinds = {(r["url"].rsplit("/", 1)[-1], r["method"], r["resource_type"]) for r in every["requests"]}
    assert {("page", "GET", "Document"), ("app.js", "GET", "Script"),
            ("data", "GET", "Fetch"), ("data", "POST", "Fetch")} <= kinds
    assert all(r["request_id"] for r in every["requests"])

    by_glob = await mcp.ok("network_get_requests", {"url_pattern": "**/net/f/*.js"})
    assert [r["url"] for r in by_glob["requests"]] == [site.url("/net/f/app.js")]
    by_regex = await mcp.ok("network_get_requests", {"url_pattern": "/f/(data|page)$/"})
    assert {r["url"] for r in by_regex["requests"]} == {site.url("/net/f/data"), page}
    posts = await mcp.ok("network_get_requests", {"method": "post"})
    assert [(r["method"], r["status"]) for r in posts["requests"]] == [("POST", 200)]
    scripts = await mcp.ok("network_get_requests", {"resource_type": "script"})
    assert scripts["count"] == 1 and scripts["requests"][0]["response_size"] > 0
    limited = await mcp.ok("network_get_requests", {"url_pattern": "/net/f/data", "limit": 1})
    assert limited["count"] == 1 and limited["total_matched"] == 2
    assert limited["requests"][0]["method"] == "POST"

    await mcp.ok("network_get_requests", {"resource_type": "Fetch", "clear": True})
    assert (await mcp.ok("network_get_requests"))["count"] == 0
    await mcp.js(fetch("/net/f/data"))
    assert (await mcp.ok("network_clear"))["cleared"] == 1
    assert (await mcp.ok("network_get_requests"))["count"] == 0


async def test_bad_network_arguments(mcp):
    err = await mcp.fail("network_get_requests", {"url_pattern": "/(unclosed/"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "url_pattern"
    err = await mcp.fail("network_get_requests", {"resource_type": "Spreadsheet"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "resource_type"
    err = await mcp.fail("network_route", {"pattern": "*", "status": 42})
    assert err["details"][0]["field"] == "status"
    err = await mcp.fail("network_route", {"pattern": "*", "headers": {"Bad Name": "x"}})
    assert err["details"][0]["field"] == "headers"
    err = await mcp.fail("network_set_offline", {})
    assert err["details"][0]["field"] == "offline"


async def test_routes_and_offline_apply_to_tabs_opened_later(mcp, site):
    await mcp.ok("network_route", {"pattern": "**/net/new-tab-doc", "content_type": "text/html",
                                   "body": "<title>Mocked tab</title>"})
    await mcp.ok("page_new", {"url": site.url("/net/new-tab-doc")})
    assert await mcp.js("document.title") == "Mocked tab"
    await mcp.ok("network_set_offline", {"offline": True})
    await mcp.ok("page_new", {})
    assert await mcp.js("navigator.onLine") is False
    await mcp.ok("network_set_offline", {"offline": False})
    assert await mcp.js("navigator.onLine") is True


async def test_unroute_with_requests_in_flight_strands_none(mcp, site):
    site.route("/net/busy", Response("real", content_type="text/plain"))
    await mcp.ok("page_navigate", {"url": site.route("/net/busy-page", "<p>busy</p>")})
    await mcp.ok("network_route", {"pattern": "*/net/busy?*", "body": "mock", "content_type": "text/plain"})
    await mcp.js("void (window.all = Promise.all(Array.from({length: 60}, "
                 "(_, i) => fetch('/net/busy?' + i).then(r => r.text()))))")
    await mcp.ok("network_unroute", {"pattern": "*/net/busy?*"})
    bodies = await mcp.js("Promise.race([window.all, new Promise(r => setTimeout(() => r('stuck'), 8000))])")
    assert bodies != "stuck" and len(bodies) == 60 and set(bodies) <= {"mock", "real"}
