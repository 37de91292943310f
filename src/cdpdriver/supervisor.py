"""One warm browser for a long-lived process, relaunched whenever it dies.

A Chromium start costs about a second, far more than a small page, so a service or a worker
keeps one browser and gives every unit of work a fresh context in it instead. When the
browser dies the work running on it fails, and the next callers of ``wait_ready`` wait
(bounded) for the relaunch.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol

import trio

from .browser import Browser
from .groups import first_of

BrowserFactory = Callable[[], AbstractAsyncContextManager[Browser]]
"""Opens a browser for the life of its ``async with`` (``launch`` or ``connect``)."""

_log = logging.getLogger(__name__)


class BrowserUnavailable(Exception):
    """No connected browser within the wait bound; the message says why."""


class BrowserSource(Protocol):
    """Where long-lived code gets its browser: the one connected now, or the next one."""

    async def wait_ready(self, timeout: float) -> Browser:
        """A connected browser, waiting up to ``timeout`` s; else ``BrowserUnavailable``."""
        ...


class BrowserSupervisor:
    """Keeps one browser connected until ``request_stop`` and relaunches it when it dies.

    Consecutive launch failures back off exponentially (0.5 s doubling to ``max_backoff``) so
    a missing binary does not spin the CPU; a browser that ran and then died is relaunched at
    once. ``on_ready`` runs (synchronously) on every new browser before callers get it.
    """

    def __init__(
        self,
        open_browser: BrowserFactory,
        max_backoff: float = 30.0,
        *,
        on_ready: Callable[[Browser], None] | None = None,
        logger: logging.Logger | None = None,
    ) -> None:
        self._open = open_browser
        self._max_backoff = max_backoff
        self._on_ready = on_ready
        self._log = logger or _log
        self.browser: Browser | None = None
        self.last_error: str | None = None
        self.launch_failures = 0
        self.launches = 0
        self._changed = trio.Event()
        self._stopping = trio.Event()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    @property
    def ready(self) -> Browser | None:
        browser = self.browser
        return browser if browser is not None and browser.is_connected else None

    def request_stop(self) -> None:
        """Ask ``run`` to close the browser and return (synchronous: callable in ``finally``)."""
        self._stopping.set()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Keep a browser until ``request_stop``; reports started at once, before the first
        launch, so the process comes up even when the browser cannot.

        The loop is shielded and ends only through ``request_stop``: cancelling a ``connect``
        while it is opening makes its shielded websocket close wait forever for a handshake
        its (cancelled) reader can no longer deliver. Leaving the ``async with`` normally
        closes the connection (or kills the launched browser) cleanly.
        """
        task_status.started()
        with trio.CancelScope(shield=True):
            while not self._stopping.is_set():
                try:
                    async with self._open() as browser:
                        self._launched(browser)
                        await first_of(browser.connection.closed, self._stopping)
                        if not self._stopping.is_set():
                            self.last_error = "the browser connection closed; relaunching"
                            self._log.warning(
                                "browser connection closed (pid %s); relaunching", browser.pid
                            )
                except Exception as exc:  # noqa: BLE001 - any launch problem is reported, then retried
                    self.launch_failures += 1
                    self.last_error = f"cannot start the browser: {exc}"
                    self._log.error("%s (attempt %d)", self.last_error, self.launch_failures)
                finally:
                    self.browser = None
                    self._notify()
                if self.launch_failures:
                    backoff = min(self._max_backoff, 0.5 * 2 ** (self.launch_failures - 1))
                    with trio.move_on_after(backoff):
                        await self._stopping.wait()

    def _launched(self, browser: Browser) -> None:
        self.launches += 1
        self.launch_failures = 0
        self.browser = browser
        self.last_error = None
        product = browser.version.product if browser.version else "?"
        self._log.info("browser ready: %s (pid %s)", product, browser.pid)
        if self._on_ready is not None:
            self._on_ready(browser)
        self._notify()

    async def wait_ready(self, timeout: float) -> Browser:
        """The connected browser, waiting up to ``timeout`` s for a (re)launch; gives up early
        when a launch attempt fails meanwhile (no point holding the caller for the backoff)."""
        failures_at_start = self.launch_failures
        with trio.move_on_after(timeout):
            while True:
                browser = self.ready
                if browser is not None:
                    return browser
                if self.launch_failures > failures_at_start:
                    break
                await self._changed.wait()
        raise BrowserUnavailable(self.last_error or "the browser is still starting")

    async def wait_settled(self, wait: float) -> Browser | None:
        """The connected browser, or None once a launch has failed or ``wait`` s have passed:
        for a health check, which must not hold a caller for a browser that cannot start."""
        with trio.move_on_after(wait):
            while self.ready is None and not self.launch_failures:
                await self._changed.wait()
        return self.ready
