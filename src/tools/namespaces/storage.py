"""storage_: cookies, localStorage and sessionStorage, and the whole storage state.

Cookies are read and written for the session's browser context through the
Storage domain. Web storage is read and written by script in the page, for the
current page's origin. The storage state (cookies plus per-origin storages) is
one JSON document that ``storage_set_state`` and ``state_load`` restore; the
capture and restore functions here are the only implementation of it.
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

import trio
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from cdpdriver import CDPError, Page

from ..errors import ToolError
from ..models import MessageOutput, NoInput, ToolInput, ToolOutput
from ..registry import tool
from ..session import ToolSession, log
from ..tab import Tab

PAGE_TIMEOUT = 10.0
MAX_EXTRA_ORIGINS = 20        # origins from history read through a background tab, at most
SAME_SITE = {"strict": "Strict", "lax": "Lax", "none": "None"}
COOKIE_FIELDS = ("name", "value", "domain", "path", "expires", "httpOnly", "secure", "session", "sameSite",
                 "partitionKey")
BLANK_DOCUMENT = "<!doctype html><title>storage</title>"


# -- page-side web storage ------------------------------------------------------------------

# One function for every web-storage operation; it never throws for a missing key.
WEB_STORAGE_JS = """(area, op, key, value) => {
  if (!location.origin || location.origin === 'null') return {opaque: location.href};
  let store;
  try { store = window[area]; } catch (e) { return {denied: String(e), origin: location.origin}; }
  const items = () => {
    const out = {};
    for (let i = 0; i < store.length; i++) { const k = store.key(i); out[k] = store.getItem(k); }
    return out;
  };
  const result = {origin: location.origin};
  switch (op) {
    case 'get': result.value = store.getItem(key); break;
    case 'set': store.setItem(key, value); break;
    case 'delete': result.existed = store.getItem(key) !== null; store.removeItem(key); break;
    case 'clear': result.cleared = store.length; store.clear(); break;
    case 'list': result.items = items(); break;
    case 'merge': for (const [k, v] of Object.entries(value)) store.setItem(k, String(v)); break;
  }
  return result;
}"""


async def _run_web_storage(page: Page, area: str, op: str, key: str | None = None, value: Any = None) -> dict[str, Any]:
    arguments = ", ".join(json.dumps(a) for a in (area, op, key, value))
    return await page.evaluate(f"({WEB_STORAGE_JS})({arguments})", timeout=PAGE_TIMEOUT)


async def web_storage(session: ToolSession, area: str, op: str, key: str | None = None,
                      value: Any = None) -> dict[str, Any]:
    """Run one operation on the current page's storage; an origin-less page is a clear error."""
    tab = await session.tab()
    if tab.dialog is not None:
        raise ToolError("dialog_open", f"a {tab.dialog.type} dialog is open; call dialog_handle first")
    result = await _run_web_storage(tab.page, area, op, key, value)
    if "opaque" in result:
        raise ToolError("not_found", (
            f"the current page ({result['opaque']}) has no origin, so it has no {area}; "
            "navigate to a page of the site first (page_navigate)"))
    if "denied" in result:
        raise ToolError("not_found", f"{area} is not available on {result['origin']}: {result['denied']}")
    return result


async def page_origin(page: Page) -> str | None:
    """The page's origin, or None for about:blank, data: and pages that do not answer."""
    try:
        origin = await page.evaluate("location.origin", timeout=5)
    except CDPError:
        return None
    return origin if isinstance(origin, str) and origin not in ("", "null") else None


