"""trace_: record a Chrome trace with network HAR, screenshots and DOM snapshots, as a ZIP.

trace_start begins recording on the current tab; trace_stop writes the ZIP
(see ``tools.tracing`` for its layout). While tracing, every action tool call
(navigate, click, fill… — the tools that would be recorded) is followed by a
DOM snapshot of the page. Chunks are slices of the running trace saved as
their own ZIP; groups are named, nestable spans shown in the trace viewers.
"""

from __future__ import annotations

import base64
import contextlib
import io
import logging
import re
import shutil
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

from ..errors import ToolError
from ..models import MessageOutput, NoInput, ToolInput
from ..registry import Outcome, Tool, tool

if TYPE_CHECKING:
    import trio

    from .. import tracing
    from ..recording import Switch
    from ..session import ToolSession
    from ..tab import RequestRecord, Tab


log = logging.getLogger(__name__)

SNAPSHOT_MAX_CHARS = 512_000
SOURCES_MAX_BYTES = 20_000_000
SNAPSHOT_TIMEOUT = 3.0
SNAPSHOT_DRAIN_TIMEOUT = 10.0


@cache
def _snapshot_js() -> str:
    """The page as a static document: scripts and inline handlers removed (opening a snapshot
    must not run the page), form state copied into attributes, and a <base> so styles and
    images still load."""
    from cdpdriver.scripts import call_expression, load_script

    return call_expression(load_script("tools", "page_snapshot"), SNAPSHOT_MAX_CHARS)


def _event() -> trio.Event:
    """A record's event, made when tracing starts: declaring the tools must not import trio."""
    import trio

    return trio.Event()


@dataclass
class Chunk:
    name: str
    title: str
    first_segment: int
    baseline: set[int]
    first_snapshot: int
    first_marker: int
    started: float = field(default_factory=time.time)


