"""browser_: the browser's lifecycle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..models import MessageOutput, NoInput, ToolInput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession


class LaunchInput(ToolInput):
    headless: bool = True


@tool("browser_launch", LaunchInput, MessageOutput)
async def browser_launch(session: ToolSession, args: LaunchInput) -> MessageOutput:
    """Start the browser, e.g. headed (page tools start a headless one)."""
    browser = await session.launch(args.headless)
    product = browser.version.product if browser.version else "browser"
    mode = "attached" if session.config.browser_url else ("headless" if session.headless else "headed")
    return MessageOutput(message=f"{product} running ({mode})")


@tool("browser_quit", NoInput, MessageOutput)
async def browser_quit(session: ToolSession, args: NoInput) -> MessageOutput:
    """Close the browser and all its tabs."""
    closed = await session.quit()
    return MessageOutput(message="browser closed" if closed else "no browser was running")