def url_origin(url: str) -> str | None:
    """scheme://host[:port] of an http(s) URL (default ports dropped), else None."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    default = {"http": 80, "https": 443}[parts.scheme]
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    return f"{parts.scheme}://{host}{port}"


# -- the web-storage tools: one table, ten tools -----------------------------------------------


class KeyInput(ToolInput):
    key: str = Field(description="Storage key")


class KeyValueInput(ToolInput):
    key: str = Field(description="Storage key")
    value: str = Field(description="Value to store (a string; JSON-encode objects yourself)")


class StorageGetOutput(ToolOutput):
    key: str
    value: str | None = Field(description="The stored string, or null when the key is missing")
    origin: str = Field(description="Origin whose storage was read")


class StorageSetOutput(MessageOutput):
    origin: str


class StorageDeleteOutput(MessageOutput):
    existed: bool = Field(description="Whether the key was there")
    origin: str


class StorageClearOutput(MessageOutput):
    cleared: int = Field(description="Items removed")
    origin: str


class StorageListOutput(ToolOutput):
    items: dict[str, str] = Field(description="Every key and value")
    count: int
    origin: str


@dataclass(frozen=True)
class WebStorageOp:
    input: type[BaseModel]
    output: type[BaseModel]
    doc: str
    shape: Callable[[BaseModel, dict[str, Any], str], BaseModel]


WEB_STORAGE_KINDS = {"local": "localStorage", "session": "sessionStorage"}
WEB_STORAGE_OPS: dict[str, WebStorageOp] = {
    "get": WebStorageOp(
        KeyInput, StorageGetOutput,
        "Read one {area} item of the current page's origin. A missing key gives value null, not an error.",
        lambda a, r, area: StorageGetOutput(key=a.key, value=r.get("value"), origin=r["origin"])),
    "set": WebStorageOp(
        KeyValueInput, StorageSetOutput,
        "Store a string under key in {area} of the current page's origin (overwrites). The page must be "
        "on the site (not about:blank); reload if the app reads it only at start-up.",
        lambda a, r, area: StorageSetOutput(message=f"{area}[{a.key!r}] set on {r['origin']}",
                                            origin=r["origin"])),
    "delete": WebStorageOp(
        KeyInput, StorageDeleteOutput,
        "Remove one key from {area} of the current page's origin; existed tells whether it was there.",
        lambda a, r, area: StorageDeleteOutput(
            message=f"{area}[{a.key!r}] {'removed' if r['existed'] else 'was not set'} on {r['origin']}",
            existed=r["existed"], origin=r["origin"])),
    "clear": WebStorageOp(
        NoInput, StorageClearOutput,
        "Remove every {area} item of the current page's origin; cleared says how many.",
        lambda a, r, area: StorageClearOutput(message=f"cleared {r['cleared']} {area} items on {r['origin']}",
                                              cleared=r["cleared"], origin=r["origin"])),
    "list": WebStorageOp(
        NoInput, StorageListOutput,
        "List every {area} key and value of the current page's origin.",
        lambda a, r, area: StorageListOutput(items=r["items"], count=len(r["items"]), origin=r["origin"])),
}


def _declare_web_storage_tool(kind: str, op: str) -> None:
    spec, area = WEB_STORAGE_OPS[op], WEB_STORAGE_KINDS[kind]

    async def handler(session: ToolSession, args: Any) -> BaseModel:
        key, value = getattr(args, "key", None), getattr(args, "value", None)
        return spec.shape(args, await web_storage(session, area, op, key, value), area)

    handler.__name__ = handler.__qualname__ = f"storage_{kind}_{op}"
    handler.__doc__ = spec.doc.format(area=area)
    tool(f"storage_{kind}_{op}", spec.input, spec.output)(handler)


for _kind in WEB_STORAGE_KINDS:
    for _op in WEB_STORAGE_OPS:
        _declare_web_storage_tool(_kind, _op)


# -- cookies ----------------------------------------------------------------------------------


class Cookie(ToolInput):
    """A cookie as storage_get_cookies returns it and storage_set_cookies takes it."""

    name: str = Field(min_length=1, description="Cookie name")
    value: str = Field(description="Cookie value")
    url: str | None = Field(default=None, description="URL the cookie is for (gives domain, path and scheme)")
    domain: str | None = Field(default=None, description="Domain; a leading dot also covers subdomains")
    path: str | None = Field(default=None, description="Path, default /")
    expires: float | None = Field(default=None, description="Expiry in seconds since the epoch; omit for a session cookie")
    httpOnly: bool | None = Field(default=None, description="Hidden from page scripts")
    secure: bool | None = Field(default=None, description="Sent over HTTPS only")
    sameSite: Literal["Strict", "Lax", "None"] | None = Field(default=None, description="Strict, Lax or None (any case)")
    session: bool | None = Field(default=None, description="True for a session cookie (expires is then ignored)")
    partitionKey: dict[str, Any] | None = Field(default=None, description="CHIPS partition, as storage_get_cookies returns it")

    @field_validator("sameSite", mode="before")
    @classmethod
    def _same_site_any_case(cls, value: Any) -> Any:
        return SAME_SITE.get(value.lower(), value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _needs_url_or_domain(self) -> Cookie:
        if not self.url and not self.domain:
            raise ValueError(f"cookie {self.name!r} needs url or domain")
        if self.url and not urlsplit(self.url).scheme:
            raise ValueError(f"cookie {self.name!r}: url must be absolute, e.g. https://example.com/")
        if self.sameSite == "None" and self.secure is False:
            raise ValueError(f"cookie {self.name!r}: sameSite None needs secure true")
        return self


def cookie_param(cookie: dict[str, Any]) -> dict[str, Any]:
    """CDP CookieParam from a cookie dict; a host-only cookie keeps being host-only (set by url)."""
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


def cookie_view(cookie: dict[str, Any]) -> dict[str, Any]:
    """The fields an agent needs; the result can be passed back to storage_set_cookies."""
    return {k: cookie[k] for k in COOKIE_FIELDS if cookie.get(k) is not None}


def _context(session: ToolSession) -> dict[str, Any]:
    return {"browserContextId": session.context_id} if session.context_id else {}


async def context_cookies(session: ToolSession) -> list[dict[str, Any]]:
    """Every cookie of the session's browser context."""
    browser = await session.ensure_browser()
    reply = await browser.session.send("Storage.getCookies", _context(session), timeout=PAGE_TIMEOUT)
    return [cookie_view(c) for c in reply.get("cookies", [])]


