"""tab_: list, select and close the tabs of this session (popups the page opens included).

The session adopts popups in the background, so a listing first reconciles
with the browser's own target list: tabs whose target is gone are dropped and
a popup that exists but is still being attached is waited for briefly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field, model_validator

from ..models import NoInput, TabInfo, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession
    from ..tab import Tab


# How long a listing waits for a popup that exists but is not adopted yet.
POPUP_ADOPT_SECONDS = 3.0


async def _page_targets(session: ToolSession) -> dict[str, dict[str, Any]]:
    browser = await session.ensure_browser()
    reply = await browser.session.send("Target.getTargets", timeout=10)
    return {t["targetId"]: t for t in reply.get("targetInfos", []) if t.get("type") == "page"}


async def sync_tabs(session: ToolSession) -> dict[str, dict[str, Any]]:
    """Make ``session.tabs`` match the browser; returns the page targets by id (for url/title)."""
    import trio

    await session.ensure_browser()
    deadline = trio.current_time() + POPUP_ADOPT_SECONDS
    while True:
        targets = await _page_targets(session)
        for tab in list(session.tabs):
            if tab.page.is_closed or tab.id not in targets:
                await session.close_tab(tab)
        ours = {t.id for t in session.tabs}
        pending = [t for t in targets.values() if t.get("openerId") in ours and t["targetId"] not in ours]
        if not pending or trio.current_time() >= deadline:
            break
        await trio.sleep(0.02)
    if not session.tabs:
        await session.tab()
        targets = await _page_targets(session)
    session.current = min(session.current, len(session.tabs) - 1)
    return targets


def tab_info(session: ToolSession, tab: Tab, targets: dict[str, dict[str, Any]]) -> TabInfo:
    target = targets.get(tab.id, {})
    return TabInfo(index=session.tabs.index(tab), id=tab.id, url=target.get("url", ""),
                   title=target.get("title", ""))


async def bring_to_front(tab: Tab) -> None:
    await tab.session.send("Page.bringToFront", timeout=10)


class TabListOutput(ToolOutput):
    tabs: list[TabInfo] = Field(description="Open tabs in order; index is what tab_select takes")
    count: int
    current_tab: int = Field(description="Index of the tab other tools act on")


@tool("tab_list", NoInput, TabListOutput, effect="reads")
async def tab_list(session: ToolSession, args: NoInput) -> TabListOutput:
    """The open tabs, popups included, and the current one."""
    targets = await sync_tabs(session)
    tabs = [tab_info(session, t, targets) for t in session.tabs]
    return TabListOutput(tabs=tabs, count=len(tabs), current_tab=session.current)


class TabRefInput(ToolInput):
    index: int | None = Field(default=None, ge=0)
    id: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _not_both(self) -> TabRefInput:
        if self.index is not None and self.id is not None:
            raise ValueError("give index or id, not both")
        return self


class TabSelectInput(TabRefInput):
    @model_validator(mode="after")
    def _one(self) -> TabSelectInput:
        if self.index is None and self.id is None:
            raise ValueError("give index or id of the tab to select (see tab_list)")
        return self


class TabSelectOutput(ToolOutput):
    message: str
    tab: TabInfo


@tool("tab_select", TabSelectInput, TabSelectOutput, records=True, effect="sets")
async def tab_select(session: ToolSession, args: TabSelectInput) -> TabSelectOutput:
    """Make a tab current and bring it to the front."""
    targets = await sync_tabs(session)
    tab = session.find_tab(args.index, args.id)
    session.current = session.tabs.index(tab)
    await bring_to_front(tab)
    info = tab_info(session, tab, targets)
    return TabSelectOutput(message=f"tab {info.index} is current ({info.url})", tab=info)


class TabCloseOutput(ToolOutput):
    message: str
    count: int = Field(description="Tabs still open")
    current_tab: int | None = Field(description="Index of the current tab now; null when none is left")


async def close_and_report(session: ToolSession, tab: Tab) -> TabCloseOutput:
    """Close ``tab``; the current index moves to a neighbour, which comes to the front."""
    index = session.tabs.index(tab)
    await session.close_tab(tab)
    if not session.tabs:
        return TabCloseOutput(message=f"closed tab {index}; no tab is left (the next page tool opens one)",
                              count=0, current_tab=None)
    session.current = min(session.current, len(session.tabs) - 1)
    await bring_to_front(session.tabs[session.current])
    return TabCloseOutput(message=f"closed tab {index}; tab {session.current} is current",
                          count=len(session.tabs), current_tab=session.current)


@tool("tab_close", TabRefInput, TabCloseOutput, records=True, effect="destroys")
async def tab_close(session: ToolSession, args: TabRefInput) -> TabCloseOutput:
    """Close a tab (default the current one)."""
    await sync_tabs(session)
    if args.index is None and args.id is None:
        tab = session.tabs[session.current]
    else:
        tab = session.find_tab(args.index, args.id)
    return await close_and_report(session, tab)


__all__ = ["bring_to_front", "close_and_report", "sync_tabs", "tab_info"]
