"""cdp_get_response_body with request ids from network_get_requests."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path

from tests.support.site import Response


def _png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\x00\x80\xff" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


async def _request_id(mcp, pattern: str) -> str:
    data = await mcp.ok("network_get_requests", {"url_pattern": pattern})
    assert data["count"] == 1, data
    return data["requests"][0]["request_id"]


async def test_text_and_binary_bodies(mcp, site):
    payload = {"items": [1, 2, 3], "name": "résumé"}
    image = _png(3, 2)
    site.route("/body/data.json", Response(json.dumps(payload), content_type="application/json"))
    site.route("/body/pixel.png", Response(image, content_type="image/png"))
    page = site.route("/body/page", "<img src='/body/pixel.png'><script>fetch('/body/data.json').then(r => r.text())</script>")
    await mcp.ok("page_navigate", {"url": page, "wait_until": "networkidle"})

    text = await mcp.ok("cdp_get_response_body", {"request_id": await _request_id(mcp, "*data.json")})
    assert text["base64_encoded"] is False and json.loads(text["body"]) == payload
    assert text["status"] == 200 and text["mime_type"] == "application/json"

    png_id = await _request_id(mcp, "*pixel.png")
    binary = await mcp.ok("cdp_get_response_body", {"request_id": png_id})
    assert binary["base64_encoded"] is True and base64.b64decode(binary["body"]) == image
    saved = await mcp.ok("cdp_get_response_body", {"request_id": png_id, "save_to_file": "bodies/pixel.png"})
    assert saved["body"] == "" and saved["size"] == len(image)
    assert Path(saved["path"]).read_bytes() == image

    html = await mcp.ok("cdp_get_response_body", {"request_id": await _request_id(mcp, "*/body/page")})
    assert "fetch('/body/data.json')" in html["body"]


async def test_unknown_id_and_bad_path(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/body/none", "<p>x</p>")})
    err = await mcp.fail("cdp_get_response_body", {"request_id": "no-such-request"})
    assert err["code"] == "not_found" and "network_get_requests" in err["message"]
    request_id = await _request_id(mcp, "*/body/none")
    err = await mcp.fail("cdp_get_response_body", {"request_id": request_id, "save_to_file": "../../x.bin"})
    assert err["code"] == "invalid_path"
    err = await mcp.fail("cdp_get_response_body", {})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "request_id"