async def set_cookies(session: ToolSession, cookies: list[dict[str, Any]]) -> None:
    if not cookies:
        return
    browser = await session.ensure_browser()
    params = {"cookies": [cookie_param(c) for c in cookies], **_context(session)}
    try:
        await browser.session.send("Storage.setCookies", params, timeout=PAGE_TIMEOUT)
    except CDPError as exc:
        raise ToolError("invalid_arguments", f"the browser refused the cookies: {exc}") from None


async def clear_cookies(session: ToolSession) -> int:
    count = len(await context_cookies(session))
    browser = await session.ensure_browser()
    await browser.session.send("Storage.clearCookies", _context(session), timeout=PAGE_TIMEOUT)
    return count


class GetCookiesInput(ToolInput):
    urls: list[str] | None = Field(default=None, description=(
        "Only cookies that would be sent to these URLs; omit for every cookie of the browser context"))

    @field_validator("urls")
    @classmethod
    def _absolute(cls, urls: list[str] | None) -> list[str] | None:
        for url in urls or []:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
                raise ValueError(f"{url!r} is not an absolute http(s) URL")
        return urls


class CookiesOutput(ToolOutput):
    cookies: list[dict[str, Any]] = Field(description=(
        "name, value, domain, path, expires, httpOnly, secure, session, sameSite (accepted back by storage_set_cookies)"))
    count: int


@tool("storage_get_cookies", GetCookiesInput, CookiesOutput)
async def storage_get_cookies(session: ToolSession, args: GetCookiesInput) -> CookiesOutput:
    """List cookies: with urls, those the browser would send to those URLs; without, every cookie
    of this browser context (all sites). httpOnly cookies are included."""
    if args.urls:
        tab = await session.tab()
        reply = await tab.session.send("Network.getCookies", {"urls": args.urls}, timeout=PAGE_TIMEOUT)
        cookies = [cookie_view(c) for c in reply.get("cookies", [])]
    else:
        cookies = await context_cookies(session)
    return CookiesOutput(cookies=cookies, count=len(cookies))


class SetCookiesInput(ToolInput):
    cookies: list[Cookie] = Field(min_length=1, description="Cookies to set; each needs url or domain")


class CountOutput(MessageOutput):
    count: int


@tool("storage_set_cookies", SetCookiesInput, CountOutput)
async def storage_set_cookies(session: ToolSession, args: SetCookiesInput) -> CountOutput:
    """Set cookies in this browser context (overwriting same name, domain and path). Each needs url
    or domain; a cookie with url only is host-only. They are sent from the next request on."""
    await set_cookies(session, [c.model_dump(exclude_none=True) for c in args.cookies])
    return CountOutput(message=f"set {len(args.cookies)} cookies", count=len(args.cookies))


class DeleteCookieInput(ToolInput):
    name: str = Field(min_length=1, description="Cookie name")
    domain: str | None = Field(default=None, description="Only on this domain (a leading dot is ignored)")
    path: str | None = Field(default=None, description="Only with this exact path")


