"""Anthropic Messages API: ``POST {base}/v1/messages``.

Auth is the ``x-api-key`` header with ``anthropic-version: 2023-06-01``. The system prompt is
a top-level field; the user turn is a list of content blocks, images as
``{"type": "image", "source": {"type": "base64", "media_type", "data"}}``. The answer's text
blocks are joined; usage is ``input_tokens``/``output_tokens``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import ImagePart, Prompt, Provider, Reply, ReplyError, as_int, join_url

API_VERSION = "2023-06-01"


class Anthropic(Provider):
    name = "anthropic"

    def url(self) -> str:
        return join_url(self.config.base_url, "/v1", "/messages")

    def auth_headers(self) -> dict[str, str]:
        return {"x-api-key": self.config.api_key or "", "anthropic-version": API_VERSION}

    def body(self, prompt: Prompt) -> dict[str, Any]:
        blocks: list[dict[str, Any]] = []
        for part in prompt.parts:
            if isinstance(part, ImagePart):
                blocks.append({
                    "type": "image",
                    "source": {"type": "base64", "media_type": part.media_type, "data": part.base64()},
                })
            else:
                blocks.append({"type": "text", "text": part.text})
        return {
            "model": self.model,
            "max_tokens": prompt.max_output_tokens,
            "temperature": 0,
            "system": prompt.system,
            "messages": [{"role": "user", "content": blocks}],
        }

    def parse(self, data: Any) -> Reply:
        if not isinstance(data, Mapping) or not isinstance(data.get("content"), list):
            raise ReplyError("the reply has no content blocks")
        text = "".join(
            b.get("text", "") for b in data["content"]
            if isinstance(b, Mapping) and b.get("type") == "text"
        )
        usage = data.get("usage") if isinstance(data.get("usage"), Mapping) else {}
        return Reply(
            text=text,
            input_tokens=as_int(usage.get("input_tokens")),
            output_tokens=as_int(usage.get("output_tokens")),
            truncated=data.get("stop_reason") == "max_tokens",
        )
