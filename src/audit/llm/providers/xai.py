"""xAI (Grok): the OpenAI Chat Completions wire format at ``{base}/v1/chat/completions``,
Bearer auth; it supports strict ``json_schema`` structured output and image parts."""

from __future__ import annotations

from .openai import OpenAIChat


class Xai(OpenAIChat):
    name = "xai"
    max_tokens_field = "max_tokens"
