"""A tools session around a page someone else opened, so tool calls act on it as on a tab of
their own.

The audit's login steps (``auth.login``) run through the tools' dispatcher in a tab the
engine opened in the audit's browser context. :func:`session_on_page` gives that tab a
session: the page is its only tab, set up as every new tab is (recording, domains), and the
session uses the page's browser and context but never launches, relaunches or quits one (a
tool that finds the browser gone fails with ``no_browser``). When the block ends, the tab's
recording stops and the session's tasks end; the page stays open for its owner to close.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

from cdpdriver import Browser, Page

from .errors import ToolError
from .session import ServerConfig, ToolSession


class _BorrowedBrowserSession(ToolSession):
    """A session whose browser belongs to someone else."""

    async def ensure_browser(self) -> Browser:
        if self.browser is None or not self.browser.is_connected:
            raise ToolError("no_browser", "the browser closed or crashed")
        return self.browser

    async def forget_dead_browser(self) -> None:
        """Nothing to forget: the owner of the browser deals with its death."""

    async def quit(self) -> bool:
        return False


@asynccontextmanager
async def session_on_page(page: Page, config: ServerConfig | None = None) -> AsyncIterator[ToolSession]:
    """A session whose current (and only) tab is ``page``, for the block."""
    async with trio.open_nursery() as nursery:
        session = _BorrowedBrowserSession(config or ServerConfig(), nursery)
        session.browser = page.browser
        session.context_id = page.context_id
        try:
            await session._adopt(page)
            yield session
        finally:
            for tab in session.tabs:
                tab.close()
            nursery.cancel_scope.cancel()
