"""The shape every provider shares: a prompt in, one HTTP call out, a reply back.

A provider only translates. :meth:`Provider.build` turns a :class:`Prompt` into an
:class:`HttpCall` (URL, headers, JSON body) in the provider's wire format, and
:meth:`Provider.parse` turns the decoded JSON of a 2xx answer into a :class:`Reply` (the
model's text and the token usage). Sending, retries, timeouts and validation of the model's
answer are the judge's business, so each provider module stays a page long and can be tested
without a network.
"""

from __future__ import annotations

import base64
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..config import ProviderConfig


@dataclass(frozen=True)
class TextPart:
    text: str


@dataclass(frozen=True)
class ImagePart:
    """An image sent inline (base64); ``media_type`` is ``image/png`` or ``image/jpeg``."""

    media_type: str
    data: bytes = field(repr=False)

    def base64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")

    def data_url(self) -> str:
        return f"data:{self.media_type};base64,{self.base64()}"


Part = TextPart | ImagePart


@dataclass(frozen=True)
class Prompt:
    """One request to a model: instructions, the user turn (text and images in order), and
    the JSON schema the answer must follow (also spelled out in ``system``)."""

    system: str
    parts: tuple[Part, ...]
    schema: Mapping[str, Any]
    max_output_tokens: int = 4096

    def text(self) -> str:
        return "\n\n".join(p.text for p in self.parts if isinstance(p, TextPart))

    def images(self) -> list[ImagePart]:
        return [p for p in self.parts if isinstance(p, ImagePart)]


@dataclass(frozen=True)
class HttpCall:
    url: str
    headers: dict[str, str] = field(repr=False)
    body: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class Reply:
    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    #: The model stopped at the output limit, so its JSON is most likely cut.
    truncated: bool = False

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class ReplyError(Exception):
    """A 2xx answer that carries no usable text (blocked, empty, unexpected shape)."""


def join_url(base: str, version: str, path: str) -> str:
    """``base`` + ``version`` + ``path``, without doubling a version the base already has
    (``https://api.openai.com/v1`` and ``https://api.openai.com`` give the same URL)."""
    base = base.rstrip("/")
    if version and not base.endswith(version):
        base += version
    return base + path


def as_int(value: Any) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


class Provider(ABC):
    """Base of every provider; subclasses set ``name`` and implement the three hooks."""

    name: ClassVar[str]

    def __init__(self, config: ProviderConfig) -> None:
        self.config = config

    @property
    def model(self) -> str:
        return self.config.model

    @property
    def accepts_images(self) -> bool:
        return self.config.images

    @abstractmethod
    def url(self) -> str: ...

    @abstractmethod
    def auth_headers(self) -> dict[str, str]: ...

    @abstractmethod
    def body(self, prompt: Prompt) -> dict[str, Any]: ...

    @abstractmethod
    def parse(self, data: Any) -> Reply: ...

    def build(self, prompt: Prompt) -> HttpCall:
        headers = {"content-type": "application/json", "accept": "application/json"}
        headers.update(self.auth_headers())
        return HttpCall(self.url(), headers, self.body(prompt))

    @staticmethod
    def error_message(data: Any) -> str:
        """The human part of an error body; every provider here nests it under ``error``
        (``{"error": {"message": ...}}``, Ollama: ``{"error": "..."}``)."""
        if isinstance(data, Mapping):
            err = data.get("error", data)
            if isinstance(err, str):
                return err
            if isinstance(err, Mapping):
                msg = err.get("message") or err.get("type") or err.get("status")
                if isinstance(msg, str):
                    return msg
        return ""
