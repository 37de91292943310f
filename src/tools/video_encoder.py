"""Screencast frames → a real video file, encoded by ffmpeg at a constant frame rate.

Frames arrive only when the page repaints, so the encoder places each frame
at its own time (the browser's frame timestamp) and repeats the previous
frame to fill the gaps; at the end the last frame is held until the stop
time. The video's duration therefore matches wall time, whatever the page did.

ffmpeg runs from an argument list (no shell), reads JPEG frames on stdin
(fed by one trio task), writes stderr to a log file beside the video (kept
only when encoding fails), and is always reaped:
``finish`` closes stdin and waits, ``abort`` kills.
"""

from __future__ import annotations

import functools
import logging
import shutil
import subprocess
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import trio

from .errors import ToolError
from .screencast import Frame

log = logging.getLogger(__name__)

FPS = 25
FINISH_TIMEOUT = 60.0


@dataclass(frozen=True)
class Codec:
    encoder: str
    extension: str
    container: str
    options: tuple[str, ...]


# Preferred first: VP8 in WebM (royalty-free, plays in every browser), then H.264 / MPEG-4 in MP4.
CODECS = (
    Codec("libvpx", "webm", "webm",
          ("-deadline", "realtime", "-cpu-used", "8", "-b:v", "1M", "-auto-alt-ref", "0")),
    Codec("libx264", "mp4", "mp4", ("-preset", "ultrafast", "-movflags", "+faststart")),
    Codec("mpeg4", "mp4", "mp4", ("-q:v", "5", "-movflags", "+faststart")),
)


def find_ffmpeg() -> str:
    found = shutil.which("ffmpeg") or ("/usr/bin/ffmpeg" if Path("/usr/bin/ffmpeg").exists() else None)
    if not found:
        raise ToolError("not_found", "ffmpeg is not installed; run scripts/install.sh or `apt-get install ffmpeg`")
    return found


@functools.cache
def pick_codec(ffmpeg: str) -> Codec:
    """The first codec this ffmpeg can encode (checked once per process)."""
    try:
        listing = subprocess.run([ffmpeg, "-hide_banner", "-encoders"], capture_output=True, text=True,
                                 timeout=20, check=False).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise ToolError("not_found", f"ffmpeg at {ffmpeg} does not run: {exc}") from exc
    names = {line.split()[1] for line in listing.splitlines() if len(line.split()) > 1}
    for codec in CODECS:
        if codec.encoder in names:
            return codec
    raise ToolError("not_found", f"ffmpeg at {ffmpeg} has none of the encoders {[c.encoder for c in CODECS]}")


def ffmpeg_command(ffmpeg: str, codec: Codec, out: Path, width: int, height: int, fps: int = FPS) -> list[str]:
    """Fit each frame inside width x height (keeping its aspect), pad to exactly that size."""
    fit = (f"scale={width}:{height}:force_original_aspect_ratio=decrease:force_divisible_by=2,"
           f"pad={width}:{height}:(ow-iw)/2:(oh-ih)/2:color=white,setsar=1")
    return [
        ffmpeg, "-hide_banner", "-loglevel", "error", "-y",
        "-f", "image2pipe", "-framerate", str(fps), "-c:v", "mjpeg", "-i", "pipe:0",
        "-vf", fit, "-r", str(fps), "-pix_fmt", "yuv420p", "-c:v", codec.encoder, *codec.options,
        "-f", codec.container, str(out),
    ]


