"""Each provider's real wire format, asserted on the requests the fake server received."""

from __future__ import annotations

import base64
import json

import pytest

from audit.llm.config import resolve
from audit.llm.judge import JudgeSettings, review
from audit.llm.prompt import REPLY_SCHEMA
from audit.llm.providers import ReplyError, make_provider
from tests.llm.conftest import PROVIDER_KEY, PROVIDERS, llm_environ
from tests.llm.support import evidence, item, options

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SCHEMA_TEXT = json.dumps(REPLY_SCHEMA, separators=(",", ":"))

PATHS = {
    "anthropic": "/v1/messages",
    "openai": "/v1/chat/completions",
    "gemini": "/v1beta/models/{model}:generateContent",
    "xai": "/xai/v1/chat/completions",
    "ollama": "/api/chat",
    "openai-compatible": "/compat/v1/chat/completions",
}
DEFAULT_MODELS = {
    "anthropic": "claude-sonnet-4-6",
    "openai": "gpt-4.1-mini",
    "gemini": "gemini-2.5-flash",
    "xai": "grok-4",
    "ollama": "llama3.2-vision",
    "openai-compatible": "local-model",  # from A11Y_LLM_MODEL
}


def _images(provider: str, body: dict) -> list[bytes]:
    if provider == "anthropic":
        blocks = body["messages"][0]["content"]
        found = [b for b in blocks if b["type"] == "image"]
        for b in found:
            assert b["source"]["type"] == "base64" and b["source"]["media_type"] == "image/png"
        return [base64.b64decode(b["source"]["data"]) for b in found]
    if provider == "gemini":
        parts = body["contents"][0]["parts"]
        found = [p for p in parts if "inline_data" in p]
        assert all(p["inline_data"]["mime_type"] == "image/png" for p in found)
        return [base64.b64decode(p["inline_data"]["data"]) for p in found]
    if provider == "ollama":
        return [base64.b64decode(i) for i in body["messages"][1].get("images", [])]
    parts = body["messages"][1]["content"]
    found = [p for p in parts if p["type"] == "image_url"]
    for p in found:
        assert p["image_url"]["url"].startswith("data:image/png;base64,")
    return [base64.b64decode(p["image_url"]["url"].split(",", 1)[1]) for p in found]


def _system(provider: str, body: dict) -> str:
    if provider == "anthropic":
        return body["system"]
    if provider == "gemini":
        return body["systemInstruction"]["parts"][0]["text"]
    return body["messages"][0]["content"]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_request_and_reply_shapes(provider, fake_llm):
    env = llm_environ(fake_llm.url)
    ev = evidence(item(1, shot=True), item(2))
    outcome = await review(ev, options(provider), environ=env, settings=JudgeSettings(max_attempts=1))

    assert outcome.errors == []
    assert len(fake_llm.requests) == 1
    sent = fake_llm.requests[0]
    model = DEFAULT_MODELS[provider]
    assert sent.path == PATHS[provider].format(model=model)
    headers = {k.lower(): v for k, v in sent.headers.items()}
    key = PROVIDER_KEY[provider]
    if provider == "anthropic":
        assert headers["x-api-key"] == key
        assert headers["anthropic-version"] == "2023-06-01"
        assert "authorization" not in headers
        assert sent.body["max_tokens"] > 0 and sent.body["messages"][0]["role"] == "user"
    elif provider == "gemini":
        assert headers["x-goog-api-key"] == key
        assert "key=" not in sent.path
        assert sent.body["generationConfig"]["responseMimeType"] == "application/json"
    elif provider == "ollama":
        assert "authorization" not in headers
        assert sent.body["format"] == "json" and sent.body["stream"] is False
    else:
        assert headers["authorization"] == f"Bearer {key}"
        fmt = sent.body["response_format"]
        if provider == "openai-compatible":
            assert fmt == {"type": "json_object"}
        else:
            assert fmt["type"] == "json_schema"
            assert fmt["json_schema"]["strict"] is True
            assert fmt["json_schema"]["schema"] == REPLY_SCHEMA
    if provider != "gemini":
        assert sent.body["model"] == model
    # The key appears only in its auth header, never in the body.
    if key:
        assert key not in sent.raw.decode()

    assert SCHEMA_TEXT in _system(provider, sent.body)
    images = _images(provider, sent.body)
    assert len(images) == 1 and images[0].startswith(PNG_MAGIC)

    assert set(outcome.reviews) == {ev.items[0].key, ev.items[1].key}
    assert outcome.reviews[ev.items[0].key].verdict == "confirmed"
    assert outcome.reviews[ev.items[0].key].suggested_fix.startswith("<p")
    assert outcome.input_tokens > 100 and outcome.output_tokens > 10
    summary = outcome.summary()
    assert summary.provider == provider and summary.model == model
    assert summary.reviewed == 2 and summary.tokens_used == outcome.tokens_used and summary.error is None


async def test_model_override_and_images_switched_off(fake_llm):
    env = {**llm_environ(fake_llm.url), "A11Y_LLM_IMAGES": "0"}
    await review(evidence(item(1, shot=True)), options("gemini", "gemini-2.5-pro"), environ=env)
    sent = fake_llm.requests[0]
    assert sent.path == "/v1beta/models/gemini-2.5-pro:generateContent"
    assert _images("gemini", sent.body) == []
    assert "attached image" not in json.dumps(sent.body)


def _provider(name: str):
    return make_provider(resolve(name, None, {**llm_environ("http://x"), "OPENAI_BASE_URL": "http://x"}))


def test_truncated_and_empty_replies_are_recognised():
    assert _provider("anthropic").parse(
        {"content": [{"type": "text", "text": "{"}], "stop_reason": "max_tokens", "usage": {}}).truncated
    assert _provider("openai").parse(
        {"choices": [{"message": {"content": "{"}, "finish_reason": "length"}]}).truncated
    assert _provider("gemini").parse(
        {"candidates": [{"content": {"parts": [{"text": "{"}]}, "finishReason": "MAX_TOKENS"}]}).truncated
    assert _provider("ollama").parse({"message": {"content": "{"}, "done_reason": "length"}).truncated
    with pytest.raises(ReplyError, match="blocked"):
        _provider("gemini").parse({"promptFeedback": {"blockReason": "SAFETY"}})
    with pytest.raises(ReplyError, match="refused"):
        _provider("openai").parse({"choices": [{"message": {"content": None, "refusal": "no"}}]})
    with pytest.raises(ReplyError):
        _provider("anthropic").parse({"unexpected": True})


def test_gemini_thinking_tokens_count_as_output():
    reply = _provider("gemini").parse({
        "candidates": [{"content": {"parts": [{"text": "{}"}]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 20,
                          "thoughtsTokenCount": 50, "totalTokenCount": 170},
    })
    assert (reply.input_tokens, reply.output_tokens) == (100, 70)