@dataclass
class TraceRecord:
    tab: Tab
    name: str
    title: str
    screenshots: bool
    snapshots: bool
    sources: bool
    workdir: Path
    started_wall: float = field(default_factory=time.time)
    segments: list[Path] = field(default_factory=list)
    markers: list[tracing.Marker] = field(default_factory=list)
    baseline: set[int] = field(default_factory=set)
    tabs: dict[str, Tab] = field(default_factory=dict)
    snaps: list[tuple[str, Path]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    open_groups: list[tuple[int, str]] = field(default_factory=list)
    next_id: int = 0
    chunk: Chunk | None = None
    chunks_written: int = 0
    notes: list[str] = field(default_factory=list)
    queue: Any = None
    worker_done: trio.Event = field(default_factory=_event)
    observer: Any = None
    detach_observer: Any = None
    segment_running: bool = False
    source_files: list[tuple[float, str, Path]] = field(default_factory=list)
    sources_scope: Any = None

    @property
    def categories(self) -> list[str]:
        from .. import tracing

        return tracing.categories(self.screenshots, self.sources)

    def discard(self) -> None:
        """The traced tab is gone and nobody called trace_stop: let go of everything."""
        if self.queue is not None:
            self.queue.close()
            self.queue = None
        if self.detach_observer is not None:
            self.detach_observer()
        if self.sources_scope is not None:
            self.sources_scope.cancel()
        _remove_workdir(self.workdir)

    def fresh_id(self) -> int:
        self.next_id += 1
        return self.next_id


@cache
def _trace() -> Switch[TraceRecord]:
    """Built on first use: ``recording`` loads the driver, which declaring tools must not."""
    from ..recording import Switch

    return Switch("trace", "tracing", "trace_start", "trace_stop")


# -- recording plumbing ------------------------------------------------------------------


def _all_requests(record: TraceRecord) -> list[RequestRecord]:
    return [r for t in record.tabs.values() for r in list(t.requests.values())]


def _track_tabs(session: ToolSession, record: TraceRecord) -> None:
    for tab in session.tabs:
        record.tabs.setdefault(tab.id, tab)


async def _mark(record: TraceRecord, kind: str, name: str, **extra: Any) -> tracing.Marker:
    from .. import tracing
    from ..recording import tab_alive

    marker = tracing.Marker(kind, name, f"a11y-{kind}-{record.fresh_id()}", **extra)
    record.markers.append(marker)
    if record.segment_running and tab_alive(record.tab):
        await tracing.clock_sync(record.tab.session, marker.sync_id)
    return marker


async def _end_segment(record: TraceRecord) -> None:
    """Close the running segment into a file (whatever survives if the tab has gone)."""
    import trio

    from cdpdriver import CDPError

    from .. import tracing
    from ..recording import tab_alive

    if not record.segment_running:
        return
    record.segment_running = False
    dest = record.workdir / f"segment-{len(record.segments) + 1:04d}.json"
    if not tab_alive(record.tab):
        record.notes.append("the traced tab closed; the events of its last segment are lost")
        return
    try:
        if await tracing.end_segment(record.tab.session, dest):
            record.notes.append("the browser reported trace data loss (its buffer filled)")
        record.segments.append(dest)
    except (CDPError, trio.TooSlowError) as exc:
        record.notes.append(f"a trace segment could not be read: {exc}")


async def _start_segment(record: TraceRecord) -> None:
    from .. import tracing

    await tracing.start_segment(record.tab.session, record.categories)
    record.segment_running = True


async def _roll(record: TraceRecord) -> None:
    """End the running segment and begin the next: chunk boundaries fall between segments."""
    from ..recording import tab_alive

    await _end_segment(record)
    if tab_alive(record.tab):
        await _start_segment(record)


async def _capture_snapshots(record: TraceRecord, receive: Any) -> None:
    """One at a time, after each action: the page's HTML, small and self-describing."""
    try:
        async for index, tool_name, tab in receive:
            await _capture_one(record, index, tool_name, tab)
    finally:
        record.worker_done.set()


async def _capture_one(record: TraceRecord, index: int, tool_name: str, tab: Tab) -> None:
    import trio

    from cdpdriver import CDPError, JavaScriptError

    from ..recording import evaluate_main, tab_alive

    if not tab_alive(tab) or tab.dialog is not None:
        return
    try:
        page = await evaluate_main(tab, _snapshot_js(), timeout=SNAPSHOT_TIMEOUT)
    except (ToolError, CDPError, JavaScriptError, trio.TooSlowError) as exc:
        log.debug("snapshot after %s failed: %s", tool_name, exc)
        return
    if not isinstance(page, dict):
        return
    name = f"{index:04d}-{tool_name}.html"
    header = (f"<!-- a11y trace snapshot {index} after {tool_name}: {page.get('url', '')} "
              f"at {time.strftime('%H:%M:%S')} -->\n<!doctype html>\n")
    path = record.workdir / "snapshots" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(header + str(page.get("html", "")), encoding="utf-8")
    record.snaps.append((name, path))
    if 0 < index <= len(record.actions):
        record.actions[index - 1]["snapshot"] = f"snapshots/{name}"


def _observer(session: ToolSession, record: TraceRecord) -> Any:
    import trio

    def observe(spec: Tool, arguments: dict[str, Any], outcome: Outcome) -> None:
        if not spec.records or spec.namespace == "trace":
            return
        _track_tabs(session, record)
        tab = session.tabs[session.current] if 0 <= session.current < len(session.tabs) else record.tab
        record.actions.append({"index": len(record.actions) + 1, "tool": spec.name, "ok": outcome.ok,
                               "wall_time": time.time(), "duration_ms": round(outcome.duration_ms, 1)})
        if record.snapshots and record.queue is not None:
            try:
                record.queue.send_nowait((len(record.actions), spec.name, tab))
            except (trio.ClosedResourceError, trio.BrokenResourceError):
                pass

    return observe


async def _finish_snapshots(record: TraceRecord) -> None:
    import trio

    if record.queue is None:
        return
    record.queue.close()
    record.queue = None
    with trio.move_on_after(SNAPSHOT_DRAIN_TIMEOUT):
        await record.worker_done.wait()


def _remove_workdir(workdir: Path) -> None:
    """Drop the scratch files, and the scratch folder itself once no recording uses it."""
    shutil.rmtree(workdir, ignore_errors=True)
    with contextlib.suppress(OSError):
        workdir.parent.rmdir()


def _safe_name(url: str, index: int) -> str:
    tail = url.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] or "script"
    return f"{index:03d}-{re.sub(r'[^A-Za-z0-9._-]', '_', tail)[:80]}"


