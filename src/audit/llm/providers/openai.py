"""OpenAI Chat Completions: ``POST {base}/v1/chat/completions`` with ``Authorization: Bearer``.

Images go in the user message as ``image_url`` parts holding a ``data:`` URL (``detail: low``,
the crops are small). The answer is forced to JSON with ``response_format``: a strict
``json_schema`` where the server supports it, ``json_object`` otherwise. xAI and any
OpenAI-compatible server (vLLM, llama.cpp, LiteLLM, ...) reuse this class.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from .base import ImagePart, Prompt, Provider, Reply, ReplyError, as_int, join_url


class OpenAIChat(Provider):
    name = "openai"
    #: "json_schema" (strict structured output) or "json_object" (any JSON object).
    response_format: ClassVar[str] = "json_schema"
    #: OpenAI renamed max_tokens; other servers still only know the old name.
    max_tokens_field: ClassVar[str] = "max_completion_tokens"

    def url(self) -> str:
        return join_url(self.config.base_url, "/v1", "/chat/completions")

    def auth_headers(self) -> dict[str, str]:
        key = self.config.api_key
        return {"authorization": f"Bearer {key}"} if key else {}

    def _format(self, prompt: Prompt) -> dict[str, Any]:
        if self.response_format == "json_schema":
            return {
                "type": "json_schema",
                "json_schema": {"name": "a11y_review", "strict": True, "schema": dict(prompt.schema)},
            }
        return {"type": "json_object"}

    def body(self, prompt: Prompt) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        for part in prompt.parts:
            if isinstance(part, ImagePart):
                content.append({"type": "image_url", "image_url": {"url": part.data_url(), "detail": "low"}})
            else:
                content.append({"type": "text", "text": part.text})
        return {
            "model": self.model,
            "messages": [
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": content},
            ],
            "response_format": self._format(prompt),
            self.max_tokens_field: prompt.max_output_tokens,
        }

    def parse(self, data: Any) -> Reply:
        choices = data.get("choices") if isinstance(data, Mapping) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
            raise ReplyError("the reply has no choices")
        message = choices[0].get("message")
        if not isinstance(message, Mapping):
            raise ReplyError("the reply's first choice has no message")
        if message.get("refusal"):
            raise ReplyError(f"the model refused: {str(message['refusal'])[:200]}")
        text = message.get("content")
        if not isinstance(text, str):
            raise ReplyError("the reply's message has no text content")
        usage = data.get("usage") if isinstance(data.get("usage"), Mapping) else {}
        return Reply(
            text=text,
            input_tokens=as_int(usage.get("prompt_tokens")),
            output_tokens=as_int(usage.get("completion_tokens")),
            truncated=choices[0].get("finish_reason") == "length",
        )
