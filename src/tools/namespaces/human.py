"""human_: hand the browser to a person (a CAPTCHA, a login, a consent wall) and wait.

The overlay lives in an isolated world so page scripts cannot break its
listeners, in an open shadow root so page CSS cannot restyle it. When the
person navigates (logging in usually does), the overlay is put back on the
new page and the wait goes on with the time that is left.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..models import ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession
    from ..tab import Tab


OVERLAY_ID = "a11y-human-pause"
MAX_PAUSE_MS = 3_600_000

class PauseInput(ToolInput):
    message: str = Field(default="Please finish this step in the browser, then click Done.", max_length=2000)
    timeout_ms: int = Field(default=300_000, ge=0, le=MAX_PAUSE_MS)


class PauseOutput(ToolOutput):
    message: str = Field(description="What happened")
    resumed_by: Literal["button", "key", "timeout"] = Field(description="How the pause ended")
    timed_out: bool
    waited_ms: int


async def _show_and_wait(tab: Tab, message: str) -> str:
    """Show the overlay in the main frame and wait for the person; re-show after navigations.

    The overlay script resolves with "button" or "key" and keeps itself attached if the page
    re-renders <body>.
    """
    import trio

    from cdpdriver import ProtocolError
    from cdpdriver.scripts import call_expression, load_script

    from ..locate import context_lost

    expression = call_expression(load_script("tools", "human_overlay"), message, OVERLAY_ID)
    while True:
        try:
            context = await tab.page.isolated_world(name="a11y-human")
            reply = await tab.session.send("Runtime.evaluate", {
                "expression": expression, "contextId": context, "awaitPromise": True, "returnByValue": True,
            }, timeout=MAX_PAUSE_MS / 1000)
            value = (reply.get("result") or {}).get("value")
            if value in ("button", "key"):
                return str(value)
        except ProtocolError as exc:
            if not context_lost(exc) and "No frame" not in str(exc):
                raise
        await trio.sleep(0.1)  # the page is changing documents: show it again on the new one


async def _remove_overlay(tab: Tab) -> None:
    """End the overlay after a timeout: its keeper too, which would put a merely removed
    overlay back within half a second and keep it there."""
    import trio

    from cdpdriver import CDPError
    from cdpdriver.scripts import call_expression, load_script

    with trio.move_on_after(2):
        try:
            context = await tab.page.isolated_world(name="a11y-human")
            await tab.session.send("Runtime.evaluate", {
                "expression": call_expression(load_script("tools", "human_overlay_end"), OVERLAY_ID),
                "contextId": context,
            }, timeout=2)
        except CDPError:
            pass


@tool("human_pause", PauseInput, PauseOutput, effect="acts", open_world=True)
async def human_pause(session: ToolSession, args: PauseInput) -> PauseOutput:
    """Show message in a headed browser and wait until a person clicks Done."""
    import trio

    from cdpdriver import CDPError

    tab = await session.tab()
    started = time.perf_counter()
    try:
        await tab.session.send("Page.bringToFront", timeout=5)
    except CDPError:
        pass
    resumed_by = "timeout"
    with trio.move_on_after(args.timeout_ms / 1000):
        resumed_by = await _show_and_wait(tab, args.message)
    waited = int((time.perf_counter() - started) * 1000)
    if resumed_by == "timeout":
        await _remove_overlay(tab)
        return PauseOutput(message=f"nobody signalled within {args.timeout_ms} ms; continuing",
                           resumed_by="timeout", timed_out=True, waited_ms=waited)
    how = "clicked Done" if resumed_by == "button" else "pressed Ctrl+Shift+Enter"
    return PauseOutput(message=f"the person {how} after {waited} ms", resumed_by=resumed_by,
                       timed_out=False, waited_ms=waited)
