"""Provider configuration: what counts as configured, defaults, base URLs, hidden keys."""

from __future__ import annotations

import pytest

from audit.llm.config import SPECS, default_model, provider_configured, resolve
from audit.llm.providers import Prompt, make_provider
from audit.models import PROVIDERS


def test_every_provider_of_the_request_model_has_a_spec():
    assert set(SPECS) == set(PROVIDERS)


@pytest.mark.parametrize(
    ("provider", "env", "ok", "reason"),
    [
        ("anthropic", {}, False, "ANTHROPIC_API_KEY is not set"),
        ("anthropic", {"ANTHROPIC_API_KEY": "  "}, False, "ANTHROPIC_API_KEY is not set"),
        ("anthropic", {"ANTHROPIC_API_KEY": "k"}, True, ""),
        ("openai", {}, False, "OPENAI_API_KEY is not set"),
        ("gemini", {}, False, "GEMINI_API_KEY is not set"),
        ("xai", {}, False, "XAI_API_KEY is not set"),
        ("ollama", {}, True, ""),
        ("openai-compatible", {}, False, "A11Y_LLM_BASE_URL is not set"),
        ("openai-compatible", {"A11Y_LLM_BASE_URL": "http://vllm:8000/v1"}, True, ""),
        ("openai-compatible", {"A11Y_LLM_BASE_URL": "vllm"}, False, "is not an http"),
        ("anthropic", {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": "ftp://x"}, False,
         "ANTHROPIC_BASE_URL is not an http"),
        ("skynet", {}, False, "unknown LLM provider 'skynet'"),
    ],
)
def test_provider_configured(provider, env, ok, reason):
    got_ok, got_reason = provider_configured(provider, env)
    assert got_ok is ok
    assert reason in got_reason
    for value in env.values():
        if value.strip() and len(value) > 3:
            assert value not in got_reason or "://" in value


def test_defaults_and_overrides():
    assert {name: default_model(name, {}) for name in SPECS} == {
        "anthropic": "claude-sonnet-4-6",
        "openai": "gpt-4.1-mini",
        "gemini": "gemini-2.5-flash",
        "xai": "grok-4",
        "ollama": "llama3.2-vision",
        "openai-compatible": "default",
    }
    assert default_model("openai-compatible", {"A11Y_LLM_MODEL": "qwen2.5-vl"}) == "qwen2.5-vl"
    config = resolve("anthropic", "claude-haiku-4-5", {"ANTHROPIC_API_KEY": "k"})
    assert config.model == "claude-haiku-4-5"
    assert config.base_url == "https://api.anthropic.com"


@pytest.mark.parametrize(
    ("provider", "env", "url"),
    [
        ("anthropic", {"ANTHROPIC_API_KEY": "k"}, "https://api.anthropic.com/v1/messages"),
        ("anthropic", {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": "http://proxy:8080/anthropic/"},
         "http://proxy:8080/anthropic/v1/messages"),
        ("openai", {"OPENAI_API_KEY": "k"}, "https://api.openai.com/v1/chat/completions"),
        ("openai", {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "https://gw.example/v1"},
         "https://gw.example/v1/chat/completions"),
        ("gemini", {"GEMINI_API_KEY": "k"},
         "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"),
        ("xai", {"XAI_API_KEY": "k"}, "https://api.x.ai/v1/chat/completions"),
        ("ollama", {}, "http://localhost:11434/api/chat"),
        ("ollama", {"OLLAMA_HOST": "10.0.0.5:11434"}, "http://10.0.0.5:11434/api/chat"),
        ("openai-compatible", {"A11Y_LLM_BASE_URL": "http://vllm:8000"}, "http://vllm:8000/v1/chat/completions"),
        ("openai-compatible", {"A11Y_LLM_BASE_URL": "http://vllm:8000/v1"}, "http://vllm:8000/v1/chat/completions"),
    ],
)
def test_endpoints(provider, env, url):
    assert make_provider(resolve(provider, None, env)).url() == url


def test_key_is_not_in_repr():
    config = resolve("openai", None, {"OPENAI_API_KEY": "sk-test-SECRET-9"})
    assert "SECRET" not in repr(config)
    call = make_provider(config).build(Prompt("s", (), {}))
    assert "SECRET" not in repr(call)
