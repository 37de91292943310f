"""What an agent pays, in tokens, for the MCP agent task (scripts/bench/mcp_peers.py).

The definition, the same for every server:

- the ``tools/list`` entries of the tool set the agent runs with (per tool its name, description
  and input schema, as compact JSON: what a host puts in the model's context), once per task;
- every result of the task: each text block, the structured content when there is any (as
  compact JSON; a host that reads structured content hands it to the model, and one that reads
  text only gets the text; counting both is what a result costs a model that is shown all of
  it), any other block as its compact JSON;
- text and JSON at 4 characters a token, images by their pixels, not their bytes: width ×
  height / 750, the usual rule for vision models (a 1280×720 screenshot is about 1,229 tokens
  whatever its encoding).

What the agent writes (its tool calls) is not counted: it is about the same for every server.
"""

from __future__ import annotations

import base64
import json
import struct
from typing import Any

CHARS_PER_TOKEN = 4
PIXELS_PER_TOKEN = 750


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def listing_tokens(tools: list[Any]) -> float:
    """A tools/list as the model is shown it: name, description and input schema per tool."""
    entries = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    sent = [{k: e[k] for k in ("name", "description", "inputSchema") if k in e} for e in entries]
    return len(compact(sent)) / CHARS_PER_TOKEN


def result_tokens(result: Any) -> float:
    """One tool result: its text, structured content, other blocks and images (by pixels)."""
    tokens = 0.0
    for block in result.content:
        if block.type == "text":
            tokens += len(block.text) / CHARS_PER_TOKEN
        elif block.type == "image":
            width, height = image_size(base64.b64decode(block.data))
            tokens += width * height / PIXELS_PER_TOKEN
        else:
            tokens += (
                len(compact(block.model_dump(mode="json", by_alias=True, exclude_none=True)))
                / CHARS_PER_TOKEN
            )
    if result.structured_content is not None:
        tokens += len(compact(result.structured_content)) / CHARS_PER_TOKEN
    return tokens


def result_bytes(result: Any) -> int:
    """What a client that reads structured content receives of a result: its text blocks and
    its structured content (compact JSON), in bytes of UTF-8."""
    text = "".join(block.text for block in result.content if block.type == "text")
    structured = "" if result.structured_content is None else compact(result.structured_content)
    return len(text.encode()) + len(structured.encode())


def image_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, JPEG or WebP image, read from its header."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", data[16:24])
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    raise ValueError(f"not a PNG, JPEG or WebP image: {data[:12]!r}")


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """The frame header (SOFn) holds the size; every other segment is skipped by its length."""
    at = 2
    while at + 9 <= len(data):
        if data[at] != 0xFF:
            at += 1
            continue
        marker = data[at + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    raise ValueError("a JPEG without a frame header")


def _webp_size(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    if chunk == b"VP8X":
        return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    width, height = struct.unpack("<HH", data[26:30])
    return width & 0x3FFF, height & 0x3FFF
