"""Chrome tracing for trace_: record segments with the ``Tracing`` domain, pack them as a ZIP.

A trace is a list of segments. Each segment is one ``Tracing.start`` …
``Tracing.end`` run, read back through ``IO.read`` in chunks straight into a
file (a trace is never one giant message, nor held whole in memory). A chunk
(trace_chunk_start/stop) closes the running segment and opens a new one at
each of its ends, so a chunk is exactly a run of whole segments, and the full
trace is all of them.

Markers (groups, chunk boundaries) are placed with ``Tracing.recordClockSyncMarker``,
which stamps a ``clock_sync`` event on the trace's own clock; when the ZIP is
written they become user-timing events (``blink.user_timing``) that Perfetto
and the DevTools Performance panel show as named spans.

The ZIP holds ``trace.json`` (Chrome trace event format), ``network.har``,
``markers.json``, and when asked ``screenshots/*.jpg`` (from the trace's own
screenshot events), ``snapshots/*.html`` (DOM after each action) and
``sources/*`` (the page's scripts).
"""

from __future__ import annotations

import base64
import io
import json
import logging
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import trio

from cdpdriver import CDPError, Session

from . import har
from .errors import ToolError
from .tab import RequestRecord

log = logging.getLogger(__name__)

BASE_CATEGORIES = (
    "__metadata", "blink.console", "blink.user_timing", "devtools.timeline",
    "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame",
    "latencyInfo", "loading", "v8.execute",
)
SCREENSHOT_CATEGORIES = ("disabled-by-default-devtools.screenshot",)
SOURCE_CATEGORIES = ("disabled-by-default-devtools.timeline.stack", "disabled-by-default-v8.cpu_profiler")
READ_CHUNK = 1 << 20
END_TIMEOUT = 60.0

VIEW_HINT = ("unzip it and open trace.json in https://ui.perfetto.dev (Open trace file) or in Chrome "
             "DevTools → Performance → Load profile; network.har loads in DevTools → Network (Import HAR); "
             "snapshots/ and screenshots/ show the page after each action")


def categories(screenshots: bool, sources: bool) -> list[str]:
    chosen = list(BASE_CATEGORIES)
    if screenshots:
        chosen += SCREENSHOT_CATEGORIES
    if sources:
        chosen += SOURCE_CATEGORIES
    return chosen


async def start_segment(session: Session, cats: list[str]) -> None:
    try:
        await session.send("Tracing.start", {
            "transferMode": "ReturnAsStream", "streamFormat": "json",
            "traceConfig": {"recordMode": "recordAsMuchAsPossible", "includedCategories": cats},
        }, timeout=15)
    except CDPError as exc:
        if "already" in str(exc).lower():
            raise ToolError("already_started", f"the browser is already tracing (another tab or client): {exc}") from exc
        raise


async def end_segment(session: Session, dest: Path) -> bool:
    """End tracing and stream the data into ``dest``; True when the browser reported data loss."""
    with session.listen("Tracing.tracingComplete", raw=True) as done:
        await session.send("Tracing.end", timeout=15)
        with trio.fail_after(END_TIMEOUT):
            event = await done.receive()
    handle = event.params.get("stream")
    if not handle:
        raise ToolError("internal_error", "the browser returned no trace stream")
    await read_stream(session, handle, dest)
    return bool(event.params.get("dataLossOccurred"))


async def read_stream(session: Session, handle: str, dest: Path) -> int:
    """Copy an IO stream to a file, one bounded chunk at a time; always closes the handle."""
    written = 0
    try:
        with open(dest, "wb") as out:
            while True:
                reply = await session.send("IO.read", {"handle": handle, "size": READ_CHUNK}, timeout=30)
                data = reply.get("data") or ""
                chunk = base64.b64decode(data) if reply.get("base64Encoded") else data.encode()
                out.write(chunk)
                written += len(chunk)
                if reply.get("eof"):
                    return written
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(5):
            try:
                await session.send("IO.close", {"handle": handle}, timeout=5)
            except CDPError:
                pass


