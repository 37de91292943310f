"""How long animated GIF, APNG and WebP files play, read from their blocks (a11y-moving-content)."""

from __future__ import annotations

import struct

from audit.interactive.animated_images import read
from tests.audit.interactive.test_moving_content_live import gif


def png(frames_ms: list[int] | None, plays: int = 0) -> bytes:
    """A PNG's chunks (CRCs left at zero: they are not read); animated when ``frames_ms``."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + b"\x00\x00\x00\x00"

    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0))
    if frames_ms is not None:
        data += chunk(b"acTL", struct.pack(">II", len(frames_ms), plays))
        for i, ms in enumerate(frames_ms):
            data += chunk(b"fcTL", struct.pack(">IIIIIHHBB", i, 1, 1, 0, 0, ms, 1000, 0, 0))
    return data + chunk(b"IDAT", b"\x00") + chunk(b"IEND", b"")


def webp(frames_ms: list[int], loops: int = 0) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return kind + struct.pack("<I", len(body)) + body + (b"\x00" if len(body) & 1 else b"")

    body = b"WEBP" + chunk(b"VP8X", bytes([0x02, 0, 0, 0]) + b"\x00" * 6)
    body += chunk(b"ANIM", b"\x00\x00\x00\x00" + struct.pack("<H", loops))
    for ms in frames_ms:
        body += chunk(b"ANMF", b"\x00" * 12 + ms.to_bytes(3, "little") + b"\x00" + b"VP8 \x00\x00\x00\x00")
    return b"RIFF" + struct.pack("<I", len(body)) + body


def test_gif():
    looping = read(gif([300, 300]))
    assert looping and (looping.kind, looping.frames, looping.duration_ms, looping.plays) == ("GIF", 2, 6000, 0)
    assert looping.total_ms == float("inf")
    twice = read(gif([100, 100], loops=1))
    assert twice and twice.plays == 2 and twice.total_ms == 4000
    # A delay of 0 or 10 ms plays as 100 ms, as in browsers.
    fast = read(gif([0, 1, 5]))
    assert fast and fast.duration_ms == 250
    still = read(gif([0]))
    assert still and not still.animated and still.total_ms == 0


def test_png_and_webp():
    apng = read(png([2000, 2000, 2000], plays=0))
    assert apng and (apng.kind, apng.frames, apng.duration_ms, apng.total_ms) == ("APNG", 3, 6000, float("inf"))
    plain = read(png(None))
    assert plain and not plain.animated
    animated = read(webp([1500, 1500], loops=3))
    assert animated and (animated.kind, animated.frames, animated.duration_ms, animated.plays) == ("WebP", 2, 3000, 3)
    assert animated.total_ms == 9000


def test_not_an_animation():
    assert read(b"") is None
    assert read(b"<svg xmlns='http://www.w3.org/2000/svg'/>") is None
    assert read(gif([300, 300])[:20]) is None
