"""cdp_start_screencast / cdp_stop_screencast: real frames, real JPEG files."""

from __future__ import annotations

from pathlib import Path

import trio

ANIMATED = """<title>anim</title><div id=box style="width:80px;height:80px;background:#c00;position:absolute"></div>
<script>let x = 0; setInterval(() => { x = (x + 7) % 400; box.style.left = x + 'px'; }, 16);</script>"""


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """Width and height from the JPEG's start-of-frame marker."""
    i = 2
    while i < len(data):
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + length
    raise AssertionError("no SOF marker")


async def test_screencast_writes_jpeg_frames(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/cdp/screencast", ANIMATED)})
    started = await mcp.ok("cdp_start_screencast", {"quality": 50, "max_width": 400})
    await trio.sleep(0.5)  # the animation paints for about half a second
    with trio.fail_after(30):  # a loaded machine may be slow to paint the first frame
        while not list(Path(started["dir"]).glob("frame-*.jpg")):
            await trio.sleep(0.05)
    data = await mcp.ok("cdp_stop_screencast")
    assert data["frame_count"] > 0
    assert data["dir"] == started["dir"]
    assert data["duration"] >= 0.4
    frames = sorted(Path(data["dir"]).glob("frame-*.jpg"))
    assert len(frames) == data["frame_count"]
    assert frames[0].name == "frame-00001.jpg"
    for frame in frames[:3]:
        assert frame.read_bytes()[:2] == b"\xff\xd8"  # JPEG SOI
        assert _jpeg_size(frame.read_bytes())[0] <= 400


async def test_screencast_png_and_out_of_order(mcp, site):
    assert (await mcp.fail("cdp_stop_screencast"))["code"] == "not_started"
    await mcp.ok("page_navigate", {"url": site.route("/cdp/screencast-png", ANIMATED)})
    started = await mcp.ok("cdp_start_screencast", {"format": "png", "max_width": 200, "max_height": 200})
    assert (await mcp.fail("cdp_start_screencast"))["code"] == "already_started"
    with trio.fail_after(30):
        while not list(Path(started["dir"]).glob("frame-*.png")):
            await trio.sleep(0.05)
    data = await mcp.ok("cdp_stop_screencast")
    first = Path(data["dir"]) / "frame-00001.png"
    assert first.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (await mcp.fail("cdp_stop_screencast"))["code"] == "not_started"


async def test_screencast_bad_arguments(mcp):
    err = await mcp.fail("cdp_start_screencast", {"quality": 101})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "quality"
    err = await mcp.fail("cdp_start_screencast", {"format": "gif"})
    assert err["details"][0]["field"] == "format"
