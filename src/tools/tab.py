"""A tab as the tools see it: the driver page plus what happened in it since it opened.

One helper task per tab records console messages, network requests, dialogs
and execution contexts from the moment the tab opens, so an agent can ask
afterwards what the page logged or fetched.

A page can log or fetch without end, so every per-tab buffer has a fixed size
(``CONSOLE_KEPT``, ``REQUESTS_KEPT``, ``LOGS_KEPT``). The overflow policy is the
same for all three: the oldest entry is dropped and counted in the buffer's
``dropped``, which the tools that read the buffer report, so an agent knows its
view starts late. Clearing a buffer resets its count.
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import trio

from cdpdriver import Batch, CDPError, Page, Reply, Session

from .inputs import MouseState

log = logging.getLogger(__name__)

CONSOLE_KEPT = 2000  # console messages and uncaught exceptions per tab
REQUESTS_KEPT = 5000  # network requests per tab (a redirect hop counts as one)
LOGS_KEPT = 2000  # browser log entries (Log domain) per tab
_CONSOLE_TYPES = {"warning": "warn", "assert": "error", "trace": "log", "dir": "log", "table": "log"}


T = TypeVar("T")


class DropOldest(Generic[T]):
    """The newest ``limit`` entries, oldest first; a full buffer drops its oldest and counts it.

    ``dropped`` counts since the buffer was created or last cleared, so a reader can tell
    "nothing happened before this" from "older entries were lost".
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.dropped = 0
        self._entries: deque[T] = deque(maxlen=limit)

    def append(self, entry: T) -> None:
        if len(self._entries) == self.limit:
            self.dropped += 1
        self._entries.append(entry)

    def clear(self) -> None:
        self._entries.clear()
        self.dropped = 0

    def __iter__(self) -> Iterator[T]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


@dataclass
class Dialog:
    type: str
    message: str
    default_value: str = ""
    url: str = ""


@dataclass
class FrameRef:
    """Where element and script tools act: a session and, for in-process frames, a context."""

    session: Session
    frame_id: str
    context_id: int | None = None
    name: str = ""
    url: str = ""
    offset: tuple[float, float] = (0.0, 0.0)
    # Out-of-process frames: recomputes ``offset`` before coordinates are used, since
    # scrolling an element into view inside the frame can scroll the top page as well.
    refresh_offset: Callable[[], Awaitable[tuple[float, float]]] | None = None


@dataclass
class RequestRecord:
    request_id: str
    url: str
    method: str
    resource_type: str
    status: int = 0
    status_text: str = ""
    response_size: int = 0
    mime_type: str = ""
    failed: bool = False
    error_text: str | None = None
    started: float = 0.0
    finished: float | None = None
    request_headers: dict[str, Any] = field(default_factory=dict)
    response_headers: dict[str, Any] = field(default_factory=dict)
    post_data: str | None = None