async def _keep_sources(record: TraceRecord, events: Any) -> None:
    """Save each script the traced tab loads as soon as it has loaded: the browser drops
    response bodies when the page navigates, so asking at trace_stop would be too late."""
    from cdpdriver import CDPError

    scripts: dict[str, str] = {}
    total = 0
    with events:
        async for event in events:
            request_id = event.params.get("requestId", "")
            if event.method == "Network.requestWillBeSent":
                if event.params.get("type") == "Script":
                    scripts[request_id] = (event.params.get("request") or {}).get("url", "")
                continue
            url = scripts.pop(request_id, None)
            if url is None or total > SOURCES_MAX_BYTES:
                continue
            try:
                reply = await record.tab.session.send("Network.getResponseBody", {"requestId": request_id}, timeout=10)
            except CDPError:
                continue
            body = reply.get("body") or ""
            data = base64.b64decode(body) if reply.get("base64Encoded") else body.encode()
            total += len(data)
            path = record.workdir / "sources" / _safe_name(url, len(record.source_files) + 1)
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(data)
            record.source_files.append((time.time(), path.name, path))


async def _package(record: TraceRecord, *, segments: list[Path], markers: list[tracing.Marker],
                   snaps: list[tuple[str, Path]], baseline: set[int], since: float, title: str,
                   name: str) -> tracing.Package:
    from .. import tracing

    requests = [r for r in _all_requests(record) if id(r) not in baseline]
    browser = record.tab.page.browser
    metadata = {"a11y-trace": {
        "name": name, "title": title, "started": since,
        "browser": browser.version.product if browser.version else None,
        "actions": [a for a in record.actions if a["wall_time"] >= since],
        "notes": list(record.notes),
    }}
    sources = [(name, path) for wall, name, path in list(record.source_files) if wall >= since]
    return tracing.Package(segments=segments, markers=markers, requests=requests, title=title or name,
                           snapshots=snaps, sources=sources, metadata=metadata, screenshots=record.screenshots)


class TraceArchiveOutput(MessageOutput):
    path: str | None = Field(default=None, description="The saved ZIP (when path was given)")
    data: str | None = Field(default=None, description="The ZIP, base64-encoded (when no path was given)")
    size_kb: int = Field(description="Size of the ZIP in KiB")
    events: int = Field(description="Trace events recorded")
    screenshots: int = Field(description="Screenshots in the ZIP")
    snapshots: int = Field(description="DOM snapshots in the ZIP")
    requests: int = Field(description="Requests in network.har")


class TraceStopOutput(TraceArchiveOutput):
    view_hint: str = Field(description="How to open the trace")


def _emit(session: ToolSession, package: tracing.Package, path: str | None, default_name: str) -> dict[str, Any]:
    from .. import tracing

    if path:
        out = session.output_path(path, default_name)
        counts = tracing.write_zip(out, package)
        return {"path": str(out), "size_kb": max(1, round(out.stat().st_size / 1024)), **counts}
    buffer = io.BytesIO()
    counts = tracing.write_zip(buffer, package)
    raw = buffer.getvalue()
    return {"data": base64.b64encode(raw).decode(), "size_kb": max(1, round(len(raw) / 1024)), **counts}


def _describe(result: dict[str, Any], what: str, notes: list[str]) -> str:
    where = f"saved to {result['path']}" if result.get("path") else "returned as base64 ZIP in data"
    text = (f"{what} {where} ({result['size_kb']} KiB: {result['events']} events, {result['requests']} requests, "
            f"{result['screenshots']} screenshots, {result['snapshots']} snapshots)")
    return text + ("; " + "; ".join(notes) if notes else "")


