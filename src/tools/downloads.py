"""Downloads: every file the browser downloads lands in the output directory, safely named.

The browser saves a download under a staging folder by its guid (``allowAndName``), so
nothing the page says decides where a file is written; once complete, the file moves to
``<output>/downloads/`` under its suggested name, cleaned to a plain file name. A tool
whose action may start a download (a click, a navigation) takes a :meth:`Downloads.mark`
before it acts and reports what began since (:func:`watch_action`).

The browser reports every download once, on its own session, naming only the frame that
began it; one browser serves the contexts of many clients (``tools.contexts``), so a
:class:`DownloadRouter` hands each download to the :class:`Downloads` of the session whose
frame began it, and each context saves under a folder of its own.
"""

from __future__ import annotations

import logging
import os
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import trio

from cdpdriver import CDPError

from .models import DownloadInfo

if TYPE_CHECKING:
    from cdpdriver import Browser

    from .locate import Element
    from .session import ToolSession
    from .tab import Tab

log = logging.getLogger(__name__)

FOLDER = "downloads"
STAGING = ".incoming"
START_WAIT = 1.0   # how long an action waits to learn whether its navigation is a download
FINISH_WAIT = 5.0  # how long an action waits for its downloads before reporting them in progress
KEPT = 200         # downloads remembered per browser
#: A hostile page can stream a download for ever: one that grows past this is cancelled and
#: its partial file deleted, so the output directory's disk cannot be filled through it.
MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024
_UNSAFE = re.compile(r"[^\w.() +,=@-]+")
_GUID = re.compile(r"[0-9a-fA-F-]{8,64}")  # the staged file's name: never a path
BEGIN, PROGRESS = "Browser.downloadWillBegin", "Browser.downloadProgress"


@dataclass
class Download:
    guid: str
    url: str
    suggested_filename: str
    state: str = "in_progress"
    received: int = 0
    path: Path | None = None
    done: trio.Event = field(default_factory=trio.Event)

    def info(self) -> DownloadInfo:
        return DownloadInfo(path=str(self.path) if self.path else None, suggested_filename=self.suggested_filename,
                            url=self.url, bytes=self.received, state=self.state)


def safe_name(suggested: str) -> str:
    """A plain file name: no directory part, no leading dot, nothing a shell or path reads."""
    base = re.split(r"[\\/]", suggested)[-1]
    clean = _UNSAFE.sub("_", "".join(ch for ch in base if ch.isprintable())).strip(" .")
    return clean[:120] or "download"


def unique_path(folder: Path, name: str) -> Path:
    """``name`` in ``folder``, numbered ``name (2).ext`` … when taken."""
    stem, dot, suffix = name.rpartition(".") if "." in name else (name, "", "")
    candidate, number = folder / name, 2
    while candidate.exists():
        candidate = folder / f"{stem} ({number}){dot}{suffix}"
        number += 1
    return candidate


