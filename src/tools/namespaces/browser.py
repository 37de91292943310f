"""browser_: the browser's lifecycle."""

from __future__ import annotations

from pydantic import Field

from ..models import MessageOutput, NoInput, ToolInput
from ..registry import tool
from ..session import ToolSession


class LaunchInput(ToolInput):
    headless: bool = Field(default=True, description="Run without a window (a headed browser needs a display)")


@tool("browser_launch", LaunchInput, MessageOutput)
async def browser_launch(session: ToolSession, args: LaunchInput) -> MessageOutput:
    """Start the browser (or attach to --browser-url). Optional: any page tool launches a
    headless browser on first use. Call it to choose headed mode; relaunches if the mode changes."""
    browser = await session.launch(args.headless)
    product = browser.version.product if browser.version else "browser"
    mode = "attached" if session.config.browser_url else ("headless" if session.headless else "headed")
    return MessageOutput(message=f"{product} running ({mode})")


@tool("browser_quit", NoInput, MessageOutput)
async def browser_quit(session: ToolSession, args: NoInput) -> MessageOutput:
    """Close the browser and all its tabs. The next page tool starts a fresh one."""
    closed = await session.quit()
    return MessageOutput(message="browser closed" if closed else "no browser was running")
