"""Any OpenAI-compatible server (vLLM, llama.cpp's server, LiteLLM, LM Studio, ...).

Same wire format as OpenAI at ``A11Y_LLM_BASE_URL`` (with or without the trailing ``/v1``);
``A11Y_LLM_API_KEY`` is sent as a Bearer token only when set. ``json_object`` is used rather
than ``json_schema`` because it is the mode these servers agree on; the schema is in the
prompt either way and every answer is validated.
"""

from __future__ import annotations

from .openai import OpenAIChat


class OpenAICompatible(OpenAIChat):
    name = "openai-compatible"
    response_format = "json_object"
    max_tokens_field = "max_tokens"