# -- tools ----------------------------------------------------------------------------------


class TraceStartInput(ToolInput):
    name: str = Field(default="trace", min_length=1, max_length=80, pattern=r"^[A-Za-z0-9_.-]+$")
    title: str = Field(default="", max_length=200)
    screenshots: bool = True
    snapshots: bool = True
    sources: bool = False


class TraceStartOutput(MessageOutput):
    name: str


@tool("trace_start", TraceStartInput, TraceStartOutput, effect="sets")
async def trace_start(session: ToolSession, args: TraceStartInput) -> TraceStartOutput:
    """Start a performance trace with HAR, screenshots and DOM snapshots."""
    import trio

    from ..recording import stamp, start_background

    _trace().ensure_off(session)
    tab = await session.tab()
    workdir = session.output_path(f".tmp/trace-{args.name}-{stamp()}/segment-0000.json", "").parent
    record = TraceRecord(tab, args.name, args.title, args.screenshots, args.snapshots, args.sources, workdir)
    _track_tabs(session, record)
    record.baseline = {id(r) for r in _all_requests(record)}
    try:
        await _start_segment(record)
    except BaseException:
        _remove_workdir(workdir)
        raise
    await _mark(record, "trace_start", args.name)
    if args.sources:
        events = tab.session.listen(["Network.requestWillBeSent", "Network.loadingFinished"], raw=True)
        record.sources_scope = start_background(tab, _keep_sources, record, events)
    if args.snapshots:
        send, receive = trio.open_memory_channel[Any](1000)
        record.queue = send
        start_background(tab, _capture_snapshots, record, receive)
        send.send_nowait((0, "trace_start", tab))
    record.observer = _observer(session, record)
    session.observers.append(record.observer)

    def detach_observer() -> None:
        if record.observer in session.observers:
            session.observers.remove(record.observer)

    record.detach_observer = detach_observer
    _trace().set(session, record)
    what = ", ".join(x for x, on in (("screenshots", args.screenshots), ("DOM snapshots", args.snapshots),
                                     ("script sources", args.sources)) if on)
    return TraceStartOutput(message=f"tracing started on tab {session.current}" + (f" with {what}" if what else ""),
                            name=args.name)


class TraceStopInput(ToolInput):
    path: str | None = Field(default=None, min_length=1, description="Without it, the ZIP comes as base64")


@tool("trace_stop", TraceStopInput, TraceStopOutput, effect="sets", long=True)
async def trace_stop(session: ToolSession, args: TraceStopInput) -> TraceStopOutput:
    """Stop tracing and write the ZIP (opens in Perfetto)."""
    from .. import tracing

    if args.path:
        session.output_path(args.path, "trace.zip")  # a bad path is refused while the trace still runs
    record = _trace().take(session, keep_dead=True)
    record.detach_observer()
    try:
        await _finish_snapshots(record)
        if record.chunk is not None:
            record.notes.append(f"chunk {record.chunk.name!r} was still open and is only in the full trace")
        for _, name in reversed(record.open_groups):
            record.notes.append(f"group {name!r} was still open; it ends with the trace")
        await _mark(record, "trace_stop", record.name)
        await _end_segment(record)
        if record.sources_scope is not None:
            record.sources_scope.cancel()
        _track_tabs(session, record)
        package = await _package(record, segments=record.segments, markers=record.markers, snaps=record.snaps,
                                 baseline=record.baseline, since=record.started_wall, title=record.title,
                                 name=record.name)
        result = _emit(session, package, args.path, f"{record.name}.zip")
    finally:
        _remove_workdir(record.workdir)
    return TraceStopOutput(message=_describe(result, "trace", record.notes), view_hint=tracing.VIEW_HINT, **result)