async def clock_sync(session: Session, sync_id: str) -> bool:
    try:
        await session.send("Tracing.recordClockSyncMarker", {"syncId": sync_id}, timeout=5)
        return True
    except CDPError as exc:
        log.debug("clock sync marker failed: %s", exc)
        return False


@dataclass
class Marker:
    kind: str  # trace_start, group_start, group_stop, chunk_start, chunk_stop, trace_stop
    name: str
    sync_id: str
    mono: float = field(default_factory=time.monotonic)
    wall: float = field(default_factory=time.time)
    location: str | None = None
    group_id: int | None = None


def load_events(path: Path) -> list[dict[str, Any]]:
    try:
        with open(path, "rb") as source:
            data = json.load(source)
    except (OSError, ValueError) as exc:
        log.warning("unreadable trace segment %s: %s", path, exc)
        return []
    return data.get("traceEvents", []) if isinstance(data, dict) else list(data)


@dataclass
class Survey:
    """What the first pass over the segments learns: marker times, the page's thread, screenshots."""

    sync_ts: dict[str, float] = field(default_factory=dict)
    pid: int = 0
    tid: int = 0
    screenshots: int = 0
    events: int = 0
    last_ts: float = 0.0


def _survey(segments: list[Path], zf: zipfile.ZipFile | None) -> Survey:
    survey = Survey()
    renderer: int | None = None
    main_threads: dict[int, int] = {}
    for segment in segments:
        for event in load_events(segment):
            survey.events += 1
            name, args = event.get("name"), event.get("args") or {}
            ts = event.get("ts")
            if isinstance(ts, (int, float)):
                survey.last_ts = max(survey.last_ts, float(ts))
            if name == "clock_sync" and "sync_id" in args:
                survey.sync_ts[str(args["sync_id"])] = float(event.get("ts", 0))
                survey.pid = survey.pid or int(event.get("pid", 0))
                survey.tid = survey.tid or int(event.get("tid", 0))
            elif name == "TracingStartedInBrowser" and renderer is None:
                frames = (args.get("data") or {}).get("frames") or []
                if frames and frames[0].get("processId"):
                    renderer = int(frames[0]["processId"])
            elif name == "thread_name" and (args.get("name") == "CrRendererMain"):
                main_threads.setdefault(int(event.get("pid", 0)), int(event.get("tid", 0)))
            elif name == "Screenshot" and zf is not None and args.get("snapshot"):
                survey.screenshots += 1
                zf.writestr(f"screenshots/{survey.screenshots:05d}-{int(ts or 0)}.jpg",
                            base64.b64decode(args["snapshot"]))
    if renderer is not None and renderer in main_threads:
        survey.pid, survey.tid = renderer, main_threads[renderer]
    return survey


def _marker_ts(marker: Marker, markers: list[Marker], survey: Survey) -> float:
    """The marker's time on the trace clock: its own sync event, else one it can be measured from."""
    if marker.sync_id in survey.sync_ts:
        return survey.sync_ts[marker.sync_id]
    for other in markers:
        if other.sync_id in survey.sync_ts:
            return survey.sync_ts[other.sync_id] + (marker.mono - other.mono) * 1e6
    return marker.mono * 1e6  # same clock as Chromium's on Linux when it runs on this machine


def marker_summary(markers: list[Marker], survey: Survey | None = None) -> dict[str, Any]:
    """Groups with their nesting and chunk boundaries, for markers.json and the injected events."""
    groups: list[dict[str, Any]] = []
    open_groups: dict[int, dict[str, Any]] = {}
    stack: list[int] = []
    points: list[dict[str, Any]] = []
    for marker in markers:
        ts = _marker_ts(marker, markers, survey) if survey else None
        stamp = {"wall_time": marker.wall, "trace_ts": ts}
        if marker.kind == "group_start" and marker.group_id is not None:
            group = {"name": marker.name, "location": marker.location, "depth": len(stack),
                     "parent": open_groups[stack[-1]]["name"] if stack else None,
                     "start": stamp, "end": None, "id": marker.group_id}
            open_groups[marker.group_id] = group
            stack.append(marker.group_id)
            groups.append(group)
        elif marker.kind == "group_stop" and marker.group_id in open_groups:
            open_groups[marker.group_id]["end"] = stamp
            if marker.group_id in stack:
                stack.remove(marker.group_id)
        else:
            points.append({"kind": marker.kind, "name": marker.name, **stamp})
    for group in groups:
        if group["end"] is None:
            group["end_missing"] = True
    return {"groups": groups, "points": points}


