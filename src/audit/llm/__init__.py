"""LLM assistance for audits: evidence from the open page, a judge that asks a provider
about it, and the two hooks the engine calls (see :mod:`.integration` and docs/llm.md)."""

from __future__ import annotations

from .config import SPECS, ProviderConfig, default_model, provider_configured, resolve
from .evidence import Evidence, collect_evidence
from .judge import JudgeSettings, LlmOutcome, review

__all__ = [
    "SPECS", "Evidence", "JudgeSettings", "LlmOutcome", "ProviderConfig", "collect_evidence",
    "default_model", "provider_configured", "resolve", "review",
]