class ChunkStartInput(ToolInput):
    name: str = Field(default="", max_length=80, pattern=r"^[A-Za-z0-9_.-]*$")
    title: str = Field(default="", max_length=200)


class ChunkStartOutput(MessageOutput):
    name: str


@tool("trace_chunk_start", ChunkStartInput, ChunkStartOutput, effect="sets")
async def trace_chunk_start(session: ToolSession, args: ChunkStartInput) -> ChunkStartOutput:
    """Start a slice of the trace that trace_chunk_stop saves as its own ZIP."""
    record = _trace().get(session)
    if record.chunk is not None:
        raise ToolError("already_started", f"chunk {record.chunk.name!r} is open; call trace_chunk_stop first")
    name = args.name or f"{record.name}-chunk-{record.chunks_written + 1}"
    await _roll(record)
    _track_tabs(session, record)
    record.chunk = Chunk(name, args.title, len(record.segments), {id(r) for r in _all_requests(record)},
                         len(record.snaps), len(record.markers))
    await _mark(record, "chunk_start", name)
    return ChunkStartOutput(message=f"chunk {name!r} started", name=name)


class ChunkStopInput(ToolInput):
    path: str | None = Field(default=None, min_length=1, description="Without it, the ZIP comes as base64")


@tool("trace_chunk_stop", ChunkStopInput, TraceArchiveOutput, effect="sets", long=True)
async def trace_chunk_stop(session: ToolSession, args: ChunkStopInput) -> TraceArchiveOutput:
    """Save the trace slice since trace_chunk_start."""
    import trio

    record = _trace().get(session)
    chunk = record.chunk
    if chunk is None:
        raise ToolError("not_started", "no chunk is open; call trace_chunk_start first")
    if args.path:
        session.output_path(args.path, "chunk.zip")
    await _mark(record, "chunk_stop", chunk.name)
    await _roll(record)
    record.chunk = None
    record.chunks_written += 1
    _track_tabs(session, record)
    # Snapshots of the chunk's last actions may still be on their way.
    with trio.move_on_after(SNAPSHOT_TIMEOUT):
        while record.queue is not None and record.queue.statistics().current_buffer_used:
            await trio.sleep(0.02)
    package = await _package(
        record, segments=record.segments[chunk.first_segment:], markers=record.markers[chunk.first_marker:],
        snaps=record.snaps[chunk.first_snapshot:], baseline=chunk.baseline, since=chunk.started,
        title=chunk.title, name=chunk.name)
    result = _emit(session, package, args.path, f"{chunk.name}.zip")
    return TraceArchiveOutput(message=_describe(result, f"chunk {chunk.name!r}", []), **result)


class GroupStartInput(ToolInput):
    name: str = Field(min_length=1, max_length=200)
    location: str | None = Field(default=None, max_length=500)


class GroupOutput(MessageOutput):
    name: str
    depth: int = Field(description="Nesting level: 0 for a top-level group")


@tool("trace_group_start", GroupStartInput, GroupOutput, effect="acts")
async def trace_group_start(session: ToolSession, args: GroupStartInput) -> GroupOutput:
    """Open a named span in the trace."""
    record = _trace().get(session)
    marker = await _mark(record, "group_start", args.name, location=args.location)
    marker.group_id = marker_id = record.fresh_id()
    record.open_groups.append((marker_id, args.name))
    depth = len(record.open_groups) - 1
    return GroupOutput(message=f"group {args.name!r} started (depth {depth})", name=args.name, depth=depth)


@tool("trace_group_stop", NoInput, GroupOutput, effect="acts")
async def trace_group_stop(session: ToolSession, args: NoInput) -> GroupOutput:
    """Close the innermost trace span."""
    record = _trace().get(session)
    if not record.open_groups:
        raise ToolError("not_started", "no trace group is open; call trace_group_start first")
    group_id, name = record.open_groups.pop()
    marker = await _mark(record, "group_stop", name)
    marker.group_id = group_id
    depth = len(record.open_groups)
    return GroupOutput(message=f"group {name!r} stopped", name=name, depth=depth)