class Downloads:
    """The downloads of one browser, by guid, in the order they began."""

    def __init__(self, output_root: Path) -> None:
        self.folder = output_root / FOLDER
        self.staging = self.folder / STAGING
        self._begun: OrderedDict[str, Download] = OrderedDict()
        self._count = 0
        self._changed = trio.Event()
        self._context_id: str | None = None
        #: Told of each download as it begins (``--confirm-actions``: tools.guard.confirm).
        self.gate: Callable[[Download], None] | None = None
        #: Told of each file saved (the session, which serves it as a resource: a11y.mcp_files).
        self.saved: Callable[[Path], None] | None = None

    @property
    def changed(self) -> trio.Event:
        """Set at the next download event (begun or progressed)."""
        return self._changed

    def mark(self) -> int:
        """How many downloads have begun: pass it to :meth:`since` after acting."""
        return self._count

    def since(self, mark: int) -> list[Download]:
        fresh = self._count - mark
        return list(self._begun.values())[-fresh:] if fresh > 0 else []

    async def wait_begun(self, mark: int, timeout: float) -> list[Download]:
        """The downloads begun since ``mark``, waiting up to ``timeout`` for the first."""
        with trio.move_on_after(timeout):
            while not self.since(mark):
                await self._changed.wait()
        return self.since(mark)

    async def allow(self, browser: Browser, context_id: str | None) -> None:
        """Let the browser download into the staging folder (it creates it) and report progress."""
        params: dict[str, Any] = {"behavior": "allowAndName", "downloadPath": str(self.staging),
                                  "eventsEnabled": True}
        if context_id:
            params["browserContextId"] = context_id
            self._context_id = context_id
        await browser.session.send("Browser.setDownloadBehavior", params)

    async def on_event(self, browser: Browser, method: str, params: dict[str, Any]) -> None:
        """Record a download's beginning or progress; never raises on an odd event."""
        try:
            if method == BEGIN:
                self._begin(params)
            elif (oversized := self._progress(params)) is not None:
                await self._cancel(browser, oversized)
        except Exception:
            log.exception("download event %s", method)
        self._changed.set()
        self._changed = trio.Event()

    def is_staged(self, guid: str) -> bool:
        """True when the browser is writing (or wrote) the download ``guid`` into this folder."""
        return _GUID.fullmatch(guid) is not None and (self.staging / guid).exists()

    def _begin(self, params: dict[str, Any]) -> None:
        guid = str(params.get("guid", ""))
        self._begun[guid] = Download(guid, str(params.get("url", "")), str(params.get("suggestedFilename", "")))
        self._count += 1
        if self.gate is not None:
            self.gate(self._begun[guid])
        while len(self._begun) > KEPT:
            self._begun.popitem(last=False)

    def _progress(self, params: dict[str, Any]) -> Download | None:
        """Record progress; the download when it just grew past ``MAX_DOWNLOAD_BYTES``."""
        download = self._begun.get(str(params.get("guid", "")))
        if download is None or download.done.is_set():
            return None
        download.received = int(params.get("receivedBytes") or 0)
        state = params.get("state")
        if state == "inProgress" and download.received > MAX_DOWNLOAD_BYTES:
            return download
        if state == "completed":
            download.path = self._keep(download)
            download.state = "completed"
            download.done.set()
        elif state == "canceled":
            if download.state != "too_large":
                download.state = "canceled"
            staged = self._staged(download)
            if staged is not None:
                staged.unlink(missing_ok=True)
            download.done.set()
        return None

    async def _cancel(self, browser: Browser, download: Download) -> None:
        """Stop an oversized download; the browser's "canceled" event deletes the partial file."""
        params: dict[str, Any] = {"guid": download.guid}
        if self._context_id:
            params["browserContextId"] = self._context_id
        download.state = "too_large"
        await browser.session.send("Browser.cancelDownload", params)

    def _staged(self, download: Download) -> Path | None:
        """Where the browser saved the file, named by its guid; None if the guid is not one."""
        return self.staging / download.guid if _GUID.fullmatch(download.guid) else None

    def _keep(self, download: Download) -> Path | None:
        """Move the staged file to its final name; None if it is not on this machine."""
        staged = self._staged(download)
        if staged is None or not staged.is_file():  # a browser elsewhere (browser_url) keeps its copy
            return None
        target = unique_path(self.folder, safe_name(download.suggested_filename))
        os.replace(staged, target)
        if self.saved is not None:
            self.saved(target)
        return target


class DownloadOwner(Protocol):
    """What the router needs of a tool session: its downloads, and which frames are its own."""

    downloads: Downloads

    def owns_frame(self, frame_id: str) -> bool: ...


