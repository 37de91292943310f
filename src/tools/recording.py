"""Shared plumbing for the tools that switch something on and later off (cdp_, trace_, video_).

A paired operation (coverage, screencast, trace, video, emulation) keeps one
record in the session while it runs. ``Switch`` gives every pair the same
out-of-order errors, and forgets a record whose tab or browser has gone so a
dead recording never blocks a new one.

Also here: evaluation in a tab's main frame that cannot hang on a dialog,
a helper CDP session attached to a tab's target (so a screencast or a
listener never disturbs the tab's own session), and background tasks with
their own cancel scope.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import trio

from cdpdriver import CDPError, Session

from .errors import ToolError
from .locate import evaluate_in
from .session import ToolSession
from .tab import Tab

log = logging.getLogger(__name__)
R = TypeVar("R")


def tab_alive(tab: Tab | None) -> bool:
    return tab is not None and not tab.page.is_closed and tab.page.browser.is_connected


class Switch(Generic[R]):
    """One running recording per session, with the errors an agent can act on.

    ``what`` names the recording ("coverage"), ``start_tool``/``stop_tool`` the tools that
    control it; records must have a ``tab`` attribute (the tab they run on).
    """

    def __init__(self, key: str, what: str, start_tool: str, stop_tool: str) -> None:
        self.key, self.what, self.start_tool, self.stop_tool = key, what, start_tool, stop_tool

    def _slot(self, session: ToolSession) -> dict[str, Any]:
        return session.state(self.key, dict)

    def peek(self, session: ToolSession) -> R | None:
        """The running record, or None.

        A record whose tab (or browser) is gone is dropped; its ``discard()``, when it has one,
        releases what it still holds (helper sessions, an ffmpeg process, an observer).
        """
        slot = self._slot(session)
        record = slot.get("record")
        if record is not None and not tab_alive(getattr(record, "tab", None)):
            slot.pop("record", None)
            discard = getattr(record, "discard", None)
            if callable(discard):
                try:
                    discard()
                except Exception:
                    log.exception("discarding a dead %s failed", self.what)
            return None
        return record

    def ensure_off(self, session: ToolSession) -> None:
        if self.peek(session) is not None:
            raise ToolError("already_started", f"{self.what} is already running; call {self.stop_tool} first")

    def set(self, session: ToolSession, record: R) -> R:
        self._slot(session)["record"] = record
        return record

    def take(self, session: ToolSession, *, keep_dead: bool = False) -> R:
        """Remove and return the running record; not_started when there is none.

        With ``keep_dead`` a record whose tab has closed is still returned, so a stop can
        save what was captured before the tab went away.
        """
        slot = self._slot(session)
        record = slot.get("record") if keep_dead else self.peek(session)
        if record is None:
            raise ToolError("not_started", f"{self.what} is not running; call {self.start_tool} first")
        slot.pop("record", None)
        return record

    def get(self, session: ToolSession) -> R:
        record = self.peek(session)
        if record is None:
            raise ToolError("not_started", f"{self.what} is not running; call {self.start_tool} first")
        return record


async def evaluate_main(tab: Tab, expression: str, *, timeout: float = 10.0) -> Any:
    """Evaluate in the tab's main frame; an open dialog is a dialog_open error, never a hang."""
    return await evaluate_in(tab, tab.session, expression, timeout=timeout)


@dataclass
class HelperSession:
    """An extra flat session on a tab's target: its own Page domain state and events."""

    session: Session
    tab: Tab

    async def detach(self) -> None:
        with trio.CancelScope(shield=True), trio.move_on_after(5):
            try:
                await self.tab.page.browser.session.send(
                    "Target.detachFromTarget", {"sessionId": self.session.session_id}, timeout=5)
            except CDPError as exc:
                log.debug("detach of helper session failed: %s", exc)


async def attach_helper(tab: Tab) -> HelperSession:
    """Attach a second session to the tab's page (a screencast there leaves the tab's own alone)."""
    browser = tab.page.browser
    reply = await browser.session.send(
        "Target.attachToTarget", {"targetId": tab.id, "flatten": True}, timeout=10)
    return HelperSession(Session(browser.connection, str(reply["sessionId"]), tab.id), tab)


def start_background(tab: Tab, fn: Callable[..., Awaitable[None]], *args: Any) -> trio.CancelScope:
    """Run ``fn(*args)`` in the browser's nursery; cancel the returned scope to stop it.

    The task also ends with the browser. Exceptions are logged, never raised into the nursery
    (a failing recorder must not take the browser down).
    """
    scope = trio.CancelScope()

    async def runner() -> None:
        with scope:
            try:
                await fn(*args)
            except (CDPError, trio.EndOfChannel, trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                log.debug("background task %s ended: %s", getattr(fn, "__name__", fn), exc)
            except Exception:
                log.exception("background task %s failed", getattr(fn, "__name__", fn))

    tab.page.browser.start_task(runner)
    return scope


def run_soon(tab: Tab, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
    """Best-effort clean-up in the browser's nursery; nothing to do once the browser is gone."""
    if not tab.page.browser.is_connected:
        return
    try:
        start_background(tab, fn, *args)
    except RuntimeError:  # the nursery is closing with the browser
        pass


def stamp() -> str:
    """A file-name-safe local timestamp with milliseconds (names sort by time)."""
    now = time.time()
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(now)) + f"-{int(now * 1000) % 1000:03d}"
