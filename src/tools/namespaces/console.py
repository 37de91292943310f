"""console_: what the current tab logged, uncaught exceptions included.

The tab buffers console calls and uncaught exceptions (as errors) from the
moment it opens, so messages logged before the agent asked are not lost.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ..models import ConsoleMessage, NoInput, ToolInput, ToolOutput
from ..registry import tool
from ..session import ToolSession
from ..tab import CONSOLE_KEPT

Level = Literal["log", "info", "warn", "error", "debug"]
LEVELS = ("log", "info", "warn", "error", "debug")


class GetMessagesInput(ToolInput):
    level: Level | None = Field(default=None, description="Only messages of this level (error includes uncaught exceptions)")
    clear: bool = Field(default=False, description="Empty the buffer after reading")


class GetMessagesOutput(ToolOutput):
    messages: list[ConsoleMessage] = Field(description="Oldest first")
    count: int
    dropped: int = Field(description=(
        f"Older messages dropped because the tab keeps only the newest {CONSOLE_KEPT} (0 when none were)"))


class ClearOutput(ToolOutput):
    message: str = Field(description="What was done")
    cleared: int = Field(description="How many messages were dropped")


def _level(entry: dict[str, Any]) -> str:
    """console.count, console.group, console.time… report as log."""
    kind = entry.get("type", "log")
    return kind if kind in LEVELS else "log"


@tool("console_get_messages", GetMessagesInput, GetMessagesOutput)
async def console_get_messages(session: ToolSession, args: GetMessagesInput) -> GetMessagesOutput:
    """Return the current tab's console messages since it opened (or since the last clear),
    oldest first, each with type, text, args and source url/line. Uncaught exceptions and
    unhandled rejections are type error. Filter with level; clear empties the buffer."""
    tab = await session.tab()
    chosen = [entry for entry in tab.console if args.level is None or _level(entry) == args.level]
    messages = [ConsoleMessage(type=_level(e), text=e.get("text", ""), args=e.get("args") or [],
                               url=e.get("url", ""), line=max(0, int(e.get("line") or 0))) for e in chosen]
    dropped = tab.console.dropped
    if args.clear:
        tab.console.clear()
    return GetMessagesOutput(messages=messages, count=len(messages), dropped=dropped)


@tool("console_clear", NoInput, ClearOutput)
async def console_clear(session: ToolSession, args: NoInput) -> ClearOutput:
    """Empty the current tab's console buffer, e.g. before an action whose messages you want
    to read on their own with console_get_messages."""
    tab = await session.tab()
    cleared = len(tab.console)
    tab.console.clear()
    return ClearOutput(message=f"cleared {cleared} console message(s)", cleared=cleared)
