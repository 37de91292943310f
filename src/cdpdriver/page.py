"""A page target: navigation with lifecycle waits, evaluation, child targets.

A page keeps one helper task (in the browser's nursery) that records
lifecycle events per document and resumes auto-attached children (iframes
that run out of process, workers) so none stays paused waiting for a debugger.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import trio

from . import evaluation
from .connection import Batch, Command, Reply
from .errors import (
    BrowserClosed,
    CDPError,
    NavigationFailed,
    NavigationTimeout,
    TargetClosed,
)
from .protocol import page as page_domain
from .protocol import runtime
from .protocol import target as target_domain
from .session import Session

if TYPE_CHECKING:
    from .browser import Browser

log = logging.getLogger(__name__)

# Lifecycle names Chromium reports, keyed by the wait states callers use.
WAIT_STATES = {
    "commit": "commit",
    "domcontentloaded": "DOMContentLoaded",
    "load": "load",
    "networkidle": "networkIdle",
    "networkalmostidle": "networkAlmostIdle",
}
NETWORK_QUIET_SECONDS = 0.5
CHILD_HOOK_TIMEOUT = 10.0
_LONG_LIVED_TYPES = {"EventSource", "WebSocket", "Ping"}


@dataclass
class ChildTarget:
    """An auto-attached target below the page: an out-of-process iframe or a worker."""

    session: Session
    type: str
    url: str
    parent_session_id: str | None


@dataclass
class _Lifecycle:
    loader_id: str | None = None
    reached: set[str] = field(default_factory=set)


class Page:
    """One tab. Get it from ``Browser.new_page`` or ``BrowserContext.page``."""

    def __init__(self, browser: Browser, session: Session, *, context_id: str | None = None) -> None:
        self.browser = browser
        self.session = session
        self.context_id = context_id
        self.target_id: str = session.target_id or ""
        self.children: dict[str, ChildTarget] = {}
        # Awaited for every new child while it is still paused, so per-target set-up
        # (request interception, emulation) applies from the child's first request.
        self.child_hooks: list[Callable[[ChildTarget], Awaitable[None]]] = []
        self._lifecycle = _Lifecycle()
        self._changed = trio.Event()
        self._task_scopes: list[trio.CancelScope] = []
        self._closed = False
        self._gone = False
        self._inflight: set[str] = set()
        self._network_tracked = False
        self._last_network_activity = 0.0

    @property
    def main_frame_id(self) -> str:
        """Chromium gives a page's main frame the id of its target."""
        return self.target_id

    # -- set-up ------------------------------------------------------------

    async def _initialize(
        self, *, auto_attach: bool, setup: Sequence[Command[Any]] = (), track_network: bool = False
    ) -> None:
        """The page's own set-up, then ``setup``, in one round trip (Chromium keeps the order);
        any failure is raised."""
        async with self.session.batch() as batch:
            replies = self.queue_setup(batch, auto_attach=auto_attach, track_network=track_network)
            replies += [batch.execute(command) for command in setup]
        for reply in replies:
            reply.result()

    def queue_setup(
        self, batch: Batch, *, auto_attach: bool = True, track_network: bool = False
    ) -> list[Reply[Any]]:
        """Start the page's helper task and queue the page's own set-up; its replies must succeed.
        With ``track_network``, requests in flight are counted from the page's first document
        on (see :meth:`track_network`).

        For a target auto-attached while it waits for the debugger, queue it with the rest of
        the caller's set-up and ``Runtime.runIfWaitingForDebugger`` last in one batch: such a
        target may answer nothing before it runs.
        """
        events = self.session.listen(
            ["Page.lifecycleEvent", "Page.frameNavigated", "Target.attachedToTarget",
             "Target.detachedFromTarget", "Page.navigatedWithinDocument"],
            raw=True,
        )
        self.browser.start_task(self._watch, events)
        replies: list[Reply[Any]] = [
            batch.execute(page_domain.enable()),
            batch.execute(page_domain.set_lifecycle_events_enabled(enabled=True)),
        ]
        if auto_attach:
            replies.append(batch.execute(target_domain.set_auto_attach(
                auto_attach=True, wait_for_debugger_on_start=True, flatten=True
            )))
        if track_network and self._count_requests_from_now():
            replies.append(batch.send("Network.enable"))
        return replies

    def _task_scope(self) -> trio.CancelScope:
        """A scope for a page helper task, cancelled when the page closes."""
        scope = trio.CancelScope()
        self._task_scopes.append(scope)
        return scope

    async def _watch(self, events: Any) -> None:
        """The page's helper task; ends when the session detaches or the page closes."""
        with self._task_scope(), events:
            async with trio.open_nursery() as nursery:
                async for event in events:
                    try:
                        self._on_event(event, nursery)
                    except Exception:
                        log.exception("page event %s", event.method)
                # The stream ended: the target detached or the browser went away. Wake the
                # lifecycle waiters so they fail now instead of hanging until their timeout.
                self._gone = True
                self._notify()

    def _on_event(self, event: Any, nursery: trio.Nursery) -> None:
        params = event.params
        if event.method == "Page.lifecycleEvent":
            if params.get("frameId") != self.main_frame_id:
                return
            loader = params.get("loaderId")
            if params.get("name") == "init" or loader != self._lifecycle.loader_id:
                self._lifecycle = _Lifecycle(loader_id=loader)
            self._lifecycle.reached.add(params.get("name", ""))
            self._notify()
        elif event.method == "Page.frameNavigated":
            frame = params.get("frame") or {}
            if not frame.get("parentId"):
                if frame.get("loaderId") != self._lifecycle.loader_id:
                    self._lifecycle = _Lifecycle(loader_id=frame.get("loaderId"))
                self._lifecycle.reached.add("commit")
                self._notify()
        elif event.method == "Target.attachedToTarget":
            nursery.start_soon(self._adopt_child, params, event.session_id)
        elif event.method == "Target.detachedFromTarget":
            self.children.pop(params.get("sessionId", ""), None)

    def _notify(self) -> None:
        """Wake every waiter; they re-check their condition against the new state."""
        self._changed.set()
        self._changed = trio.Event()

    async def _adopt_child(self, params: dict[str, Any], parent_session_id: str | None) -> None:
        """Record a child target and always let it run, even if configuring it fails."""
        info = params.get("targetInfo") or {}
        child = Session(self.session.connection, params.get("sessionId"), info.get("targetId"))
        target = ChildTarget(child, info.get("type", ""), info.get("url", ""), parent_session_id)
        self.children[child.session_id or ""] = target
        events = None
        try:
            await self._run_child_hooks(target)
            if info.get("type") == "iframe":
                # Grandchildren (an OOPIF inside an OOPIF) attach through the child.
                events = child.listen(["Target.attachedToTarget", "Target.detachedFromTarget"], raw=True)
                await child.execute(
                    target_domain.set_auto_attach(
                        auto_attach=True, wait_for_debugger_on_start=True, flatten=True
                    ),
                    timeout=10,
                )
        except CDPError as exc:
            log.debug("could not configure child %s: %s", info.get("targetId"), exc)
        finally:
            try:
                await child.execute(runtime.run_if_waiting_for_debugger(), timeout=10)
            except CDPError:
                pass
        if events is not None:
            with events:
                async with trio.open_nursery() as nursery:
                    async for event in events:
                        if event.method == "Target.attachedToTarget":
                            nursery.start_soon(self._adopt_child, event.params, child.session_id)
                        else:
                            self.children.pop(event.params.get("sessionId", ""), None)

    async def _run_child_hooks(self, target: ChildTarget) -> None:
        """Run ``child_hooks`` on a paused child; a failing or slow hook never keeps it paused."""
        for hook in list(self.child_hooks):
            with trio.move_on_after(CHILD_HOOK_TIMEOUT):
                try:
                    await hook(target)
                except CDPError as exc:
                    log.debug("child hook on %s failed: %s", target.session.target_id, exc)
                except Exception:  # a buggy hook must not take the page's helper task down
                    log.exception("child hook on %s raised", target.session.target_id)

    # -- navigation ----------------------------------------------------------

    async def navigate(
        self, url: str, *, wait_until: str | None = "load", timeout: float = 30.0, referrer: str | None = None
    ) -> page_domain.NavigateResult:
        """Navigate and wait for ``wait_until``; a net error raises ``NavigationFailed``.

        Chromium fires ``load`` for its own error page too, so the navigate
        reply's ``errorText`` is checked before any waiting.
        """
        with trio.move_on_after(timeout) as scope:
            if wait_until == "networkidle":
                await self._track_network()
            result = await self.session.execute(
                page_domain.navigate(url=url, referrer=referrer), timeout=timeout
            )
            if result.error_text:
                raise NavigationFailed(url, result.error_text)
            if wait_until and result.loader_id:
                await self._wait_state(str(result.loader_id), wait_until)
            return result
        assert scope.cancelled_caught
        raise NavigationTimeout(url, wait_until or "commit", timeout)

    @property
    def document_loader_id(self) -> str | None:
        """The loader of the document now shown; it changes when a navigation commits."""
        return self._lifecycle.loader_id

    async def wait_for_new_document(self, previous_loader_id: str | None, *, timeout: float = 30.0) -> bool:
        """Wait until a document other than ``previous_loader_id``'s has loaded; False when none
        did within ``timeout`` (e.g. the page stayed, or is still loading)."""
        with trio.move_on_after(timeout):
            while self._lifecycle.loader_id in (None, previous_loader_id):
                self._check_alive()
                await self._changed.wait()
            await self._wait_lifecycle(self._lifecycle.loader_id, "load")
            return True
        return False

    async def wait_for_load_state(self, state: str = "load", *, timeout: float = 30.0) -> None:
        """Wait until the current document reached ``state`` (returns at once if it has)."""
        with trio.move_on_after(timeout):
            if state.lower() == "networkidle":
                await self._track_network()
            await self._wait_state(None, state)
            return
        raise NavigationTimeout(await self.url(), state, timeout)

    async def _wait_state(self, loader_id: str | None, state: str) -> None:
        key = state.lower()
        if key not in WAIT_STATES:
            raise ValueError(f"unknown load state {state!r}; use one of {', '.join(WAIT_STATES)}")
        if key == "networkidle":
            await self._wait_lifecycle(loader_id, "load")
            await self._wait_network_idle()
        else:
            await self._wait_lifecycle(loader_id, WAIT_STATES[key])

    async def track_network(self) -> None:
        """Count in-flight requests from now on. Call it before ``navigate(wait_until="load")``
        when a later ``wait_for_load_state("networkidle")`` must see the navigation's requests."""
        await self._track_network()

    async def _track_network(self) -> None:
        """Count in-flight requests from now on (needs the Network domain)."""
        if self._count_requests_from_now():
            await self.session.send("Network.enable")

    def _count_requests_from_now(self) -> bool:
        """Start counting the requests the Network domain reports, once per page; True when
        this call started it (the caller then enables the domain)."""
        if self._network_tracked:
            return False
        self._network_tracked = True
        events = self.session.listen(
            ["Network.requestWillBeSent", "Network.responseReceived", "Network.dataReceived",
             "Network.loadingFinished", "Network.loadingFailed"],
            raw=True,
        )
        self.browser.start_task(self._count_requests, events)
        return True

    async def _count_requests(self, events: Any) -> None:
        with self._task_scope(), events:
            async for event in events:
                request_id = event.params.get("requestId", "")
                if event.method == "Network.requestWillBeSent":
                    if event.params.get("type") not in _LONG_LIVED_TYPES:
                        self._inflight.add(request_id)
                elif event.method != "Network.dataReceived":
                    # A response whose body the page never reads stays "loading"
                    # forever, so headers received counts as settled; later body
                    # chunks still reset the quiet timer.
                    self._inflight.discard(request_id)
                self._last_network_activity = trio.current_time()
                self._notify()

    def network_quiet_for(self) -> float:
        """Seconds since the last network activity, 0 while a request is in flight.

        Meaningful only after :meth:`track_network`."""
        if self._inflight:
            return 0.0
        return trio.current_time() - self._last_network_activity

    async def wait_for_network_quiet(self, quiet: float, *, timeout: float) -> bool:
        """Wait until no request was in flight for ``quiet`` seconds; False on timeout.

        Unlike ``networkidle`` it neither waits for ``load`` nor uses the fixed half second,
        so a caller that tracks other signals can pick a shorter window."""
        await self._track_network()
        with trio.move_on_after(timeout):
            await self._wait_network_idle(quiet)
            return True
        return False

    async def _wait_network_idle(self, quiet: float = NETWORK_QUIET_SECONDS) -> None:
        """No request in flight for ``quiet`` seconds (Chromium's own signal is unreliable)."""
        while True:
            self._check_alive()
            if not self._inflight:
                remaining = self._last_network_activity + quiet - trio.current_time()
                if remaining <= 0:
                    return
                with trio.move_on_after(remaining):
                    await self._changed.wait()
            else:
                await self._changed.wait()

    async def _wait_lifecycle(self, loader_id: str | None, name: str) -> None:
        while True:
            current = self._lifecycle
            if (loader_id is None or current.loader_id == loader_id) and name in current.reached:
                return
            self._check_alive()
            await self._changed.wait()

    def _check_alive(self) -> None:
        """Raise when nothing can change any more: page closed, target or browser gone."""
        if not self.session.connection.is_open:
            raise BrowserClosed("the browser went away while waiting for the page")
        if self._closed:
            raise TargetClosed("page closed while waiting for it to load")
        if self._gone:
            raise TargetClosed("the page's target went away while waiting for it")

    async def reload(self, *, wait_until: str | None = "load", timeout: float = 30.0) -> None:
        with trio.move_on_after(timeout):
            old = self._lifecycle.loader_id
            await self.session.execute(page_domain.reload())
            while self._lifecycle.loader_id == old:
                await self._changed.wait()
            if wait_until:
                await self._wait_state(self._lifecycle.loader_id, wait_until)
            return
        raise NavigationTimeout(await self.url(), wait_until or "commit", timeout)

    async def set_content(self, html: str) -> None:
        """Replace the document's HTML without a network round trip."""
        await self.session.execute(
            page_domain.set_document_content(frame_id=self.main_frame_id, html=html)
        )

    # -- evaluation ----------------------------------------------------------

    async def evaluate(
        self,
        expression: str,
        *,
        await_promise: bool = True,
        return_by_value: bool = True,
        context_id: int | None = None,
        user_gesture: bool = False,
        timeout: float | None = None,
    ) -> Any:
        """Evaluate in the main frame (or ``context_id``) and return the value, or the
        RemoteObject when not ``return_by_value``; a thrown exception raises ``JavaScriptError``."""
        remote = await evaluation.evaluate_remote(
            self.session, expression, context_id, by_value=return_by_value,
            await_promise=await_promise, user_gesture=user_gesture, timeout=timeout,
        )
        return evaluation.remote_value(remote) if return_by_value else remote

    async def isolated_world(self, frame_id: str | None = None, name: str = "a11y") -> int:
        """The isolated world ``name`` in a frame: page scripts cannot see or patch it (see
        :func:`cdpdriver.evaluation.isolated_world`)."""
        return await evaluation.isolated_world(self.session, frame_id or self.main_frame_id, name)

    async def title(self) -> str:
        return str(await self.evaluate("document.title"))

    async def url(self) -> str:
        try:
            return str(await self.evaluate("location.href", timeout=5))
        except CDPError:
            return ""

    async def screenshot(self, *, format: str = "png", quality: int | None = None,
                         full_page: bool = False) -> bytes:
        data = await self.session.execute(
            page_domain.capture_screenshot(
                format=format,  # type: ignore[arg-type]
                quality=quality,
                capture_beyond_viewport=full_page or None,
            )
        )
        return base64.b64decode(data)

    # -- teardown ------------------------------------------------------------

    async def close(self) -> None:
        """Close the tab; safe on a page whose browser is already gone."""
        if self._closed:
            return
        self._closed = True
        self._notify()
        for scope in self._task_scopes:
            scope.cancel()
        with trio.CancelScope(shield=True), trio.move_on_after(5):
            try:
                await self.browser.session.execute(
                    target_domain.close_target(self.target_id)
                )
            except CDPError:
                pass

    @property
    def is_closed(self) -> bool:
        """True once closed by us, or once its target went away (window.close(), crash, browser gone)."""
        return self._closed or self._gone