class RequestLog(OrderedDict[str, RequestRecord]):
    """Request records by id, oldest first, with the same policy as :class:`DropOldest`."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.dropped = 0

    def __setitem__(self, request_id: str, record: RequestRecord) -> None:
        super().__setitem__(request_id, record)
        while len(self) > self.limit:
            self.popitem(last=False)
            self.dropped += 1

    def clear(self) -> None:
        super().clear()
        self.dropped = 0


class Tab:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: DropOldest[dict[str, Any]] = DropOldest(CONSOLE_KEPT)
        self.browser_logs: DropOldest[dict[str, Any]] = DropOldest(LOGS_KEPT)
        self.requests = RequestLog(REQUESTS_KEPT)
        self.dialog: Dialog | None = None
        self.dialog_opened = trio.Event()
        self.contexts: dict[str, int] = {}
        self.frame: FrameRef | None = None
        self.mouse = MouseState()
        self.scope = trio.CancelScope()
        self.extras: dict[str, Any] = {}  # per-tab state a namespace keeps (routes, coverage…)
        # Main-frame navigations the page asked for, and how many of them had been asked for
        # when a document last committed: more asked than committed is a navigation pending
        # (which may yet turn out to be a download).
        self.navigations_requested = 0
        self.navigations_committed = 0
        # False from a main-frame commit until that document's DOMContentLoaded: a document
        # read before then (its accessibility tree, its DOM) may still be empty.
        self.document_parsed = True
        self._changed = trio.Event()
        self._recording = True

    @property
    def id(self) -> str:
        return self.page.target_id

    @property
    def session(self) -> Session:
        return self.page.session

    @property
    def changed(self) -> trio.Event:
        """Set at the tab's next navigation request, commit or DOMContentLoaded, dialog, or end
        of recording: a waiter takes it, re-checks its condition, and waits on it (no poll)."""
        return self._changed

    @property
    def gone(self) -> bool:
        """True once the page closed or its events stopped (the target went away)."""
        return not self._recording or self.page.is_closed

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def queue_start(self, nursery: trio.Nursery, init_scripts: list[str], batch: Batch) -> list[Reply[Any]]:
        """Begin recording, then queue the domains whose events we record and the init scripts.

        Recording starts before the batch is sent, so no event of the tab's first document is
        missed; the replies are the tab's own set-up, which must succeed for the tab to work.
        """
        events = self.session.listen(raw=True)
        nursery.start_soon(self._record, events)
        replies = [batch.send("Runtime.enable"), batch.send("Network.enable", {"maxPostDataSize": 65536}),
                   batch.send("Log.enable")]
        replies += [batch.send("Page.addScriptToEvaluateOnNewDocument", {"source": source})
                    for source in init_scripts]
        return replies

    async def _record(self, events: Any) -> None:
        try:
            with self.scope, events:
                async for event in events:
                    try:
                        self._on_event(event.method, event.params)
                    except Exception:  # one odd event must not stop the recording
                        log.exception("tab event %s", event.method)
        finally:
            self._recording = False
            self._notify()  # the tab is gone: wake whoever waits on it

    def _on_event(self, method: str, params: dict[str, Any]) -> None:
        handler = _HANDLERS.get(method)
        if handler is not None:
            handler(self, params)

    # -- event handlers (one per recorded event) -----------------------------------

    def _console(self, params: dict[str, Any]) -> None:
        args = params.get("args") or []
        frame = ((params.get("stackTrace") or {}).get("callFrames") or [{}])[0]
        kind = params.get("type", "log")
        self.console.append({
            "type": _CONSOLE_TYPES.get(kind, kind),
            "text": " ".join(_remote_text(a) for a in args),
            "args": [_remote_value(a) for a in args],
            "url": frame.get("url", ""),
            "line": int(frame.get("lineNumber", -1)) + 1,
            "stack": (params.get("stackTrace") or {}).get("callFrames") or [],
            "timestamp": params.get("timestamp"),
        })

    def _exception(self, params: dict[str, Any]) -> None:
        details = params.get("exceptionDetails") or {}
        exc = details.get("exception") or {}
        self.console.append({
            "type": "error",
            "text": exc.get("description") or details.get("text", "Uncaught exception"),
            "args": [],
            "url": details.get("url", ""),
            "line": int(details.get("lineNumber", -1)) + 1,
            "stack": (details.get("stackTrace") or {}).get("callFrames") or [],
            "timestamp": params.get("timestamp"),
        })

    def _log_entry(self, params: dict[str, Any]) -> None:
        entry = params.get("entry") or {}
        self.browser_logs.append({
            "source": entry.get("source", ""), "level": entry.get("level", ""),
            "text": entry.get("text", ""), "url": entry.get("url", ""),
            "timestamp": entry.get("timestamp"),
        })

    def _request(self, params: dict[str, Any]) -> None:
        request = params.get("request") or {}
        request_id = params.get("requestId", "")
        record = self.requests.get(request_id)
        if record is not None and params.get("redirectResponse"):
            # A redirect reuses the id: keep the hop under its own key (removed first, so a
            # full log cannot drop it between the two steps).
            hop_key = f"{request_id}#{len(self.requests)}"
            del self.requests[request_id]
            self.requests[hop_key] = record
        self.requests[request_id] = RequestRecord(
            request_id=request_id, url=request.get("url", ""), method=request.get("method", "GET"),
            resource_type=params.get("type", "Other"), started=params.get("timestamp") or 0.0,
            request_headers=request.get("headers") or {}, post_data=request.get("postData"),
        )

    def _response(self, params: dict[str, Any]) -> None:
        record = self.requests.get(params.get("requestId", ""))
        if record is None:
            return
        response = params.get("response") or {}
        record.status = int(response.get("status") or 0)
        record.status_text = response.get("statusText", "")
        record.mime_type = response.get("mimeType", "")
        record.response_headers = response.get("headers") or {}

    def _finished(self, params: dict[str, Any]) -> None:
        record = self.requests.get(params.get("requestId", ""))
        if record is not None:
            record.response_size = int(params.get("encodedDataLength") or 0)
            record.finished = params.get("timestamp")

    def _failed(self, params: dict[str, Any]) -> None:
        record = self.requests.get(params.get("requestId", ""))
        if record is not None:
            record.failed = True
            record.error_text = params.get("errorText")
            record.finished = params.get("timestamp")

    def _dialog_opening(self, params: dict[str, Any]) -> None:
        self.dialog = Dialog(params.get("type", "alert"), params.get("message", ""),
                             params.get("defaultPrompt", ""), params.get("url", ""))
        self.dialog_opened.set()
        self._notify()

    def _dialog_closed(self, params: dict[str, Any]) -> None:
        self.dialog = None
        self.dialog_opened = trio.Event()

    def _context_created(self, params: dict[str, Any]) -> None:
        context = params.get("context") or {}
        aux = context.get("auxData") or {}
        if aux.get("isDefault") and aux.get("frameId"):
            self.contexts[aux["frameId"]] = int(context["id"])

    def _context_destroyed(self, params: dict[str, Any]) -> None:
        gone = params.get("executionContextId")
        for frame_id, context_id in list(self.contexts.items()):
            if context_id == gone:
                del self.contexts[frame_id]

    def _contexts_cleared(self, params: dict[str, Any]) -> None:
        self.contexts.clear()

    def _navigation_requested(self, params: dict[str, Any]) -> None:
        if params.get("frameId") == self.id:
            self.navigations_requested += 1
            self._notify()

    def _frame_navigated(self, params: dict[str, Any]) -> None:
        if not (params.get("frame") or {}).get("parentId"):
            self.navigations_committed = self.navigations_requested
            self.document_parsed = params.get("type") == "BackForwardCacheRestore"  # a restored page is whole
            self._notify()

    def _dom_content_loaded(self, params: dict[str, Any]) -> None:
        self.document_parsed = True
        self._notify()

    def navigation_pending(self, since: int) -> bool:
        """True while a main-frame navigation asked for after ``since`` requests has not committed."""
        return self.navigations_requested > max(since, self.navigations_committed)

    def _frame_detached(self, params: dict[str, Any]) -> None:
        if self.frame is not None and self.frame.frame_id == params.get("frameId"):
            self.frame = None

    # -- queries -----------------------------------------------------------------

    async def title(self) -> str:
        try:
            info = await self.page.browser.session.send("Target.getTargetInfo", {"targetId": self.id}, timeout=5)
            return str(info["targetInfo"].get("title", ""))
        except CDPError:
            return ""

    async def url(self) -> str:
        try:
            info = await self.page.browser.session.send("Target.getTargetInfo", {"targetId": self.id}, timeout=5)
            return str(info["targetInfo"].get("url", ""))
        except CDPError:
            return ""

    def close(self) -> None:
        self.scope.cancel()


_HANDLERS = {
    "Runtime.consoleAPICalled": Tab._console,
    "Runtime.exceptionThrown": Tab._exception,
    "Runtime.executionContextCreated": Tab._context_created,
    "Runtime.executionContextDestroyed": Tab._context_destroyed,
    "Runtime.executionContextsCleared": Tab._contexts_cleared,
    "Log.entryAdded": Tab._log_entry,
    "Network.requestWillBeSent": Tab._request,
    "Network.responseReceived": Tab._response,
    "Network.loadingFinished": Tab._finished,
    "Network.loadingFailed": Tab._failed,
    "Page.javascriptDialogOpening": Tab._dialog_opening,
    "Page.javascriptDialogClosed": Tab._dialog_closed,
    "Page.frameDetached": Tab._frame_detached,
    "Page.frameRequestedNavigation": Tab._navigation_requested,
    "Page.frameNavigated": Tab._frame_navigated,
    "Page.domContentEventFired": Tab._dom_content_loaded,
}


def _remote_value(remote: dict[str, Any]) -> Any:
    if "value" in remote:
        return remote["value"]
    if "unserializableValue" in remote:
        return remote["unserializableValue"]
    return remote.get("description") or remote.get("type")


def _remote_text(remote: dict[str, Any]) -> str:
    value = _remote_value(remote)
    return value if isinstance(value, str) else str(value if value is not None else remote.get("type", ""))
