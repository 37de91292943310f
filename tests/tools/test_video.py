"""video_start / video_stop: a real WebM (or MP4) whose duration and size ffprobe confirms."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import trio

from tools.video_encoder import VideoEncoder

ANIMATED = """<title>video</title><body style="margin:0;background:#fff">
<div id=box style="width:60px;height:60px;background:#06c;position:absolute;top:20px"></div>
<script>let x = 0; setInterval(() => { x = (x + 5) % 300; box.style.left = x + 'px'; }, 20);</script>"""


def _probe(path: Path) -> dict:
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "format=duration:stream=width,height,codec_name", "-of", "json", str(path)],
        capture_output=True, text=True, check=True, timeout=30,
    )
    return json.loads(out.stdout)


def _container(path: Path) -> str:
    head = path.read_bytes()[:12]
    if head[:4] == b"\x1a\x45\xdf\xa3":
        return "webm"
    if head[4:8] == b"ftyp":
        return "mp4"
    return "unknown"


async def test_video_duration_and_size(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/video/anim", ANIMATED)})
    asked = time.monotonic()
    started = await mcp.ok("video_start", {"dir": "clips", "width": 320, "height": 240})
    began = time.monotonic()
    await trio.sleep(2.0)
    stopping = time.monotonic()
    data = await mcp.ok("video_stop")
    # The recording began during video_start and ended during video_stop: its wall time lies
    # between these two spans, whatever the calls cost on a loaded machine.
    shortest, longest = stopping - began, time.monotonic() - asked
    path = Path(data["path"])
    assert path == Path(started["path"]) and path.parent.name == "clips"
    assert _container(path) in ("webm", "mp4")
    assert data["size"] == path.stat().st_size > 0
    assert not list(path.parent.glob("*.ffmpeg.log"))  # the encoder's log is kept only on failure
    assert data["captured_frames"] > 5
    probe = _probe(path)
    duration = float(probe["format"]["duration"])
    assert shortest - 1.0 <= duration <= longest + 1.0, (duration, shortest, longest)
    assert shortest - 1.0 <= data["duration"] <= longest + 1.0
    stream = probe["streams"][0]
    assert (stream["width"], stream["height"]) == (320, 240)


async def test_video_static_page_still_has_full_length(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/video/static", "<h1>still</h1>")})
    asked = time.monotonic()
    data = await mcp.ok("video_start", {})
    began = time.monotonic()
    assert data["width"] <= 800 and data["height"] <= 800 and data["width"] % 2 == 0
    await trio.sleep(1.0)
    stopping = time.monotonic()
    stopped = await mcp.ok("video_stop")
    longest = time.monotonic() - asked
    duration = float(_probe(Path(stopped["path"]))["format"]["duration"])
    assert stopping - began - 0.4 <= duration <= longest + 0.4, (duration, stopping - began, longest)


async def test_video_out_of_order_and_bad_size(mcp, site):
    assert (await mcp.fail("video_stop"))["code"] == "not_started"
    err = await mcp.fail("video_start", {"width": 4})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "width"
    err = await mcp.fail("video_start", {"width": 320, "height": 241})
    assert err["details"][0]["field"] == "height" and "even" in err["message"]
    err = await mcp.fail("video_start", {"dir": "../outside"})
    assert err["code"] == "invalid_path"
    await mcp.ok("page_navigate", {"url": site.route("/video/twice", "<p>x</p>")})
    await mcp.ok("video_start", {})
    assert (await mcp.fail("video_start", {}))["code"] == "already_started"
    await mcp.ok("video_stop")


def _ffmpeg_children() -> list[int]:
    """ffmpeg processes this test process started (the server runs in-process)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        if name == "ffmpeg" and ppid == os.getpid():
            found.append(int(entry.name))
    return found


async def test_closed_tab_still_yields_a_video_and_ffmpeg_is_reaped(mcp, site, monkeypatch):
    # The tab is closed once the recording has a frame (a closed tab cannot give a fallback
    # frame): the encoder's intake is watched, not guessed at with a pause.
    first_frame = trio.Event()
    push = VideoEncoder.push

    def watched_push(self, frame):
        push(self, frame)
        first_frame.set()

    monkeypatch.setattr(VideoEncoder, "push", watched_push)
    await mcp.ok("page_navigate", {"url": site.route("/video/closing", ANIMATED)})
    await mcp.ok("video_start", {"width": 160, "height": 120})
    assert len(_ffmpeg_children()) == 1
    with trio.fail_after(30):
        await first_frame.wait()
    await mcp.ok("tab_close", {"index": 0})
    data = await mcp.ok("video_stop")
    assert _container(Path(data["path"])) in ("webm", "mp4") and data["captured_frames"] > 0
    assert _ffmpeg_children() == []
    # a recording whose tab closed and that nobody stopped is dropped by the next start
    await mcp.ok("page_navigate", {"url": site.route("/video/again", ANIMATED)})
    await mcp.ok("video_start", {"width": 160, "height": 120})
    await mcp.ok("tab_close", {"index": 0})
    await mcp.ok("page_navigate", {"url": site.route("/video/third", ANIMATED)})
    await mcp.ok("video_start", {"width": 160, "height": 120})
    with trio.fail_after(30):
        while len(_ffmpeg_children()) != 1:
            await trio.sleep(0.05)
    await mcp.ok("video_stop")
    assert _ffmpeg_children() == []