@tool("storage_delete_cookie", DeleteCookieInput, CountOutput)
async def storage_delete_cookie(session: ToolSession, args: DeleteCookieInput) -> CountOutput:
    """Delete the cookies named name (optionally only on domain and path); count says how many went.
    Deleting a cookie that does not exist is not an error (count 0)."""
    wanted = (args.domain or "").lstrip(".").lower()
    doomed = [c for c in await context_cookies(session)
              if c["name"] == args.name
              and (not wanted or c.get("domain", "").lstrip(".").lower() == wanted)
              and (args.path is None or c.get("path") == args.path)]
    tab = await session.tab()
    for cookie in doomed:
        params = {"name": cookie["name"], "domain": cookie.get("domain"), "path": cookie.get("path")}
        if cookie.get("partitionKey"):
            params["partitionKey"] = cookie["partitionKey"]
        await tab.session.send("Network.deleteCookies", params, timeout=PAGE_TIMEOUT)
    return CountOutput(message=f"deleted {len(doomed)} cookies named {args.name!r}", count=len(doomed))


@tool("storage_clear_cookies", NoInput, CountOutput)
async def storage_clear_cookies(session: ToolSession, args: NoInput) -> CountOutput:
    """Delete every cookie of this browser context (all sites); count says how many there were."""
    count = await clear_cookies(session)
    return CountOutput(message=f"cleared {count} cookies", count=count)


class ClearAllOutput(MessageOutput):
    cookies_cleared: int
    origins: list[str] = Field(description="Origins whose localStorage and sessionStorage were cleared")


async def known_origins(session: ToolSession) -> list[str]:
    """http(s) origins the tabs show or have shown (their back/forward history), current tab first."""
    found: list[str] = []
    tabs = [t for t in session.tabs if not t.page.is_closed]
    if session.tabs and 0 <= session.current < len(session.tabs):
        current = session.tabs[session.current]
        tabs = [current] + [t for t in tabs if t is not current]
    for tab in tabs:
        try:
            history = await tab.session.send("Page.getNavigationHistory", timeout=5)
        except CDPError:
            continue
        entries = history.get("entries", [])
        index = history.get("currentIndex", 0)
        ordered = entries[index:index + 1] + entries[:index] + entries[index + 1:]
        for entry in ordered:
            origin = url_origin(entry.get("url", ""))
            if origin and origin not in found:
                found.append(origin)
    return found


@tool("storage_clear_all", NoInput, ClearAllOutput)
async def storage_clear_all(session: ToolSession, args: NoInput) -> ClearAllOutput:
    """Clear all cookies of the browser context, localStorage of every origin the tabs show or have
    visited, and sessionStorage of the pages the tabs show. Use it for a logged-out, first-visit
    state; reload afterwards."""
    tab = await session.tab()
    cookies = await clear_cookies(session)
    origins = await known_origins(session)
    for origin in origins:
        try:
            await tab.session.send("Storage.clearDataForOrigin",
                                   {"origin": origin, "storageTypes": "local_storage"}, timeout=PAGE_TIMEOUT)
        except CDPError as exc:
            log.debug("clearing %s failed: %s", origin, exc)
    for open_tab in [t for t in session.tabs if not t.page.is_closed and t.dialog is None]:
        if await page_origin(open_tab.page):
            for area in WEB_STORAGE_KINDS.values():
                await _run_web_storage(open_tab.page, area, "clear")
    return ClearAllOutput(message=f"cleared {cookies} cookies and the storage of {len(origins)} origins",
                          cookies_cleared=cookies, origins=origins)


# -- the whole storage state ----------------------------------------------------------------


class OriginState(BaseModel):
    model_config = ConfigDict(extra="ignore")

    origin: str = Field(description="scheme://host[:port]")
    localStorage: dict[str, str] = Field(default_factory=dict)
    sessionStorage: dict[str, str] = Field(default_factory=dict, description="Only for the current page's origin")

    @field_validator("localStorage", "sessionStorage", mode="before")
    @classmethod
    def _items(cls, value: Any) -> Any:
        """Also take Playwright's [{name, value}] lists."""
        if isinstance(value, list):
            return {str(i.get("name")): str(i.get("value")) for i in value if isinstance(i, dict)}
        return value

    @field_validator("origin")
    @classmethod
    def _http_origin(cls, value: str) -> str:
        origin = url_origin(value)
        if origin is None:
            raise ValueError(f"{value!r} is not an http(s) origin")
        return origin


