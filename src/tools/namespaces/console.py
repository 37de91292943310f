"""console_: what the current tab logged, uncaught exceptions included.

The tab buffers console calls and uncaught exceptions (as errors) from the
moment it opens, so messages logged before the agent asked are not lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ..models import ConsoleMessage, NoInput, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession

Level = Literal["log", "info", "warn", "error", "debug"]
LEVELS = ("log", "info", "warn", "error", "debug")


class GetMessagesInput(ToolInput):
    level: Level | None = None
    clear: bool = False


class GetMessagesOutput(ToolOutput):
    messages: list[ConsoleMessage] = Field(description="Oldest first")
    count: int
    dropped: int = Field(description="Older messages the tab no longer keeps (0 when none)")


class ClearOutput(ToolOutput):
    message: str = Field(description="What was done")
    cleared: int = Field(description="How many messages were dropped")


def _level(entry: dict[str, Any]) -> str:
    """console.count, console.group, console.time… report as log."""
    kind = entry.get("type", "log")
    return kind if kind in LEVELS else "log"


@tool("console_get_messages", GetMessagesInput, GetMessagesOutput, effect="deletes")
async def console_get_messages(session: ToolSession, args: GetMessagesInput) -> GetMessagesOutput:
    """Console messages since the tab opened or was cleared, oldest first."""
    tab = await session.tab()
    chosen = [entry for entry in tab.console if args.level is None or _level(entry) == args.level]
    messages = [ConsoleMessage(type=_level(e), text=e.get("text", ""), args=e.get("args") or [],
                               url=e.get("url", ""), line=max(0, int(e.get("line") or 0))) for e in chosen]
    dropped = tab.console.dropped
    if args.clear:
        tab.console.clear()
    return GetMessagesOutput(messages=messages, count=len(messages), dropped=dropped)


@tool("console_clear", NoInput, ClearOutput, effect="deletes")
async def console_clear(session: ToolSession, args: NoInput) -> ClearOutput:
    """Empty the console buffer."""
    tab = await session.tab()
    cleared = len(tab.console)
    tab.console.clear()
    return ClearOutput(message=f"cleared {cleared} console message(s)", cleared=cleared)
