"""Which LLM providers exist, where they live and which secret each one needs.

Everything here comes from the environment of the server process, read when asked (not at
import), so a test or an operator can change a setting without restarting Python. Keys are
held in :class:`ProviderConfig` with ``repr=False`` so they never reach a log line, a
traceback's locals or a result by accident.

Base URLs are the provider's origin *without* the API version (``https://api.anthropic.com``);
a URL that already ends in the version segment the provider uses (``.../v1`` for the
OpenAI-style APIs, as the OpenAI SDK's ``OPENAI_BASE_URL`` does) is accepted as well.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

#: Env var that switches image parts off for every provider (text-only local models).
IMAGES_ENV = "A11Y_LLM_IMAGES"


@dataclass(frozen=True)
class ProviderSpec:
    """Static facts about one provider: env var names, defaults."""

    name: str
    #: Env var of the API key; None when the provider needs none.
    key_env: str | None
    #: Env var overriding the base URL.
    base_url_env: str
    #: None when the operator must give the base URL (openai-compatible).
    default_base_url: str | None
    default_model: str
    #: Env var of a key that is sent when set but not required (openai-compatible).
    optional_key_env: str | None = None
    #: Env var overriding the default model (openai-compatible: the served model's name).
    model_env: str | None = None
    #: A second, conventional env var for the base URL (Ollama's own OLLAMA_HOST).
    fallback_base_url_env: str | None = None


SPECS: dict[str, ProviderSpec] = {
    "anthropic": ProviderSpec(
        "anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "https://api.anthropic.com",
        "claude-sonnet-4-6",
    ),
    "openai": ProviderSpec(
        "openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com", "gpt-4.1-mini",
    ),
    "gemini": ProviderSpec(
        "gemini", "GEMINI_API_KEY", "GEMINI_BASE_URL",
        "https://generativelanguage.googleapis.com", "gemini-2.5-flash",
    ),
    "xai": ProviderSpec("xai", "XAI_API_KEY", "XAI_BASE_URL", "https://api.x.ai", "grok-4"),
    "ollama": ProviderSpec(
        "ollama", None, "OLLAMA_BASE_URL", "http://localhost:11434", "llama3.2-vision",
        fallback_base_url_env="OLLAMA_HOST",
    ),
    "openai-compatible": ProviderSpec(
        "openai-compatible", None, "A11Y_LLM_BASE_URL", None, "default",
        optional_key_env="A11Y_LLM_API_KEY", model_env="A11Y_LLM_MODEL",
    ),
}


@dataclass(frozen=True)
class ProviderConfig:
    """A provider ready to be called: where, which model, and (hidden) the key."""

    provider: str
    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    images: bool = True


class LlmNotConfigured(Exception):
    """The provider cannot be used with this environment; the message names the setting."""


def _env(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def _value(environ: Mapping[str, str], name: str | None) -> str:
    return environ.get(name, "").strip() if name else ""


def _base_url(spec: ProviderSpec, environ: Mapping[str, str]) -> tuple[str, str]:
    """(base URL, the env var it came from or "default")."""
    for name in (spec.base_url_env, spec.fallback_base_url_env):
        raw = _value(environ, name)
        if raw and name:
            if name == spec.fallback_base_url_env and "://" not in raw:
                raw = "http://" + raw  # OLLAMA_HOST is usually "host:port"
            return raw.rstrip("/"), name
    return (spec.default_base_url or "").rstrip("/"), "default"


def _check_url(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def provider_configured(
    provider: str, environ: Mapping[str, str] | None = None
) -> tuple[bool, str]:
    """Whether ``provider`` can be used here, and why not.

    ``(False, reason)`` names the missing or bad env var (never its value), e.g.
    ``"ANTHROPIC_API_KEY is not set"``; ``(True, "")`` when usable. The HTTP layer answers
    400 ``llm_not_configured`` on False, before any page is opened.
    """
    env = _env(environ)
    spec = SPECS.get(provider)
    if spec is None:
        return False, f"unknown LLM provider '{provider}'; expected one of {', '.join(SPECS)}"
    if spec.key_env and not _value(env, spec.key_env):
        return False, f"{spec.key_env} is not set"
    url, source = _base_url(spec, env)
    if not url:
        return False, f"{spec.base_url_env} is not set"
    if not _check_url(url):
        where = spec.base_url_env if source == "default" else source
        return False, f"{where} is not an http:// or https:// URL"
    return True, ""


def default_model(provider: str, environ: Mapping[str, str] | None = None) -> str:
    """The model used when the request names none (see docs/llm.md for the table)."""
    spec = SPECS[provider]
    return _value(_env(environ), spec.model_env) or spec.default_model


def images_enabled(environ: Mapping[str, str] | None = None) -> bool:
    """False when ``A11Y_LLM_IMAGES`` is 0/false/no/off (for text-only models)."""
    return _value(_env(environ), IMAGES_ENV).lower() not in ("0", "false", "no", "off")


def resolve(
    provider: str, model: str | None = None, environ: Mapping[str, str] | None = None
) -> ProviderConfig:
    """The :class:`ProviderConfig` for a request; raises :class:`LlmNotConfigured`."""
    env = _env(environ)
    ok, reason = provider_configured(provider, env)
    if not ok:
        raise LlmNotConfigured(reason)
    spec = SPECS[provider]
    key = _value(env, spec.key_env or spec.optional_key_env) or None
    url, _ = _base_url(spec, env)
    return ProviderConfig(
        provider=provider,
        base_url=url,
        model=model or default_model(provider, env),
        api_key=key,
        images=images_enabled(env),
    )


def secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """Every key value present in the environment, for scrubbing text before it leaves."""
    env = _env(environ)
    names = {s.key_env for s in SPECS.values()} | {s.optional_key_env for s in SPECS.values()}
    return [v for n in names if n and (v := _value(env, n))]
