"""cdp_start_screencast / cdp_stop_screencast: real frames, real JPEG files."""

from __future__ import annotations

from pathlib import Path

import trio

ANIMATED = """<title>anim</title><div id=box style="width:80px;height:80px;background:#c00;position:absolute"></div>
<script>let x = 0; setInterval(() => { x = (x + 7) % 400; box.style.left = x + 'px'; }, 16);</script>"""


async def test_screencast_writes_jpeg_frames(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/cdp/screencast", ANIMATED)})
    started = await mcp.ok("cdp_start_screencast", {"quality": 50, "max_width": 400})
    await trio.sleep(0.5)
    data = await mcp.ok("cdp_stop_screencast")
    assert data["frame_count"] > 0
    assert data["dir"] == started["dir"]
    assert data["duration"] >= 0.4
    frames = sorted(Path(data["dir"]).glob("frame-*.jpg"))
    assert len(frames) == data["frame_count"]
    assert frames[0].name == "frame-00001.jpg"
    for frame in frames[:3]:
        assert frame.read_bytes()[:2] == b"\xff\xd8"  # JPEG SOI


async def test_screencast_png_and_out_of_order(mcp, site):
    assert (await mcp.fail("cdp_stop_screencast"))["code"] == "not_started"
    await mcp.ok("page_navigate", {"url": site.route("/cdp/screencast-png", ANIMATED)})
    await mcp.ok("cdp_start_screencast", {"format": "png", "max_width": 200, "max_height": 200})
    assert (await mcp.fail("cdp_start_screencast"))["code"] == "already_started"
    with trio.fail_after(5):
        while not list(Path((await mcp.ok("config_get"))["output_dir"]).glob("screencast-*/frame-*.png")):
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
