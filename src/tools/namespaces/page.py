"""page_: navigation, page state, screenshots, PDF, viewport and emulation."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..models import ToolInput, ToolOutput, WaitTimeoutMs
from ..registry import tool
from ..session import ToolSession

LoadState = Literal["load", "domcontentloaded", "networkidle", "commit"]


class NavigateInput(ToolInput):
    url: str = Field(min_length=1, description="Absolute URL to open (http, https, file, data, about)")
    wait_until: LoadState = Field(default="load", description="Lifecycle state to wait for")
    timeout_ms: int = WaitTimeoutMs


class NavigateOutput(ToolOutput):
    url: str = Field(description="Current URL after navigation (and redirects)")
    title: str
    status: int | None = Field(default=None, description="HTTP status of the document, when known")


@tool("page_navigate", NavigateInput, NavigateOutput, records=True)
async def page_navigate(session: ToolSession, args: NavigateInput) -> NavigateOutput:
    """Open a URL in the current tab and wait until it has loaded (wait_until: load by default,
    domcontentloaded, networkidle or commit). Returns the final URL, the title and the HTTP
    status. A network error (refused, DNS) is a navigation_failed error."""
    tab = await session.tab()
    tab.frame = None
    await tab.page.navigate(args.url, wait_until=args.wait_until, timeout=args.timeout_ms / 1000)
    info = await tab.page.evaluate(
        "({url: location.href, title: document.title, "
        "status: (performance.getEntriesByType('navigation')[0] || {}).responseStatus || null})"
    )
    return NavigateOutput(url=info["url"], title=info["title"], status=info.get("status") or None)
