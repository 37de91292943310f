"""One module per LLM provider, all on the :class:`~.base.Provider` shape."""

from __future__ import annotations

from ..config import ProviderConfig
from .anthropic import Anthropic
from .base import HttpCall, ImagePart, Prompt, Provider, Reply, ReplyError, TextPart
from .compatible import OpenAICompatible
from .gemini import Gemini
from .ollama import Ollama
from .openai import OpenAIChat
from .xai import Xai

PROVIDER_CLASSES: dict[str, type[Provider]] = {
    cls.name: cls for cls in (Anthropic, OpenAIChat, Gemini, Xai, Ollama, OpenAICompatible)
}


def make_provider(config: ProviderConfig) -> Provider:
    """The provider object for a resolved configuration."""
    return PROVIDER_CLASSES[config.provider](config)


__all__ = [
    "PROVIDER_CLASSES", "HttpCall", "ImagePart", "Prompt", "Provider", "Reply", "ReplyError",
    "TextPart", "make_provider",
]
