"""Putting what a browser context remembers of a site back into it: cookies, and each
origin's web storage.

One way to do it for both users: the audit's ``auth.storageState`` (:mod:`audit.auth`) and the
tools' storage state (``tools.state_snapshot``, which may import this floor; the audit may
never import the tools). Cookies go through the Storage domain, scoped to one context.
localStorage belongs to an origin, so it is written from a document of that origin: a hidden
background tab whose every request is answered here, never by the network (the origin's
server is not contacted, and nothing of the state leaves the browser). sessionStorage belongs
to a tab: it is filled by an init script before the page's own scripts run, on the tab's
next document of that origin, and the script is removed once that document exists.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import trio

from cdpdriver import Browser, CDPError, Page
from cdpdriver.scripts import call_expression, load_script

from .request_options import site_origin

log = logging.getLogger(__name__)

PAGE_TIMEOUT = 10.0
BLANK_DOCUMENT = "<!doctype html><title>storage</title>"

#: ``scheme://host[:port]`` of an http(s) URL, default port dropped; None for anything else.
url_origin = site_origin


def cookie_param(cookie: Mapping[str, Any]) -> dict[str, Any]:
    """CDP ``CookieParam`` from a cookie's JSON fields; a host-only cookie stays host-only
    (set by ``url``), and a session cookie (``session``, or ``expires`` -1) gets no expiry."""
    param = {k: cookie[k] for k in ("name", "value", "path", "secure", "httpOnly", "sameSite", "partitionKey")
             if cookie.get(k) is not None}
    expires = cookie.get("expires")
    if expires is not None and expires > 0 and not cookie.get("session"):
        param["expires"] = expires
    domain = cookie.get("domain") or ""
    if cookie.get("url"):
        param["url"] = cookie["url"]
        if domain:
            param["domain"] = domain
    elif domain.startswith("."):
        param["domain"] = domain
        param.setdefault("path", "/")
    else:
        scheme = "https" if cookie.get("secure") else "http"
        param["url"] = f"{scheme}://{domain}{cookie.get('path') or '/'}"
    return param


def context_param(context_id: str | None) -> dict[str, Any]:
    """The ``browserContextId`` parameter that keeps a Storage call inside one context."""
    return {"browserContextId": context_id} if context_id else {}


async def set_context_cookies(browser: Browser, context_id: str | None, params: list[dict[str, Any]]) -> None:
    """Set CDP ``CookieParam``s in the context; the browser's refusal is a ``CDPError``
    (whose message never holds a cookie's value)."""
    if params:
        await browser.session.send(
            "Storage.setCookies", {"cookies": params, **context_param(context_id)}, timeout=PAGE_TIMEOUT
        )


async def run_web_storage(page: Page, area: str, op: str, key: str | None = None, value: Any = None) -> dict[str, Any]:
    """One operation on ``area`` of the page's origin; the raw result of ``web_storage.js``."""
    expression = call_expression(load_script("audit", "web_storage"), area, op, key, value)
    return await page.evaluate(expression, timeout=PAGE_TIMEOUT)


@asynccontextmanager
async def origin_tab(browser: Browser, context_id: str | None, origin: str) -> AsyncIterator[Page]:
    """A hidden background tab of the context showing an empty document of ``origin``; every
    request it makes is answered here (the document, or a refusal), none reaches a network."""
    created = await browser.session.send("Target.createTarget", {
        "url": "about:blank", "background": True, **context_param(context_id)}, timeout=PAGE_TIMEOUT)
    page = await browser.attach_page(created["targetId"], context_id=context_id, auto_attach=False)
    scope = trio.CancelScope()
    try:
        events = page.session.listen(["Fetch.requestPaused"], raw=True)
        browser.start_task(_serve_blank, page, events, scope, origin + "/")
        await page.session.send("Network.setBypassServiceWorker", {"bypass": True}, timeout=PAGE_TIMEOUT)
        await page.session.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]}, timeout=PAGE_TIMEOUT)
        await page.navigate(origin + "/", wait_until="domcontentloaded", timeout=PAGE_TIMEOUT)
        yield page
    finally:
        scope.cancel()
        await page.close()


async def _serve_blank(page: Page, events: Any, scope: trio.CancelScope, url: str) -> None:
    """Answer the hidden tab's requests: the blank document for ``url``, nothing else."""
    body = base64.b64encode(BLANK_DOCUMENT.encode()).decode()
    with scope, events:
        async for event in events:
            request_id = event.params.get("requestId")
            with trio.CancelScope(shield=True), trio.move_on_after(PAGE_TIMEOUT):
                try:
                    if (event.params.get("request") or {}).get("url") == url:
                        await page.session.send("Fetch.fulfillRequest", {
                            "requestId": request_id, "responseCode": 200, "body": body,
                            "responseHeaders": [{"name": "Content-Type", "value": "text/html"}]})
                    else:
                        await page.session.send("Fetch.failRequest",
                                                {"requestId": request_id, "errorReason": "BlockedByClient"})
                except CDPError as exc:
                    log.debug("hidden storage tab: %s", exc)


async def write_local_storage(browser: Browser, context_id: str | None, origin: str, items: dict[str, str]) -> None:
    """Merge ``items`` into ``origin``'s localStorage in the context, through a hidden tab."""
    async with origin_tab(browser, context_id, origin) as page:
        await run_web_storage(page, "localStorage", "merge", None, items)
        # Read back: the write has reached the storage service before the tab closes.
        await run_web_storage(page, "localStorage", "list")


async def session_storage_on_arrival(page: Page, origin: str, items: dict[str, str]) -> None:
    """Fill the tab's sessionStorage, before the page's scripts run, on its next document of
    ``origin``; the init script is removed once that document exists."""
    source = call_expression(load_script("audit", "session_storage_arrival"), origin, items)
    events = page.session.listen(["Page.frameNavigated"], raw=True)
    try:
        reply = await page.session.send("Page.addScriptToEvaluateOnNewDocument", {"source": source},
                                        timeout=PAGE_TIMEOUT)
    except BaseException:
        events.close()
        raise
    page.browser.start_task(_forget_after_arrival, page, events, reply["identifier"], origin)


async def _forget_after_arrival(page: Page, events: Any, identifier: str, origin: str) -> None:
    with events:
        async for event in events:
            frame = event.params.get("frame") or {}
            if not frame.get("parentId") and url_origin(frame.get("url", "")) == origin:
                break
        else:
            return  # the tab closed first
    try:
        await page.session.send("Page.removeScriptToEvaluateOnNewDocument", {"identifier": identifier},
                                timeout=PAGE_TIMEOUT)
    except CDPError as exc:
        log.debug("could not remove the sessionStorage script: %s", exc)
