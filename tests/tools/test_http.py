"""http_request: fetch from the page with the session's cookies; checked on the server side."""

from __future__ import annotations

import json

from tests.support.site import Request, Response


def _echo(request: Request) -> Response:
    return Response(json.dumps({"method": request.method, "body": request.body.decode()}),
                    content_type="application/json", headers={"X-Echo": "yes"})


async def test_get_carries_session_cookies(mcp, site):
    site.route("/http/me", _echo)
    await mcp.ok("page_navigate", {"url": site.route("/http/home", "<title>Home</title>")})
    await mcp.js("document.cookie = 'sid=abc123; path=/'; 0")
    before = len(site.log)
    data = await mcp.ok("http_request", {"url": site.url("/http/me"), "headers": {"X-Trace": "t-1"}})
    assert data["status"] == 200 and data["statusText"] == "OK"
    assert json.loads(data["body"]) == {"method": "GET", "body": ""}
    assert data["headers"]["x-echo"] == "yes" and data["headers"]["content-type"] == "application/json"
    assert data["truncated"] is False and data["url"] == site.url("/http/me")
    sent = [r for r in site.log[before:] if r.path == "/http/me"][-1]
    assert "sid=abc123" in sent.headers.get("Cookie", "")
    assert sent.headers.get("X-Trace") == "t-1"
    relative = await mcp.ok("http_request", {"url": "/http/me"})
    assert relative["url"] == site.url("/http/me")


async def test_post_body_and_content_type_arrive(mcp, site):
    site.route("/http/echo", _echo)
    await mcp.ok("page_navigate", {"url": site.route("/http/post-home", "<p>x</p>")})
    before = len(site.log)
    data = await mcp.ok("http_request", {"url": site.url("/http/echo"), "method": "post",
                                         "content_type": "application/json", "body": '{"name": "Ada"}'})
    assert json.loads(data["body"]) == {"method": "POST", "body": '{"name": "Ada"}'}
    sent = [r for r in site.log[before:] if r.path == "/http/echo"][-1]
    assert sent.method == "POST" and sent.body == b'{"name": "Ada"}'
    assert sent.headers["Content-Type"] == "application/json"


async def test_long_body_truncated_redirect_and_status(mcp, site):
    site.route("/http/long", Response("x" * 20000, content_type="text/plain"))
    site.route("/http/old", Response("", status=302, headers={"Location": "/http/long"}))
    site.route("/http/teapot", Response("short and stout", status=418))
    await mcp.ok("page_navigate", {"url": site.route("/http/long-home", "<p>x</p>")})
    data = await mcp.ok("http_request", {"url": site.url("/http/old")})
    assert data["truncated"] is True and len(data["body"]) == 8192 and data["body_length"] == 20000
    assert data["url"] == site.url("/http/long")
    data = await mcp.ok("http_request", {"url": "/http/long", "max_body_length": 100})
    assert len(data["body"]) == 100
    data = await mcp.ok("http_request", {"url": "/http/long", "max_body_length": 0})
    assert len(data["body"]) == 20000 and data["truncated"] is False
    data = await mcp.ok("http_request", {"url": "/http/teapot"})
    assert data["status"] == 418 and data["body"] == "short and stout"


async def test_errors_explain_origin_and_arguments(mcp, site):
    err = await mcp.fail("http_request", {"url": site.url("/http/me")})  # from about:blank
    assert err["code"] == "request_failed" and "page_navigate" in err["message"]
    await mcp.ok("page_navigate", {"url": site.route("/http/err-home", "<p>x</p>")})
    err = await mcp.fail("http_request", {"url": site.cross_site_url("/http/me")})
    assert err["code"] == "request_failed" and "CORS" in err["message"]
    site.route("/http/slow", Response("late", delay=1))
    err = await mcp.fail("http_request", {"url": "/http/slow", "timeout_ms": 200})
    assert err["code"] == "timeout"
    err = await mcp.fail("http_request", {"url": "/x", "body": "data"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "body"
    err = await mcp.fail("http_request", {"url": "/x", "method": "FETCH"})
    assert err["details"][0]["field"] == "method"