class VideoEncoder:
    """Feed frames with ``push`` (never blocks); ``finish`` returns once the file is complete."""

    def __init__(self, out: Path, width: int, height: int, fps: int = FPS) -> None:
        self.out, self.width, self.height, self.fps = out, width, height, fps
        self.frames_written = 0
        self.frames_received = 0
        self._process: trio.Process | None = None
        self._send, self._receive = trio.open_memory_channel[Frame](float("inf"))
        self._t0 = 0.0
        self._first: Frame | None = None
        self._last: Frame | None = None
        self._feeder_done = trio.Event()
        self._error: str | None = None
        self.log_path = out.with_name(out.name + ".ffmpeg.log")  # beside the video; removed on success

    async def start(self, run_task: Callable[[Callable[[], Awaitable[None]]], object]) -> None:
        """Spawn ffmpeg; ``run_task`` starts the feeder task (in the browser's nursery)."""
        ffmpeg = find_ffmpeg()
        codec = pick_codec(ffmpeg)
        if self.out.suffix != f".{codec.extension}":
            self.out = self.out.with_suffix(f".{codec.extension}")
            self.log_path = self.out.with_name(self.out.name + ".ffmpeg.log")
        argv = ffmpeg_command(ffmpeg, codec, self.out, self.width, self.height, self.fps)
        with open(self.log_path, "wb") as stderr:
            self._process = await trio.lowlevel.open_process(
                argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=stderr)
        self._t0 = time.monotonic()
        run_task(self._feed)

    def push(self, frame: Frame) -> None:
        self.frames_received += 1
        try:
            self._send.send_nowait(frame)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass

    def _slot(self, frame: Frame) -> int:
        """The frame's position in the constant-rate stream, from the browser's timestamps."""
        if self._first is None:
            self._first = frame
        anchor = self._first.received - self._t0
        if frame.timestamp is not None and self._first.timestamp is not None:
            offset = anchor + (frame.timestamp - self._first.timestamp)
        else:
            offset = frame.received - self._t0
        return max(0, round(offset * self.fps))

    async def _write_until(self, slot: int) -> None:
        """Repeat the last frame until the stream reaches ``slot``."""
        assert self._process is not None and self._process.stdin is not None
        while self._last is not None and self.frames_written < slot:
            await self._process.stdin.send_all(self._last.data)
            self.frames_written += 1

    async def _feed(self) -> None:
        try:
            async for frame in self._receive:
                slot = self._slot(frame)
                if self._last is None:
                    self._last = frame  # the first frame also covers the time before it arrived
                await self._write_until(slot)
                self._last = frame
            end = max(1, round((time.monotonic() - self._t0) * self.fps))
            await self._write_until(max(end, self.frames_written + 1))
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            self._error = f"ffmpeg stopped reading frames ({exc})"
        except trio.Cancelled:
            # The browser (or the server) is going away mid-recording: never leave ffmpeg behind.
            self._error = "the recording was interrupted (browser closed)"
            await self.abort()
            raise
        finally:
            self._feeder_done.set()

    def log_tail(self, lines: int = 8) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    async def finish(self, fallback: Frame | None = None) -> None:
        """End the input, let ffmpeg write the file, reap it. Raises with ffmpeg's own words on failure."""
        with trio.CancelScope(shield=True):
            try:
                if self.frames_received == 0 and fallback is not None:
                    self.push(fallback)
                self._send.close()
                with trio.move_on_after(FINISH_TIMEOUT):
                    await self._feeder_done.wait()
                await self._close_stdin()
                with trio.move_on_after(FINISH_TIMEOUT) as waited:
                    await self._process.wait()  # type: ignore[union-attr]
                if waited.cancelled_caught:
                    self._error = self._error or f"ffmpeg did not finish within {FINISH_TIMEOUT:g} s"
                    await self.abort()
            finally:
                await self.abort()
        code = self._process.returncode if self._process else None
        if self._error or code != 0 or not self.out.exists():
            reason = self._error or f"ffmpeg exited with code {code}"
            tail = self.log_tail()
            raise ToolError("internal_error", f"video encoding failed: {reason}" + (f": {tail}" if tail else "")
                            + f" (ffmpeg log: {self.log_path})")
        self.log_path.unlink(missing_ok=True)

    async def _close_stdin(self) -> None:
        if self._process is not None and self._process.stdin is not None:
            try:
                await self._process.stdin.aclose()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass

    async def abort(self) -> None:
        """Kill ffmpeg if it still runs and reap it (idempotent)."""
        with trio.CancelScope(shield=True):
            self._send.close()
            process = self._process
            if process is None:
                return
            if process.poll() is None:
                await self._close_stdin()
                process.kill()
            with trio.move_on_after(10):
                await process.wait()
