"""The tabs the pages of one run share within one worker process.

The pages of a run come from one request (one origin, the same settings), so, as in a
synchronous crawl, they may share one browser context and reuse its tabs
(:class:`audit.tabs.SharedTabs`): every page after the first skips a context, a tab and a
renderer start. Runs never share a context. A run's context lives while its pages keep
coming to this worker and is disposed once it has had none for ``idle`` seconds, or when
the browser it was made in is gone.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import trio

from audit.failures import failures_classified
from audit.tabs import SharedTabs
from cdpdriver import Browser

log = logging.getLogger(__name__)

IDLE_SECONDS = 10.0


@dataclass
class _Kept:
    tabs: SharedTabs
    browser: Browser
    users: int = 0
    last_used: float = 0.0


class RunTabs:
    """Per run, its ``SharedTabs``, kept by a task of ``nursery`` (the worker's)."""

    def __init__(self, nursery: trio.Nursery, *, guarded: bool, idle: float = IDLE_SECONDS) -> None:
        self._nursery = nursery
        self._guarded = guarded
        self._idle = idle
        self._kept: dict[str, _Kept] = {}
        self._opening: dict[str, trio.Lock] = {}

    @asynccontextmanager
    async def tabs(self, run_id: str, browser: Browser) -> AsyncIterator[SharedTabs]:
        """The run's shared tabs in ``browser`` for the block (opened on first use)."""
        lock = self._opening.setdefault(run_id, trio.Lock())
        async with lock:
            kept = self._kept.get(run_id)
            if kept is None or kept.browser is not browser:
                with failures_classified(browser):  # a context that cannot open fails the page
                    kept = await self._nursery.start(self._keep, run_id, browser)
            kept.users += 1
        try:
            yield kept.tabs
        finally:
            kept.users -= 1
            kept.last_used = trio.current_time()

    async def _keep(self, run_id: str, browser: Browser, *, task_status: trio.TaskStatus[_Kept]) -> None:
        """Hold the run's context until it is idle or its browser is gone. A failure to open
        it is the caller's; a failure to close it (the browser died and took the context
        with it) is only logged."""
        started = False
        try:
            async with SharedTabs.open(browser, guarded=self._guarded) as tabs:
                kept = _Kept(tabs, browser, last_used=trio.current_time())
                self._kept[run_id] = kept
                task_status.started(kept)
                started = True
                while True:
                    await trio.sleep(min(self._idle / 2, 1.0))
                    idle = not kept.users and trio.current_time() - kept.last_used >= self._idle
                    if idle or not browser.is_connected:
                        break
                if self._kept.get(run_id) is kept:  # no await since the check: no new user
                    del self._kept[run_id]
                    self._opening.pop(run_id, None)
        except Exception as exc:
            if not started:
                raise
            log.debug("closing the tabs of run %s: %s", run_id, exc)
