"""Google Gemini API: ``POST {base}/v1beta/models/{model}:generateContent``.

The key travels in the ``x-goog-api-key`` header (never in the query string, where proxies
log it). The system prompt is ``systemInstruction``; images are ``inline_data`` parts;
``generationConfig.responseMimeType: application/json`` forces a JSON answer. Usage comes
from ``usageMetadata`` (prompt and candidates token counts).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from .base import ImagePart, Prompt, Provider, Reply, ReplyError, as_int, join_url


class Gemini(Provider):
    name = "gemini"

    def url(self) -> str:
        model = quote(self.model.removeprefix("models/"), safe="-._~")
        return join_url(self.config.base_url, "/v1beta", f"/models/{model}:generateContent")

    def auth_headers(self) -> dict[str, str]:
        return {"x-goog-api-key": self.config.api_key or ""}

    def body(self, prompt: Prompt) -> dict[str, Any]:
        parts: list[dict[str, Any]] = []
        for part in prompt.parts:
            if isinstance(part, ImagePart):
                parts.append({"inline_data": {"mime_type": part.media_type, "data": part.base64()}})
            else:
                parts.append({"text": part.text})
        return {
            "systemInstruction": {"parts": [{"text": prompt.system}]},
            "contents": [{"role": "user", "parts": parts}],
            "generationConfig": {
                "responseMimeType": "application/json",
                "temperature": 0,
                "maxOutputTokens": prompt.max_output_tokens,
            },
        }

    def parse(self, data: Any) -> Reply:
        if not isinstance(data, Mapping):
            raise ReplyError("the reply is not an object")
        candidates = data.get("candidates")
        if not isinstance(candidates, list) or not candidates:
            feedback = data.get("promptFeedback")
            reason = feedback.get("blockReason") if isinstance(feedback, Mapping) else None
            raise ReplyError(f"the prompt was blocked ({reason})" if reason else "the reply has no candidates")
        first = candidates[0] if isinstance(candidates[0], Mapping) else {}
        content = first.get("content") if isinstance(first.get("content"), Mapping) else {}
        parts = content.get("parts") if isinstance(content.get("parts"), list) else []
        text = "".join(p.get("text", "") for p in parts if isinstance(p, Mapping) and not p.get("thought"))
        if not text and first.get("finishReason") not in (None, "STOP", "MAX_TOKENS"):
            raise ReplyError(f"the model stopped without an answer ({first.get('finishReason')})")
        usage = data.get("usageMetadata") if isinstance(data.get("usageMetadata"), Mapping) else {}
        prompt_tokens = as_int(usage.get("promptTokenCount"))
        total = as_int(usage.get("totalTokenCount"))
        output = total - prompt_tokens if total >= prompt_tokens and total else as_int(usage.get("candidatesTokenCount"))
        return Reply(
            text=text,
            input_tokens=prompt_tokens,
            output_tokens=output,  # includes thinking tokens, which are billed as output
            truncated=first.get("finishReason") == "MAX_TOKENS",
        )