class StorageState(BaseModel):
    model_config = ConfigDict(extra="ignore")

    cookies: list[dict[str, Any]] = Field(default_factory=list, description="Cookies of the browser context")
    origins: list[OriginState] = Field(default_factory=list)

    @field_validator("cookies")
    @classmethod
    def _cookies_have_names(cls, cookies: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for i, cookie in enumerate(cookies):
            if not cookie.get("name") or "value" not in cookie or not (cookie.get("domain") or cookie.get("url")):
                raise ValueError(f"cookie {i} needs name, value and domain (or url)")
        return cookies


def parse_state(value: Any) -> StorageState:
    """A state from its JSON text or object; errors say what is wrong."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as exc:
            raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ValueError("must be a JSON object with cookies and origins")
    return StorageState.model_validate(value)


@asynccontextmanager
async def origin_page(session: ToolSession, origin: str) -> AsyncIterator[Page]:
    """A hidden background tab showing an empty document of ``origin``, served without the network.

    Storage of an origin no tab shows is reached through it; the agent's tabs are untouched.
    """
    browser = await session.ensure_browser()
    created = await browser.session.send("Target.createTarget", {
        "url": "about:blank", "background": True, **_context(session)}, timeout=PAGE_TIMEOUT)
    page = await browser.attach_page(created["targetId"], context_id=session.context_id, auto_attach=False)
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


async def _tabs_by_origin(session: ToolSession) -> dict[str, Tab]:
    """An open tab per origin it shows (the current tab wins); tabs with a dialog are skipped."""
    tabs = [t for t in session.tabs if not t.page.is_closed and t.dialog is None]
    current = await session.tab()
    by_origin: dict[str, Tab] = {}
    for tab in [current] + [t for t in tabs if t is not current]:
        origin = await page_origin(tab.page) if tab.dialog is None else None
        if origin and origin not in by_origin:
            by_origin[origin] = tab
    return by_origin


async def capture_state(session: ToolSession) -> StorageState:
    """Cookies of the context, localStorage of every origin the tabs show or have shown, and
    sessionStorage of the current page."""
    current = await session.tab()
    open_origins = await _tabs_by_origin(session)
    origins: list[OriginState] = []
    for origin, tab in open_origins.items():
        local = (await _run_web_storage(tab.page, "localStorage", "list")).get("items", {})
        kept = {}
        if tab is current:
            kept = (await _run_web_storage(tab.page, "sessionStorage", "list")).get("items", {})
        origins.append(OriginState(origin=origin, localStorage=local, sessionStorage=kept))
    elsewhere = [o for o in await known_origins(session) if o not in open_origins][:MAX_EXTRA_ORIGINS]
    for origin in elsewhere:
        try:
            async with origin_page(session, origin) as page:
                local = (await _run_web_storage(page, "localStorage", "list")).get("items", {})
        except CDPError as exc:
            log.debug("could not read the storage of %s: %s", origin, exc)
            continue
        if local:
            origins.append(OriginState(origin=origin, localStorage=local))
    return StorageState(cookies=await context_cookies(session), origins=origins)


@dataclass
class RestoreSummary:
    cookies: int
    origins: list[str]
    pending: list[str]    # origins whose sessionStorage waits for the current tab to open them
    failed: list[str] = field(default_factory=list)

    def message(self) -> str:
        text = f"restored {self.cookies} cookies and the storage of {len(self.origins)} origins"
        if self.pending:
            text += ("; sessionStorage of " + ", ".join(self.pending)
                     + " is applied when the current tab next opens that origin")
        if self.failed:
            text += "; could not restore " + "; ".join(self.failed)
        return text


async def restore_state(session: ToolSession, state: StorageState) -> RestoreSummary:
    """Cookies, then each origin's localStorage (in a tab showing it, or a hidden one), then
    sessionStorage in the current tab: now if it shows the origin, else when it next loads it."""
    await set_cookies(session, state.cookies)
    current = await session.tab()
    open_origins = await _tabs_by_origin(session)
    summary = RestoreSummary(len(state.cookies), [], [])
    for entry in state.origins:
        try:
            if entry.localStorage:
                await _write_local(session, open_origins.get(entry.origin), entry)
            if entry.sessionStorage:
                if open_origins.get(entry.origin) is current:
                    await _run_web_storage(current.page, "sessionStorage", "merge", None, entry.sessionStorage)
                else:
                    await _session_storage_on_arrival(current, entry.origin, entry.sessionStorage)
                    summary.pending.append(entry.origin)
        except CDPError as exc:  # one unreachable origin must not undo the others
            summary.failed.append(f"{entry.origin} ({exc})")
            continue
        summary.origins.append(entry.origin)
    return summary


async def _write_local(session: ToolSession, tab: Tab | None, entry: OriginState) -> None:
    if tab is not None:
        await _run_web_storage(tab.page, "localStorage", "merge", None, entry.localStorage)
        return
    async with origin_page(session, entry.origin) as page:
        await _run_web_storage(page, "localStorage", "merge", None, entry.localStorage)
        # Read back: the write has reached the storage service before the tab closes.
        await _run_web_storage(page, "localStorage", "list")


_ARRIVAL_JS = """(() => {{
  if (window !== window.top || location.origin !== {origin}) return;
  try {{ for (const [k, v] of Object.entries({items})) sessionStorage.setItem(k, v); }} catch (e) {{}}
}})();"""


async def _session_storage_on_arrival(tab: Tab, origin: str, items: dict[str, str]) -> None:
    """sessionStorage belongs to a tab: fill it, before the page's scripts run, on the tab's next
    document of ``origin``; the script is removed once that document exists."""
    source = _ARRIVAL_JS.format(origin=json.dumps(origin), items=json.dumps(items))
    events = tab.session.listen(["Page.frameNavigated"], raw=True)
    try:
        reply = await tab.session.send("Page.addScriptToEvaluateOnNewDocument", {"source": source},
                                       timeout=PAGE_TIMEOUT)
    except BaseException:
        events.close()
        raise
    tab.page.browser.start_task(_forget_after_arrival, tab, events, reply["identifier"], origin)


async def _forget_after_arrival(tab: Tab, events: Any, identifier: str, origin: str) -> None:
    with events:
        async for event in events:
            frame = event.params.get("frame") or {}
            if not frame.get("parentId") and url_origin(frame.get("url", "")) == origin:
                break
        else:
            return  # the tab closed first
    try:
        await tab.session.send("Page.removeScriptToEvaluateOnNewDocument", {"identifier": identifier},
                               timeout=PAGE_TIMEOUT)
    except CDPError as exc:
        log.debug("could not remove the sessionStorage script: %s", exc)


class StorageStateOutput(ToolOutput):
    cookies: list[dict[str, Any]] = Field(description="Cookies of the browser context")
    origins: list[OriginState] = Field(description="Per origin: localStorage, and sessionStorage for the current page")
    state: str = Field(description="The same as one JSON string: pass it to storage_set_state")


@tool("storage_get_state", NoInput, StorageStateOutput)
async def storage_get_state(session: ToolSession, args: NoInput) -> StorageStateOutput:
    """Snapshot cookies (all sites), localStorage of every origin the tabs show or have visited,
    and the current page's sessionStorage. Pass the returned state string to storage_set_state,
    later or in another session, to log back in; state_save keeps it in a named file instead."""
    state = await capture_state(session)
    return StorageStateOutput(cookies=state.cookies, origins=state.origins, state=state.model_dump_json())


class SetStateInput(ToolInput):
    state: str | dict[str, Any] = Field(description=(
        "The state string from storage_get_state (its object form is accepted too)"))

    @field_validator("state")
    @classmethod
    def _valid_state(cls, value: str | dict[str, Any]) -> str | dict[str, Any]:
        parse_state(value)
        return value


class RestoreOutput(MessageOutput):
    cookies: int = Field(description="Cookies set")
    origins: list[str] = Field(description="Origins whose storage was restored")


@tool("storage_set_state", SetStateInput, RestoreOutput)
async def storage_set_state(session: ToolSession, args: SetStateInput) -> RestoreOutput:
    """Restore a storage_get_state snapshot: set its cookies, write each origin's localStorage
    (without leaving the current page) and the sessionStorage, which applies to the current tab
    now or when it next opens that origin. Existing data is kept unless overwritten; call
    storage_clear_all first for an exact copy. Navigate or reload afterwards."""
    summary = await restore_state(session, parse_state(args.state))
    return RestoreOutput(message=summary.message(), cookies=summary.cookies, origins=summary.origins)


__all__ = ["RestoreSummary", "StorageState", "capture_state", "parse_state", "restore_state"]
