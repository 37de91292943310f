"""storage_: cookies, localStorage and sessionStorage, and the whole storage state.

Cookies are read and written for the session's browser context through the
Storage domain. Web storage is read and written by script in the page, for the
current page's origin. The storage state (cookies plus per-origin storages) is
one JSON document that ``storage_set_state`` and ``state_load`` restore; its
capture and restore live in ``tools.state_snapshot``, the primitives both use
in ``tools.browser_storage``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, field_validator, model_validator

from ..browser_storage import (
    PAGE_TIMEOUT,
    WEB_STORAGE_AREAS,
    clear_cookies,
    context_cookies,
    cookie_view,
    known_origins,
    page_origin,
    run_web_storage,
    set_cookies,
    web_storage,
)
from ..models import MessageOutput, NoInput, ToolInput, ToolOutput
from ..registry import Effect, tool
from ..state_snapshot import OriginState, RestoreOutput, capture_state, parse_state, restore_state

if TYPE_CHECKING:
    from ..session import ToolSession


SAME_SITE = {"strict": "Strict", "lax": "Lax", "none": "None"}


# -- the web-storage tools: one table, ten tools -----------------------------------------------


class KeyInput(ToolInput):
    key: str


class KeyValueInput(ToolInput):
    key: str
    value: str


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
    effect: Effect  # tools.registry.EFFECTS: set overwrites an item of that key
    doc: str
    shape: Callable[[BaseModel, dict[str, Any], str], BaseModel]


WEB_STORAGE_OPS: dict[str, WebStorageOp] = {
    "get": WebStorageOp(
        KeyInput, StorageGetOutput, "reads",
        "Read an {area} item (null when missing).",
        lambda a, r, area: StorageGetOutput(key=a.key, value=r.get("value"), origin=r["origin"])),
    "set": WebStorageOp(
        KeyValueInput, StorageSetOutput, "deletes",
        "Store a string in {area}.",
        lambda a, r, area: StorageSetOutput(message=f"{area}[{a.key!r}] set on {r['origin']}",
                                            origin=r["origin"])),
    "delete": WebStorageOp(
        KeyInput, StorageDeleteOutput, "deletes",
        "Remove an {area} item.",
        lambda a, r, area: StorageDeleteOutput(
            message=f"{area}[{a.key!r}] {'removed' if r['existed'] else 'was not set'} on {r['origin']}",
            existed=r["existed"], origin=r["origin"])),
    "clear": WebStorageOp(
        NoInput, StorageClearOutput, "deletes",
        "Remove every {area} item.",
        lambda a, r, area: StorageClearOutput(message=f"cleared {r['cleared']} {area} items on {r['origin']}",
                                              cleared=r["cleared"], origin=r["origin"])),
    "list": WebStorageOp(
        NoInput, StorageListOutput, "reads",
        "Every {area} item.",
        lambda a, r, area: StorageListOutput(items=r["items"], count=len(r["items"]), origin=r["origin"])),
}


def _declare_web_storage_tool(kind: str, op: str) -> None:
    spec, area = WEB_STORAGE_OPS[op], WEB_STORAGE_AREAS[kind]

    async def handler(session: ToolSession, args: Any) -> BaseModel:
        key, value = getattr(args, "key", None), getattr(args, "value", None)
        return spec.shape(args, await web_storage(session, area, op, key, value), area)

    tool(f"storage_{kind}_{op}", spec.input, spec.output, description=spec.doc.format(area=area),
         effect=spec.effect)(handler)


for _kind in WEB_STORAGE_AREAS:
    for _op in WEB_STORAGE_OPS:
        _declare_web_storage_tool(_kind, _op)


# -- cookies ----------------------------------------------------------------------------------


class Cookie(ToolInput):
    """A cookie as storage_get_cookies returns it and storage_set_cookies takes it."""

    name: str = Field(min_length=1)
    value: str
    url: str | None = None
    domain: str | None = None
    path: str | None = None
    expires: float | None = Field(default=None, description="Epoch seconds; omit for a session cookie")
    httpOnly: bool | None = None
    secure: bool | None = None
    sameSite: Literal["Strict", "Lax", "None"] | None = None
    session: bool | None = None
    partitionKey: dict[str, Any] | None = None

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


class GetCookiesInput(ToolInput):
    urls: list[str] | None = None

    @field_validator("urls")
    @classmethod
    def _absolute(cls, urls: list[str] | None) -> list[str] | None:
        for url in urls or []:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
                raise ValueError(f"{url!r} is not an absolute http(s) URL")
        return urls


class CookiesOutput(ToolOutput):
    cookies: list[dict[str, Any]] = Field(description="name, value, domain, path, expires, httpOnly, secure, session, sameSite (accepted back by storage_set_cookies)")
    count: int


@tool("storage_get_cookies", GetCookiesInput, CookiesOutput, effect="reads")
async def storage_get_cookies(session: ToolSession, args: GetCookiesInput) -> CookiesOutput:
    """List the cookies, or those sent to urls."""
    if args.urls:
        tab = await session.tab()
        reply = await tab.session.send("Network.getCookies", {"urls": args.urls}, timeout=PAGE_TIMEOUT)
        cookies = [cookie_view(c) for c in reply.get("cookies", [])]
    else:
        cookies = await context_cookies(session)
    return CookiesOutput(cookies=cookies, count=len(cookies))


class SetCookiesInput(ToolInput):
    cookies: list[Cookie] = Field(min_length=1)


class CountOutput(MessageOutput):
    count: int


@tool("storage_set_cookies", SetCookiesInput, CountOutput, effect="deletes")
async def storage_set_cookies(session: ToolSession, args: SetCookiesInput) -> CountOutput:
    """Set cookies (each needs url or domain)."""
    await set_cookies(session, [c.model_dump(exclude_none=True) for c in args.cookies])
    return CountOutput(message=f"set {len(args.cookies)} cookies", count=len(args.cookies))


class DeleteCookieInput(ToolInput):
    name: str = Field(min_length=1)
    domain: str | None = None
    path: str | None = None


@tool("storage_delete_cookie", DeleteCookieInput, CountOutput, effect="deletes")
async def storage_delete_cookie(session: ToolSession, args: DeleteCookieInput) -> CountOutput:
    """Delete the cookies named name."""
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


@tool("storage_clear_cookies", NoInput, CountOutput, effect="deletes")
async def storage_clear_cookies(session: ToolSession, args: NoInput) -> CountOutput:
    """Delete every cookie of every site."""
    count = await clear_cookies(session)
    return CountOutput(message=f"cleared {count} cookies", count=count)


class ClearAllOutput(MessageOutput):
    cookies_cleared: int
    origins: list[str] = Field(description="Origins whose localStorage and sessionStorage were cleared")


@tool("storage_clear_all", NoInput, ClearAllOutput, effect="deletes")
async def storage_clear_all(session: ToolSession, args: NoInput) -> ClearAllOutput:
    """Clear all cookies, localStorage and sessionStorage."""
    from cdpdriver import CDPError

    from ..session import log

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
            for area in WEB_STORAGE_AREAS.values():
                await run_web_storage(open_tab.page, area, "clear")
    return ClearAllOutput(message=f"cleared {cookies} cookies and the storage of {len(origins)} origins",
                          cookies_cleared=cookies, origins=origins)


class StorageStateOutput(ToolOutput):
    cookies: list[dict[str, Any]] = Field(description="Cookies of the browser context")
    origins: list[OriginState] = Field(description="Per origin: localStorage, and sessionStorage for the current page")
    state: str = Field(description="The same as one JSON string: pass it to storage_set_state")


@tool("storage_get_state", NoInput, StorageStateOutput, effect="reads")
async def storage_get_state(session: ToolSession, args: NoInput) -> StorageStateOutput:
    """Cookies and web storage as a string for storage_set_state."""
    state = await capture_state(session)
    return StorageStateOutput(cookies=state.cookies, origins=state.origins, state=state.model_dump_json())


class SetStateInput(ToolInput):
    state: str | dict[str, Any]

    @field_validator("state")
    @classmethod
    def _valid_state(cls, value: str | dict[str, Any]) -> str | dict[str, Any]:
        parse_state(value)
        return value


@tool("storage_set_state", SetStateInput, RestoreOutput, effect="deletes")
async def storage_set_state(session: ToolSession, args: SetStateInput) -> RestoreOutput:
    """Restore a storage_get_state string; reload afterwards."""
    summary = await restore_state(session, parse_state(args.state))
    return RestoreOutput(message=summary.message(), cookies=summary.cookies, origins=summary.origins)
