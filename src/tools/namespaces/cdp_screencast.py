"""cdp_ screencast: stream the current tab's frames to image files under the output directory."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..models import MessageOutput, NoInput, ToolInput
from ..registry import tool

if TYPE_CHECKING:
    from ..recording import Switch
    from ..screencast import Frame, Screencast
    from ..session import ToolSession
    from ..tab import Tab


@dataclass
class CastRecord:
    tab: Tab
    cast: Screencast
    dir: Path
    format: str

    def discard(self) -> None:
        from ..recording import run_soon

        run_soon(self.tab, self.cast.stop)


@cache
def _screencast() -> Switch[CastRecord]:
    """Built on first use: ``recording`` loads the driver, which declaring tools must not."""
    from ..recording import Switch

    return Switch("cdp.screencast", "a screencast", "cdp_start_screencast", "cdp_stop_screencast")


class StartScreencastInput(ToolInput):
    format: Literal["jpeg", "png"] = "jpeg"
    quality: int = Field(default=80, ge=0, le=100)
    max_width: int | None = Field(default=None, ge=1, le=8192)
    max_height: int | None = Field(default=None, ge=1, le=8192)
    every_nth_frame: int = Field(default=1, ge=1, le=60)


class StartScreencastOutput(MessageOutput):
    dir: str = Field(description="Directory the frames are written to (frame-00001.jpg, …)")


class StopScreencastOutput(MessageOutput):
    frame_count: int = Field(description="Frames written")
    dir: str = Field(description="Directory holding the frames")
    duration: float = Field(description="Seconds the screencast ran")
    format: str = Field(description="jpeg or png")


def _writer(directory: Path, extension: str) -> Callable[[Frame], None]:
    count = [0]

    def write(frame: Frame) -> None:
        count[0] += 1
        (directory / f"frame-{count[0]:05d}.{extension}").write_bytes(frame.data)

    return write


@tool("cdp_start_screencast", StartScreencastInput, StartScreencastOutput, effect="sets")
async def cdp_start_screencast(session: ToolSession, args: StartScreencastInput) -> StartScreencastOutput:
    """Save each painted frame as an image file until cdp_stop_screencast."""
    from ..recording import stamp
    from ..screencast import Screencast, ScreencastOptions

    _screencast().ensure_off(session)
    tab = await session.tab()
    extension = "jpg" if args.format == "jpeg" else "png"
    directory = session.output_path(f"screencast-{stamp()}/frame-00001.{extension}", "").parent
    options = ScreencastOptions(args.format, args.quality, args.max_width, args.max_height, args.every_nth_frame)
    cast = Screencast(tab, options, _writer(directory, extension))
    await cast.start()
    _screencast().set(session, CastRecord(tab, cast, directory, args.format))
    return StartScreencastOutput(message=f"screencast started ({args.format}); frames go to {directory}",
                                 dir=str(directory))


@tool("cdp_stop_screencast", NoInput, StopScreencastOutput, effect="sets")
async def cdp_stop_screencast(session: ToolSession, args: NoInput) -> StopScreencastOutput:
    """Stop cdp_start_screencast."""
    record = _screencast().take(session, keep_dead=True)
    await record.cast.stop()
    count = record.cast.frame_count
    return StopScreencastOutput(
        message=f"screencast stopped: {count} frames in {record.dir}", frame_count=count,
        dir=str(record.dir), duration=round(record.cast.duration, 3), format=record.format,
    )
