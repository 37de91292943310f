"""Logged-in audits (#14 item 3): each form of ``auth`` gets past a site that sends anonymous
visitors to its login form, only the audited site sees the credentials, and the secret is in
no byte of the result or of the log."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any

import pytest

from a11y.login_runner import run_login_steps
from audit.engine import EngineLimits, audit_page, run_audit
from audit.failures import AuditFailed
from tests.audit.support import make_request
from tests.support.site import Request, Response, Site

LIMITS = EngineLimits(navigation_timeout=10, audit_timeout=60, login_runner=run_login_steps)
PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="
LOGIN_FORM = """<!doctype html><html lang=en><title>Sign in</title><main><h1>Sign in</h1>
<form method=post action="{action}"><label for=user>User</label><input id=user name=user>
<label for=pw>Password</label><input id=pw name=pw type=password>
<button id=go>Sign in</button></form></main></html>"""
# What only a signed-in visitor sees: an image without a text alternative, found as #private.
PRIVATE = """<!doctype html><html lang=en><title>Account</title><main><h1>Account</h1>
<img id=private src="{pixel}">{extra}</main></html>"""


def header(request: Request, name: str) -> str | None:
    return next((v for k, v in request.headers.items() if k.lower() == name.lower()), None)


def cookie(request: Request, name: str) -> str | None:
    jar = SimpleCookie(header(request, "Cookie") or "")
    return jar[name].value if name in jar else None


class PrivateSite:
    """Routes under ``/<prefix>/`` that redirect to a login form unless ``allowed(request)``."""

    def __init__(self, site: Site, prefix: str, allowed: Callable[[Request], bool]) -> None:
        self.site, self.prefix, self.allowed = site, prefix, allowed
        self.login = site.route(f"/{prefix}/login", LOGIN_FORM.format(action=f"/{prefix}/session"))

    def private(self, path: str, extra: str = "") -> str:
        page = PRIVATE.format(pixel=PIXEL, extra=extra)

        def serve(request: Request) -> Response:
            if self.allowed(request):
                return Response(page)
            return Response("", status=302, headers={"Location": f"/{self.prefix}/login"})

        return self.site.route(f"/{self.prefix}/{path}", serve)


def assert_no_secret(canary: str, caplog: Any, *texts: str) -> None:
    for text in texts:
        assert canary not in text
    assert caplog.records, "the audit logged nothing at DEBUG"
    assert canary not in caplog.text


def private_found(result: Any) -> list[str]:
    return [f.page_url for f in result.findings if f.selector == "#private"]


async def test_cookies_reach_the_private_page(browser, site, caplog):
    caplog.set_level(logging.DEBUG)
    canary = "cookie-" + secrets.token_hex(8)
    app = PrivateSite(site, "auth-cookie", lambda r: cookie(r, "session") == canary)
    url = app.private("home")
    result = await run_audit(browser, make_request(url, auth={"cookies": [{"name": "session", "value": canary}]}), LIMITS)
    assert private_found(result) == [url]
    anonymous = await run_audit(browser, make_request(url), LIMITS)
    assert private_found(anonymous) == []  # without the cookie: the login form
    assert_no_secret(canary, caplog, result.model_dump_json())


async def test_headers_reach_every_tab_of_a_crawl_and_no_other_site(browser, site, caplog):
    caplog.set_level(logging.DEBUG)
    canary = "header-" + secrets.token_hex(8)
    app = PrivateSite(site, "auth-header", lambda r: header(r, "Authorization") == f"Bearer {canary}")
    third = site.cross_site_url("/auth-header/third.png")
    site.route("/auth-header/third.png", Response(b"", content_type="image/png"))
    site.route("/auth-header/bounce", Response("", status=302, headers={"Location": third + "?hop"}))
    links = "".join(f"<a href='/auth-header/p{n}'>page {n}</a>" for n in range(2))
    extra = f"<img alt='' src='{third}'><img alt='' src='/auth-header/bounce'>{links}"
    url = app.private("start", extra)
    pages = [app.private(f"p{n}") for n in range(2)]
    before = len(site.log)
    request = make_request(url, crawl={"enabled": True, "depth": 1, "maxPages": 3},
                           auth={"headers": {"Authorization": f"Bearer {canary}", "X-Trace": "t"}})
    result = await run_audit(browser, request, LIMITS)
    assert sorted(private_found(result)) == sorted([url, *pages])
    seen = site.log[before:]
    assert any(r.path == "/auth-header/bounce" and header(r, "X-Trace") == "t" for r in seen)
    third_party = [r for r in seen if r.path == "/auth-header/third.png"]
    assert len(third_party) >= 2  # the image and the redirect's target
    for r in third_party:
        assert header(r, "Authorization") is None and header(r, "X-Trace") is None, r.headers
    assert_no_secret(canary, caplog, result.model_dump_json())


async def test_headers_through_the_private_network_guard(browser, site):
    canary = "guard-" + secrets.token_hex(8)
    app = PrivateSite(site, "auth-guard", lambda r: header(r, "Authorization") == f"Bearer {canary}")
    url = app.private("home")
    request = make_request(url, auth={"headers": {"Authorization": f"Bearer {canary}"}})
    limits = EngineLimits(navigation_timeout=10, audit_timeout=60, block_private_networks=True)
    audit = await audit_page(browser, url, request, limits, allow=[url])
    assert [f.selector for f in audit.findings if f.selector == "#private"] == ["#private"]


async def test_storage_state_restores_cookies_and_web_storage(browser, site, caplog):
    caplog.set_level(logging.DEBUG)
    canary = "state-" + secrets.token_hex(8)
    app = PrivateSite(site, "auth-state", lambda r: cookie(r, "state") == canary[::-1])
    # The page also wants both storages, or it leaves for the login form (checked reversed,
    # so that the secret itself is nowhere in the page).
    check = (f"<script>const want = '{canary[::-1]}'.split('').reverse().join('');"
             "if (localStorage.getItem('token') !== want || sessionStorage.getItem('tab') !== want)"
             " location.replace('/auth-state/login');</script>")
    url = app.private("home", check)
    origin = site.url("").rstrip("/")
    state = {
        "cookies": [
            {"name": "state", "value": canary[::-1], "domain": "127.0.0.1", "path": "/", "expires": -1,
             "httpOnly": True, "secure": False, "session": True, "sameSite": "Lax"},
            {"name": "elsewhere", "value": canary, "domain": "example.org", "path": "/"},
        ],
        "origins": [
            {"origin": origin, "localStorage": {"token": canary}, "sessionStorage": {"tab": canary}},
            {"origin": "https://example.org", "localStorage": {"other": canary}},
        ],
    }
    result = await run_audit(browser, make_request(url, auth={"storageState": state}), LIMITS)
    assert private_found(result) == [url]
    assert_no_secret(canary, caplog, result.model_dump_json())


def login_app(site: Site, prefix: str, canary: str) -> tuple[PrivateSite, list[Request]]:
    """A form login: the right password sets the session cookie."""
    posts: list[Request] = []
    app = PrivateSite(site, prefix, lambda r: cookie(r, "sid") == "signed-in")

    def session(request: Request) -> Response:
        posts.append(request)
        if f"pw={canary}" in request.body.decode():
            return Response("", status=303, headers={"Location": f"/{prefix}/home", "Set-Cookie": "sid=signed-in; Path=/"})
        return Response("", status=303, headers={"Location": f"/{prefix}/login"})

    site.route(f"/{prefix}/session", session)
    return app, posts


def login_steps(app: PrivateSite, canary: str, submit: str = "#go") -> list[dict[str, Any]]:
    return [
        {"tool": "page_navigate", "args": {"url": app.login}},
        {"tool": "element_fill", "args": {"selector": "#user", "value": "alice"}},
        {"tool": "element_fill", "args": {"selector": "#pw", "value": canary}},
        {"tool": "element_click", "args": {"selector": submit}},
        {"tool": "wait_for_selector", "args": {"selector": "#private"}},
    ]


async def test_login_steps_run_once_per_crawl(browser, site, caplog):
    caplog.set_level(logging.DEBUG)
    canary = "login-" + secrets.token_hex(8)
    app, posts = login_app(site, "auth-login", canary)
    url = app.private("home", "<a href='/auth-login/other'>other</a>")
    other = app.private("other")
    request = make_request(url, crawl={"enabled": True, "depth": 1, "maxPages": 3},
                           viewport="mobile", auth={"login": login_steps(app, canary)})
    result = await run_audit(browser, request, LIMITS)
    assert sorted(private_found(result)) == sorted([url, other])
    assert len(posts) == 1  # once for the whole crawl
    assert "Android" in (header(posts[0], "User-Agent") or "")  # at the audit's viewport
    assert_no_secret(canary, caplog, result.model_dump_json())


async def test_a_failing_login_step_is_named_and_keeps_the_secret(browser, site, caplog):
    caplog.set_level(logging.DEBUG)
    canary = "badlogin-" + secrets.token_hex(8)
    app, _ = login_app(site, "auth-badlogin", canary)
    url = app.private("home")
    steps = login_steps(app, canary, submit="#no-such-button")
    steps[3]["args"]["timeout_ms"] = 500
    with pytest.raises(AuditFailed) as caught:
        await run_audit(browser, make_request(url, auth={"login": steps}), LIMITS)
    failure = caught.value
    assert failure.code == "login_failed"
    assert "step 3 (element_click)" in failure.message
    assert failure.details[0]["field"] == "auth.login[3]" and failure.details[0]["tool"] == "element_click"
    assert_no_secret(canary, caplog, failure.message, repr(failure.details), str(failure))

    # A step whose error quotes the typed password (the page echoes it): cut from the message.
    quoting = [*steps[:3], {"tool": "js_evaluate", "args": {
        "script": "throw new Error('rejected ' + document.querySelector('#pw').value)"}}]
    with pytest.raises(AuditFailed) as caught:
        await run_audit(browser, make_request(url, auth={"login": quoting}), LIMITS)
    assert caught.value.code == "login_failed" and "step 3 (js_evaluate)" in caught.value.message
    assert "[redacted]" in caught.value.message
    assert_no_secret(canary, caplog, caught.value.message)

    # A front end without a runner refuses login steps rather than skipping them.
    with pytest.raises(AuditFailed) as caught:
        await run_audit(browser, make_request(url, auth={"login": steps}), EngineLimits(navigation_timeout=10))
    assert caught.value.code == "login_unsupported" and caught.value.details == [{"field": "auth.login"}]
