"""The Python API for code that is not async: ``audit_sync`` and ``SyncAuditor``.

``audit_sync`` runs one :func:`a11y.api.audit` in a Trio run of its own. ``SyncAuditor``
keeps one browser for many audits: a thread runs Trio and holds an :class:`a11y.api.Auditor`,
and each call is handed to that thread (``trio.from_thread``) and waited for. Requests are
checked in the caller's thread, so a bad one fails before anything is sent to the browser.

Every path ends the browser: ``close()`` (or the ``with`` block) stops the thread, which
leaves the Auditor and kills the browser's process group; the thread is a daemon and
``cdpdriver.launcher`` kills every browser group still alive when the interpreter exits, so
an interrupted script or test session leaves no browser behind.

Both block, so neither can run inside a Trio run (an async test, an async web handler):
there, ``await a11y.audit(...)`` or ``async with a11y.Auditor()`` does the same.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import TYPE_CHECKING, Any

from .api import Auditor, make_request

if TYPE_CHECKING:
    import trio

    from audit.engine import EngineLimits
    from audit.models import AuditResult
    from cdpdriver import LaunchOptions


def refuse_inside_trio(name: str) -> None:
    """A blocking call inside a Trio run would stall it (and ``trio.run`` refuses to nest):
    say what to use instead."""
    import trio

    try:
        trio.lowlevel.current_trio_token()
    except RuntimeError:
        return
    raise RuntimeError(
        f"{name} blocks and cannot run inside async code; there, use "
        "`await a11y.audit(...)` or `async with a11y.Auditor() as auditor`"
    )


def audit_sync(
    target: Any = None,
    /,
    *,
    browser_url: str | None = None,
    launch_options: LaunchOptions | None = None,
    limits: EngineLimits | None = None,
    **fields: Any,
) -> AuditResult:
    """:func:`a11y.api.audit`, blocking: one audit on a browser launched for it or attached
    to at ``browser_url``."""
    import trio

    from .api import audit

    refuse_inside_trio("audit_sync")
    request = make_request(target, **fields)
    run = partial(
        audit, request, browser_url=browser_url, launch_options=launch_options, limits=limits
    )
    return trio.run(run)


class SyncAuditor:
    """Many blocking audits on one browser (see the module docstring).

    ``with SyncAuditor() as auditor: result = auditor.audit(url)``; the arguments are those
    of :class:`a11y.api.Auditor`.
    """

    def __init__(
        self,
        *,
        browser_url: str | None = None,
        launch_options: LaunchOptions | None = None,
        limits: EngineLimits | None = None,
    ) -> None:
        self._auditor = Auditor(
            browser_url=browser_url, launch_options=launch_options, limits=limits
        )
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._token: trio.lowlevel.TrioToken | None = None
        self._stop: trio.Event | None = None
        self._failure: BaseException | None = None

    @property
    def is_open(self) -> bool:
        return self._thread is not None and self._token is not None and self._failure is None

    @property
    def is_connected(self) -> bool:
        """Open, and its browser still answers (false once the browser has died)."""
        return self.is_open and self._auditor.browser.is_connected

    @property
    def browser_pid(self) -> int | None:
        """The process id of the browser this auditor launched; None when it attached to one
        (or is not open)."""
        return self._auditor.browser.pid if self.is_open else None

    def open(self) -> SyncAuditor:
        """Start the thread and the browser; raises what starting the browser raised."""
        refuse_inside_trio("SyncAuditor")
        if self._thread is not None:
            raise RuntimeError("this SyncAuditor is already open")
        self._thread = threading.Thread(target=self._run, name="a11y-sync-auditor", daemon=True)
        self._thread.start()
        self._ready.wait()  # set on every path of _run; the launch has its own timeout
        if self._failure is not None:
            failure = self._failure
            self._thread.join()
            self._thread = None
            raise failure
        return self

    def _run(self) -> None:
        import trio

        try:
            trio.run(self._hold)
        except BaseException as exc:  # handed to open() or close(), in the caller's thread
            self._failure = exc
        finally:
            self._ready.set()

    async def _hold(self) -> None:
        import trio

        self._stop = trio.Event()
        self._token = trio.lowlevel.current_trio_token()
        async with self._auditor:
            self._ready.set()
            await self._stop.wait()

    def audit(self, target: Any = None, /, **fields: Any) -> AuditResult:
        """:meth:`a11y.api.Auditor.audit`, blocking."""
        import trio

        refuse_inside_trio("SyncAuditor.audit")
        request = make_request(target, **fields)
        if not self.is_open:
            raise RuntimeError("the SyncAuditor is not open: use `with SyncAuditor() as auditor:`")
        try:
            return trio.from_thread.run(self._auditor.audit, request, trio_token=self._token)
        except trio.RunFinishedError:
            raise RuntimeError(
                f"the auditor's browser thread has ended: {self._failure!r}"
            ) from None

    def close(self) -> None:
        """Stop the browser and the thread; idempotent. Raises what ending the browser raised."""
        import trio

        thread, self._thread = self._thread, None
        if thread is None:
            return
        if self._stop is not None and self._token is not None:
            try:
                trio.from_thread.run_sync(self._stop.set, trio_token=self._token)
            except trio.RunFinishedError:
                pass
        thread.join()
        self._token = None
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure

    def __enter__(self) -> SyncAuditor:
        return self.open()

    def __exit__(self, *exc_info: object) -> None:
        self.close()
