"""browser_: the browser's lifecycle, and over HTTP the handle of a client's browser context."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from ..models import MessageOutput, NoInput, ToolInput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession


class LaunchInput(ToolInput):
    headless: bool = True


class LaunchOutput(MessageOutput):
    context: str = Field(description="The browser context the calls act on: pass it as `context` over stateless HTTP")


@tool("browser_launch", LaunchInput, LaunchOutput, effect="destroys")
async def browser_launch(session: ToolSession, args: LaunchInput) -> LaunchOutput:
    """Start the browser, e.g. headed (page tools start a headless one); over HTTP, open a
    browser context of your own in the server's browser."""
    browser = await session.launch(args.headless)
    product = browser.version.product if browser.version else "browser"
    mode = "attached" if session.config.browser_url else ("headless" if session.headless else "headed")
    return LaunchOutput(message=f"{product} running ({mode})", context=session.handle)


@tool("browser_quit", NoInput, MessageOutput, effect="deletes")
async def browser_quit(session: ToolSession, args: NoInput) -> MessageOutput:
    """Close the browser and all its tabs; over HTTP, your browser context only."""
    closed = await session.quit()
    if session.shared:
        return MessageOutput(message="browser context closed" if closed else "no browser context was open")
    return MessageOutput(message="browser closed" if closed else "no browser was running")
