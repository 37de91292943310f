"""The one screencast: ``Page.startScreencast`` on a helper session, every frame acknowledged.

cdp_start_screencast (frames to files) and video_start (frames to ffmpeg)
both use ``Screencast``. Each runs on its own session attached to the tab's
target, so two of them (or a screencast and the tab's own tools) never share
Page domain state. Chromium sends the next frame only after the previous one
is acknowledged, so the acknowledgement comes first, before the frame is
handed on: a slow consumer can never stall the stream.
"""

from __future__ import annotations

import base64
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import trio

from cdpdriver import CDPError

from .recording import HelperSession, attach_helper, start_background
from .tab import Tab

log = logging.getLogger(__name__)

STOP_TIMEOUT = 5.0


@dataclass
class Frame:
    data: bytes
    format: str  # "jpeg" or "png"
    timestamp: float | None  # the browser's wall-clock time of the frame (s), when given
    received: float  # time.monotonic() when it arrived here
    width: int
    height: int


@dataclass
class ScreencastOptions:
    format: str = "jpeg"
    quality: int = 80
    max_width: int | None = None
    max_height: int | None = None
    every_nth_frame: int = 1

    def params(self) -> dict[str, Any]:
        params: dict[str, Any] = {"format": self.format, "everyNthFrame": self.every_nth_frame}
        if self.format == "jpeg":
            params["quality"] = self.quality
        if self.max_width:
            params["maxWidth"] = self.max_width
        if self.max_height:
            params["maxHeight"] = self.max_height
        return params


class Screencast:
    """Stream a tab's frames to ``on_frame`` (a plain function: it must not block)."""

    def __init__(self, tab: Tab, options: ScreencastOptions, on_frame: Callable[[Frame], None]) -> None:
        self.tab = tab
        self.options = options
        self.on_frame = on_frame
        self.frame_count = 0
        self.started = 0.0
        self.stopped: float | None = None
        self._helper: HelperSession | None = None
        self._events: Any = None
        self._scope: trio.CancelScope | None = None
        self._pump_done = trio.Event()

    @property
    def duration(self) -> float:
        end = self.stopped if self.stopped is not None else time.monotonic()
        return max(0.0, end - self.started)

    async def start(self) -> None:
        helper = await attach_helper(self.tab)
        self._helper = helper
        try:
            self._events = helper.session.listen("Page.screencastFrame", raw=True)
            self._scope = start_background(self.tab, self._pump)
            await helper.session.send("Page.enable", timeout=10)
            self.started = time.monotonic()
            await helper.session.send("Page.startScreencast", self.options.params(), timeout=10)
        except BaseException:
            with trio.CancelScope(shield=True):
                await self._teardown()
            raise

    async def _pump(self) -> None:
        try:
            while True:
                event = await self._events.receive()
                await self._handle(event.params, ack=True)
        finally:
            self._pump_done.set()

    async def _handle(self, params: dict[str, Any], *, ack: bool) -> None:
        if ack and self._helper is not None:
            try:
                await self._helper.session.send(
                    "Page.screencastFrameAck", {"sessionId": params.get("sessionId")}, timeout=5)
            except CDPError as exc:
                log.debug("screencast ack failed: %s", exc)
        self._deliver(params)

    def _deliver(self, params: dict[str, Any]) -> None:
        meta = params.get("metadata") or {}
        try:
            data = base64.b64decode(params.get("data") or "")
        except ValueError:
            return
        self.frame_count += 1
        frame = Frame(
            data=data, format=self.options.format, timestamp=meta.get("timestamp"),
            received=time.monotonic(),
            width=int(meta.get("deviceWidth") or 0), height=int(meta.get("deviceHeight") or 0),
        )
        try:
            self.on_frame(frame)
        except Exception:
            log.exception("screencast consumer failed")

    async def stop(self) -> None:
        """Stop the stream, hand on the frames already received, detach. Safe on a dead tab."""
        with trio.CancelScope(shield=True):
            if self._helper is not None:
                with trio.move_on_after(STOP_TIMEOUT):
                    try:
                        await self._helper.session.send("Page.stopScreencast", timeout=STOP_TIMEOUT)
                    except CDPError as exc:
                        log.debug("stopScreencast failed: %s", exc)
            self.stopped = time.monotonic()
            await self._teardown()

    async def _teardown(self) -> None:
        if self._scope is not None:
            self._scope.cancel()
            with trio.move_on_after(STOP_TIMEOUT):
                await self._pump_done.wait()
            self._scope = None
        if self._events is not None:
            # Frames that arrived before the stop are still queued: they belong to the recording.
            while True:
                try:
                    event = self._events.receive_nowait()
                except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                    break
                self._deliver(event.params)
            self._events.close()
            self._events = None
        if self._helper is not None:
            await self._helper.detach()
            self._helper = None