class DownloadRouter:
    """Hands each download the browser reports to the session whose frame began it.

    A download names its frame, so it goes to the session with a tab holding that frame (the
    only session, when there is one). A frame no session knows (a frame that just attached) is
    found by where the file lands: each context saves into its own folder, named by the
    download's guid, so the download is held back until its progress shows whose folder it is.
    """

    def __init__(self, owners: Callable[[], Sequence[DownloadOwner]]) -> None:
        self._owners = owners
        self._routes: OrderedDict[str, DownloadOwner] = OrderedDict()
        self._unclaimed: OrderedDict[str, dict[str, Any]] = OrderedDict()

    async def watch(self, browser: Browser, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Route every download event of ``browser`` until it closes."""
        with browser.session.listen([BEGIN, PROGRESS], raw=True) as events:
            task_status.started()
            async for event in events:
                await self._route(browser, event.method, event.params)

    async def _route(self, browser: Browser, method: str, params: dict[str, Any]) -> None:
        guid = str(params.get("guid", ""))
        owners = list(self._owners())
        owner = self._routes.get(guid)
        if method == BEGIN:
            frame = str(params.get("frameId", ""))
            owner = next((o for o in owners if o.owns_frame(frame)), owners[0] if len(owners) == 1 else None)
            if owner is None:
                _remember(self._unclaimed, guid, params)
                return
        elif owner is None and guid in self._unclaimed:
            owner = next((o for o in owners if o.downloads.is_staged(guid)), None)
            if owner is None:
                return
            await owner.downloads.on_event(browser, BEGIN, self._unclaimed.pop(guid))
        if owner is None:
            return
        _remember(self._routes, guid, owner)
        await owner.downloads.on_event(browser, method, params)
        if params.get("state") in ("completed", "canceled"):
            self._routes.pop(guid, None)


def _remember(table: OrderedDict[str, Any], key: str, value: Any) -> None:
    table[key] = value
    while len(table) > KEPT:
        table.popitem(last=False)


@dataclass
class ActionWatch:
    """What an action may start, taken before it acts: see :func:`watch_action`."""

    downloads: Downloads
    tab: Tab
    mark: int
    requested: int
    expected: bool  # the action is a click on a link that says it downloads

    async def settle(self) -> list[DownloadInfo]:
        """The downloads the action began, each completed or, after a short wait, in progress.

        A download's first event can trail the action: after one round trip to the tab (so
        the navigation it asked for, if any, is known), wait while a navigation is pending or
        a download link was clicked, until a download begins or the tab commits a document;
        a committed document is then waited for until parsed (DOMContentLoaded), so the next
        tool does not read an empty page. An action that asked for neither returns after that
        round trip; the waits are woken by the events themselves, never polled.
        """
        from cdpdriver import first_of

        from .locate import guard_dialog

        tab = self.tab
        try:  # a dialog the action opened blocks the page's script: then this returns at once
            if tab.dialog is None:
                await guard_dialog(tab, tab.session.send("Runtime.evaluate", {"expression": "0"}, timeout=5))
        except CDPError:
            return [d.info() for d in self.downloads.since(self.mark)]
        def undecided() -> bool:  # no download yet, no dialog in the way, the tab still there
            return not self.downloads.since(self.mark) and tab.dialog is None and not tab.gone

        with trio.move_on_after(START_WAIT):
            while undecided() and (self.expected or tab.navigation_pending(self.requested)):
                await first_of(tab.changed, self.downloads.changed)
            while undecided() and self._committed() and not tab.document_parsed:
                await first_of(tab.changed, self.downloads.changed)
        begun = self.downloads.since(self.mark)
        with trio.move_on_after(FINISH_WAIT):
            for download in begun:
                await download.done.wait()
        return [download.info() for download in begun]

    def _committed(self) -> bool:
        """True when the action asked for a navigation and the tab has committed it."""
        tab = self.tab
        return tab.navigations_requested > self.requested and not tab.navigation_pending(self.requested)


async def watch_action(session: ToolSession, tab: Tab, element: Element | None = None) -> ActionWatch:
    """Note what an action may start (call before it acts; ``element`` is what it clicks)."""
    expected = False
    if element is not None:
        expected = bool(await element.call(
            "function () { return !!this.closest('a[href][download], area[href][download]'); }"))
    return ActionWatch(session.downloads, tab, session.downloads.mark(), tab.navigations_requested, expected)
