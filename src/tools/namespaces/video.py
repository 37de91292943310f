"""video_: record the current tab as a real video file (screencast frames encoded by ffmpeg)."""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from pydantic import Field, field_validator

from ..models import MessageOutput, NoInput, ToolInput
from ..registry import tool

if TYPE_CHECKING:
    from ..recording import Switch
    from ..screencast import Frame, Screencast
    from ..session import ToolSession
    from ..tab import Tab
    from ..video_encoder import VideoEncoder


DEFAULT_BOX = 800  # like the usual recorders: the viewport scaled down to fit 800x800


@dataclass
class VideoRecord:
    tab: Tab
    cast: Screencast
    encoder: VideoEncoder
    started: float

    def discard(self) -> None:
        """The tab closed and nobody stopped the recording: stop the stream, kill ffmpeg."""
        from ..recording import run_soon

        run_soon(self.tab, self.cast.stop)
        run_soon(self.tab, self.encoder.abort)


@cache
def _video() -> Switch[VideoRecord]:
    """Built on first use: ``recording`` loads the driver, which declaring tools must not."""
    from ..recording import Switch

    return Switch("video", "video recording", "video_start", "video_stop")


class VideoStartInput(ToolInput):
    dir: str = Field(default="videos", min_length=1)
    width: int | None = Field(default=None, ge=16, le=3840, description="Even")
    height: int | None = Field(default=None, ge=16, le=2160, description="Even")

    @field_validator("width", "height")
    @classmethod
    def _even_size(cls, value: int | None) -> int | None:
        if value is not None and value % 2:
            raise ValueError(f"must be even (video encoders store colour per 2x2 pixels); try {value + 1}")
        return value


class VideoStartOutput(MessageOutput):
    path: str = Field(description="File the video will be written to when video_stop is called")
    width: int
    height: int


class VideoStopOutput(MessageOutput):
    path: str = Field(description="The finished video file (WebM/VP8, or MP4 when VP8 is unavailable)")
    duration: float = Field(description="Length of the video in seconds (matches the recording's wall time)")
    frame_count: int = Field(description="Frames in the video (constant frame rate)")
    captured_frames: int = Field(description="Distinct frames the page painted during the recording")
    fps: int = Field(description="Frame rate of the video")
    width: int
    height: int
    size: int = Field(description="File size in bytes")


def _even(value: float) -> int:
    return max(16, int(value) // 2 * 2)


async def _frame_size(tab: Tab, width: int | None, height: int | None) -> tuple[int, int]:
    """Requested size, completing a missing side from the viewport's aspect ratio."""
    from ..recording import evaluate_main

    if width and height:
        return width, height
    view = await evaluate_main(tab, "({w: innerWidth, h: innerHeight})") or {}
    vw, vh = max(1, int(view.get("w") or 1280)), max(1, int(view.get("h") or 720))
    if width:
        return width, _even(width * vh / vw)
    if height:
        return _even(height * vw / vh), height
    scale = min(1.0, DEFAULT_BOX / vw, DEFAULT_BOX / vh)
    return _even(vw * scale), _even(vh * scale)


@tool("video_start", VideoStartInput, VideoStartOutput, effect="sets")
async def video_start(session: ToolSession, args: VideoStartInput) -> VideoStartOutput:
    """Record the tab as a WebM video until video_stop."""
    from ..recording import stamp, start_background
    from ..screencast import Screencast, ScreencastOptions
    from ..video_encoder import VideoEncoder

    _video().ensure_off(session)
    tab = await session.tab()
    width, height = await _frame_size(tab, args.width, args.height)
    out = session.output_path(f"{args.dir}/video-{stamp()}.webm", "video.webm")
    encoder = VideoEncoder(out, width, height)
    await encoder.start(lambda feed: start_background(tab, feed))
    cast = Screencast(tab, ScreencastOptions("jpeg", 80, width, height), encoder.push)
    try:
        await cast.start()
    except BaseException:
        await encoder.abort()
        raise
    _video().set(session, VideoRecord(tab, cast, encoder, time.monotonic()))
    return VideoStartOutput(message=f"recording {width}x{height} video to {encoder.out}",
                            path=str(encoder.out), width=width, height=height)


async def _fallback_frame(tab: Tab) -> Frame | None:
    """A page that never repainted still gets one frame: a screenshot of it."""
    from cdpdriver import CDPError

    from ..screencast import Frame

    try:
        shot = await tab.session.send("Page.captureScreenshot", {"format": "jpeg", "quality": 80}, timeout=10)
    except CDPError:
        return None
    return Frame(base64.b64decode(shot["data"]), "jpeg", None, time.monotonic(), 0, 0)


@tool("video_stop", NoInput, VideoStopOutput, effect="sets", long=True)
async def video_stop(session: ToolSession, args: NoInput) -> VideoStopOutput:
    """Stop video_start; returns the file."""
    from ..recording import tab_alive

    record = _video().take(session, keep_dead=True)
    fallback: Frame | None = None
    try:
        await record.cast.stop()
        if record.encoder.frames_received == 0 and tab_alive(record.tab):
            fallback = await _fallback_frame(record.tab)
    finally:
        await record.encoder.finish(fallback)
    encoder = record.encoder
    duration = encoder.frames_written / encoder.fps
    return VideoStopOutput(
        message=f"video saved: {encoder.out} ({duration:.1f} s)", path=str(encoder.out),
        duration=round(duration, 3), frame_count=encoder.frames_written,
        captured_frames=encoder.frames_received, fps=encoder.fps, width=encoder.width,
        height=encoder.height, size=encoder.out.stat().st_size,
    )
