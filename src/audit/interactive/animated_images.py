"""How long an animated image plays: frames, their delays and loops, read from GIF, APNG and
WebP files without decoding a pixel (the formats keep them in small blocks).

For WCAG 2.2.2 (a11y-moving-content): an image that animates for more than five seconds needs
a way to pause it. Browsers play a GIF frame whose delay is under 20 ms (0 or 1 hundredth of a
second) for 100 ms, and so does this reading; a file that cannot be read is None.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

#: The delay browsers give a frame that asks for less than 20 ms.
SHORT_FRAME_MS = 100


@dataclass(frozen=True)
class Animation:
    """``frames`` frames playing ``duration_ms`` in all, ``plays`` times (0: for ever)."""

    kind: str
    frames: int
    duration_ms: int
    plays: int

    @property
    def animated(self) -> bool:
        return self.frames > 1 and self.duration_ms > 0

    @property
    def total_ms(self) -> float:
        """How long it moves, in all: infinite when it loops for ever."""
        if not self.animated:
            return 0.0
        return float("inf") if self.plays == 0 else float(self.duration_ms * self.plays)


def read(data: bytes) -> Animation | None:
    """The animation in an image file's bytes, or None (not GIF, PNG or WebP, or damaged)."""
    try:
        if data[:6] in (b"GIF87a", b"GIF89a"):
            return _gif(data)
        if data[:8] == b"\x89PNG\r\n\x1a\n":
            return _png(data)
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp(data)
    except (IndexError, struct.error, ValueError):
        return None
    return None


def _frame_ms(ms: int) -> int:
    return SHORT_FRAME_MS if ms < 20 else ms


def _skip_sub_blocks(data: bytes, at: int) -> int:
    while True:
        size = data[at]
        at += 1
        if size == 0:
            return at
        at += size


def _gif(data: bytes) -> Animation | None:
    packed = data[10]
    at = 13 + (3 * 2 ** ((packed & 7) + 1) if packed & 0x80 else 0)
    frames = duration = 0
    plays = 1  # no NETSCAPE2.0 block: played once
    delay = 0
    while at < len(data):
        block = data[at]
        if block == 0x3B:  # trailer
            break
        if block == 0x21:  # extension
            label = data[at + 1]
            if label == 0xF9 and data[at + 2] >= 4:  # graphic control: the next frame's delay
                delay = struct.unpack_from("<H", data, at + 4)[0] * 10
            elif label == 0xFF and data[at + 2] == 11 and data[at + 3: at + 14] in (b"NETSCAPE2.0", b"ANIMEXTS1.0"):
                sub = at + 14
                if data[sub] >= 3 and data[sub + 1] == 1:
                    loops = struct.unpack_from("<H", data, sub + 2)[0]
                    plays = 0 if loops == 0 else loops + 1
            at = _skip_sub_blocks(data, at + 2)
        elif block == 0x2C:  # image descriptor
            local = data[at + 9]
            at += 10 + (3 * 2 ** ((local & 7) + 1) if local & 0x80 else 0)
            at = _skip_sub_blocks(data, at + 1)  # LZW minimum code size, then the data
            frames += 1
            duration += _frame_ms(delay)
            delay = 0
        else:
            return None
    if frames == 0:
        return None
    return Animation("GIF", frames, duration, plays if frames > 1 else 1)


def _png(data: bytes) -> Animation | None:
    at = 8
    frames = duration = 0
    plays = 1
    animated = False
    while at + 8 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, at)
        body = at + 8
        if kind == b"acTL":
            animated = True
            plays = struct.unpack_from(">I", data, body + 4)[0]
        elif kind == b"fcTL":
            numerator, denominator = struct.unpack_from(">HH", data, body + 20)
            ms = round(numerator * 1000 / (denominator or 100))
            frames += 1
            duration += _frame_ms(ms)
        elif kind == b"IEND":
            break
        at = body + length + 4
    if not animated:
        return Animation("PNG", 1, 0, 1)
    return Animation("APNG", frames, duration, plays)


def _webp(data: bytes) -> Animation | None:
    at = 12
    frames = duration = 0
    plays = 1
    animated = False
    while at + 8 <= len(data):
        kind, length = struct.unpack_from("<4sI", data, at)
        body = at + 8
        if kind == b"VP8X":
            animated = bool(data[body] & 0x02)
        elif kind == b"ANIM":
            plays = struct.unpack_from("<H", data, body + 4)[0]
        elif kind == b"ANMF":
            ms = int.from_bytes(data[body + 12: body + 15], "little")
            frames += 1
            duration += _frame_ms(ms)
        at = body + length + (length & 1)
    if not animated:
        return Animation("WebP", 1, 0, 1)
    return Animation("WebP", frames, duration, plays)