def _injected_events(summary: dict[str, Any], survey: Survey) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    base = {"cat": "blink.user_timing", "pid": survey.pid, "tid": survey.tid}
    for group in summary["groups"]:
        start = group["start"]["trace_ts"]
        end = group["end"]["trace_ts"] if group["end"] else survey.last_ts
        ident = {"local": f"0xa11{group['id']:x}"}
        data = {"group": group["name"], "location": group["location"], "depth": group["depth"]}
        events.append({**base, "name": group["name"], "ph": "b", "id2": ident, "ts": start, "args": {"data": data}})
        events.append({**base, "name": group["name"], "ph": "e", "id2": ident, "ts": max(start, end), "args": {}})
    for point in summary["points"]:
        events.append({**base, "name": f"{point['kind']}: {point['name']}", "ph": "I", "s": "g",
                       "ts": point["trace_ts"], "args": {"data": {"kind": point["kind"]}}})
    return events


def _write_trace_json(zf: zipfile.ZipFile, segments: list[Path], extra: list[dict[str, Any]],
                      metadata: dict[str, Any]) -> None:
    """Stream the segments' events (and ours) into one trace.json entry."""
    info = zipfile.ZipInfo("trace.json", date_time=time.localtime()[:6])
    info.compress_type = zipfile.ZIP_DEFLATED
    with zf.open(info, "w", force_zip64=True) as raw, io.TextIOWrapper(raw, encoding="utf-8") as out:
        out.write('{"traceEvents":[')
        first = True
        for events in (*(load_events(s) for s in segments), extra):
            for event in events:
                out.write(("" if first else ",\n") + json.dumps(event, separators=(",", ":")))
                first = False
        out.write('],\n"metadata":' + json.dumps(metadata) + "}\n")


@dataclass
class Package:
    segments: list[Path]
    markers: list[Marker]
    requests: list[RequestRecord]
    title: str
    snapshots: list[tuple[str, Path]]
    sources: list[tuple[str, Path]]
    metadata: dict[str, Any]
    screenshots: bool


def write_zip(target: Path | IO[bytes], package: Package) -> dict[str, Any]:
    """Write the trace ZIP; returns counts for the tool's reply."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
        survey = _survey(package.segments, zf if package.screenshots else None)
        summary = marker_summary(package.markers, survey)
        _write_trace_json(zf, package.segments, _injected_events(summary, survey), package.metadata)
        network = har.build(package.requests, wall_offset(package.markers, survey), title=package.title)
        zf.writestr("network.har", json.dumps(network, indent=1))
        for name, path in package.snapshots:
            if path.exists():
                zf.write(path, f"snapshots/{name}")
        for name, path in package.sources:
            if path.exists():
                zf.write(path, f"sources/{name}")
        zf.writestr("markers.json", json.dumps({**package.metadata, **summary}, indent=1, default=str))
    return {"events": survey.events, "screenshots": survey.screenshots,
            "snapshots": len(package.snapshots), "requests": len(network["log"]["entries"])}


def wall_offset(markers: list[Marker], survey: Survey) -> float:
    """Wall-clock seconds minus trace-clock seconds (CDP network timestamps use the trace clock)."""
    for marker in markers:
        if marker.sync_id in survey.sync_ts:
            return marker.wall - survey.sync_ts[marker.sync_id] / 1e6
    return time.time() - time.monotonic()
