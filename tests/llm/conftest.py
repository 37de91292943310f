"""Fixtures for LLM assistance: the fake provider server and an environment pointing every
provider at it with test keys (each key contains SECRET so leaks are easy to grep for)."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator

import pytest

from tests.llm.fake import FakeLLM

KEYS = {
    "ANTHROPIC_API_KEY": "sk-ant-test-SECRET-anthropic-0001",
    "OPENAI_API_KEY": "sk-test-SECRET-openai-0002",
    "GEMINI_API_KEY": "AIzaTEST-SECRET-gemini-0003",
    "XAI_API_KEY": "xai-test-SECRET-0004",
    "A11Y_LLM_API_KEY": "compat-SECRET-0005",
}
PROVIDER_KEY = {
    "anthropic": KEYS["ANTHROPIC_API_KEY"],
    "openai": KEYS["OPENAI_API_KEY"],
    "gemini": KEYS["GEMINI_API_KEY"],
    "xai": KEYS["XAI_API_KEY"],
    "openai-compatible": KEYS["A11Y_LLM_API_KEY"],
    "ollama": None,
}
PROVIDERS = list(PROVIDER_KEY)


def llm_environ(url: str) -> dict[str, str]:
    """Every provider at the fake; OpenAI's base URL carries /v1 the way the OpenAI SDK's does."""
    return {
        **KEYS,
        "ANTHROPIC_BASE_URL": url,
        "OPENAI_BASE_URL": url + "/v1",
        "GEMINI_BASE_URL": url,
        "XAI_BASE_URL": url + "/xai",
        "OLLAMA_BASE_URL": url,
        "A11Y_LLM_BASE_URL": url + "/compat/v1",
        "A11Y_LLM_MODEL": "local-model",
    }


@pytest.fixture
def fake_llm() -> Iterator[FakeLLM]:
    fake = FakeLLM().start()
    fake.keys = dict(PROVIDER_KEY)
    yield fake
    fake.stop()


@pytest.fixture
def llm_env(fake_llm: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """os.environ pointing every provider at the fake (what the engine reads)."""
    env = llm_environ(fake_llm.url)
    for name in ("OLLAMA_HOST", "A11Y_LLM_IMAGES", "A11Y_LLM_MAX_CALLS", "A11Y_LLM_BATCH_SIZE",
                 "A11Y_LLM_CONCURRENCY", "A11Y_LLM_TIMEOUT", "A11Y_LLM_MAX_ATTEMPTS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


def png(width: int, height: int, rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    """A valid solid-colour PNG, for evidence built by hand."""
    row = b"\x00" + bytes(rgb) * width
    raw = zlib.compress(row * height)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")
