"""The storage state: capture and restore of cookies plus per-origin web storage, as one document.

``storage_get_state``/``storage_set_state`` hand the state to the agent and
``state_save``/``state_load`` keep it in named files; both pairs capture and
restore through this module, so a snapshot taken by one is restored the same
way by the other. Origins no tab shows are reached through a hidden background
tab served without the network, so the agent's tabs are never moved.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .browser_storage import (
    context_cookies,
    known_origins,
    page_origin,
    run_web_storage,
    set_cookies,
    url_origin,
)
from .models import MessageOutput

if TYPE_CHECKING:
    from cdpdriver import Page

    from .session import ToolSession
    from .tab import Tab


MAX_EXTRA_ORIGINS = 20        # origins from history read through a background tab, at most


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


# The reply of every tool that restores a state (storage_set_state, state_load). No docstring:
# a model's docstring would become its schema's description.
class RestoreOutput(MessageOutput):
    cookies: int = Field(description="Cookies set")
    origins: list[str] = Field(description="Origins whose storage was restored")


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
    from audit.storage_state import origin_tab  # lazily: declaring the tools loads no driver

    async with origin_tab(browser, session.context_id, origin) as page:
        yield page


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
    from cdpdriver import CDPError

    from .session import log

    current = await session.tab()
    open_origins = await _tabs_by_origin(session)
    origins: list[OriginState] = []
    for origin, tab in open_origins.items():
        local = (await run_web_storage(tab.page, "localStorage", "list")).get("items", {})
        kept = {}
        if tab is current:
            kept = (await run_web_storage(tab.page, "sessionStorage", "list")).get("items", {})
        origins.append(OriginState(origin=origin, localStorage=local, sessionStorage=kept))
    elsewhere = [o for o in await known_origins(session) if o not in open_origins][:MAX_EXTRA_ORIGINS]
    for origin in elsewhere:
        try:
            async with origin_page(session, origin) as page:
                local = (await run_web_storage(page, "localStorage", "list")).get("items", {})
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
    from cdpdriver import CDPError

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
                    await run_web_storage(current.page, "sessionStorage", "merge", None, entry.sessionStorage)
                else:
                    from audit.storage_state import session_storage_on_arrival

                    await session_storage_on_arrival(current.page, entry.origin, entry.sessionStorage)
                    summary.pending.append(entry.origin)
        except CDPError as exc:  # one unreachable origin must not undo the others
            summary.failed.append(f"{entry.origin} ({exc})")
            continue
        summary.origins.append(entry.origin)
    return summary


async def _write_local(session: ToolSession, tab: Tab | None, entry: OriginState) -> None:
    if tab is not None:
        await run_web_storage(tab.page, "localStorage", "merge", None, entry.localStorage)
        return
    browser = await session.ensure_browser()
    from audit.storage_state import write_local_storage

    await write_local_storage(browser, session.context_id, entry.origin, entry.localStorage)


__all__ = ["OriginState", "RestoreOutput", "RestoreSummary", "StorageState", "capture_state", "origin_page",
           "parse_state", "restore_state"]
