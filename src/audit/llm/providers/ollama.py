"""Ollama's native chat API: ``POST {base}/api/chat`` (default ``http://localhost:11434``).

No key. ``stream: false`` gives one JSON answer; ``format: "json"`` constrains the output to
JSON; images are a list of bare base64 strings on the user message (Ollama has no interleaved
image parts, so the prompt text refers to images by their order). Usage is
``prompt_eval_count``/``eval_count``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Prompt, Provider, Reply, ReplyError, as_int, join_url


class Ollama(Provider):
    name = "ollama"

    def url(self) -> str:
        return join_url(self.config.base_url, "/api", "/chat")

    def auth_headers(self) -> dict[str, str]:
        return {}

    def body(self, prompt: Prompt) -> dict[str, Any]:
        user: dict[str, Any] = {"role": "user", "content": prompt.text()}
        images = prompt.images()
        if images:
            user["images"] = [image.base64() for image in images]
        return {
            "model": self.model,
            "stream": False,
            "format": "json",
            "options": {"temperature": 0, "num_predict": prompt.max_output_tokens},
            "messages": [{"role": "system", "content": prompt.system}, user],
        }

    def parse(self, data: Any) -> Reply:
        message = data.get("message") if isinstance(data, Mapping) else None
        if not isinstance(message, Mapping) or not isinstance(message.get("content"), str):
            raise ReplyError("the reply has no message content")
        return Reply(
            text=message["content"],
            input_tokens=as_int(data.get("prompt_eval_count")),
            output_tokens=as_int(data.get("eval_count")),
            truncated=data.get("done_reason") == "length",
        )
