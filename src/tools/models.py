"""Pydantic bases and the shared objects of tool-server.md.

Every tool has one input model and one output model; the MCP schemas, the
catalog and the docs are generated from them. Inputs forbid unknown fields so
a misspelt argument is an error rather than silently ignored.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

DEFAULT_ELEMENT_TIMEOUT_MS = 5000
DEFAULT_WAIT_TIMEOUT_MS = 30000
MAX_TIMEOUT_MS = 600_000


class ToolInput(BaseModel):
    # defer_build: a model's validator is built when it is first used, so listing the tools
    # (--list-tools, which needs no model at all) does not pay for 169 tools' worth of them.
    model_config = ConfigDict(extra="forbid", defer_build=True)


class NoInput(ToolInput):
    """This tool takes no arguments."""


@dataclass(frozen=True)
class ToolImage:
    """A picture for the agent to see: sent as an MCP image block, never as text."""

    data: bytes
    mime_type: str

    def base64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")


class ToolOutput(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # as ToolInput
    # Private, so images are in neither the output schema nor the structured content.
    _images: list[ToolImage] = PrivateAttr(default_factory=list)

    @property
    def images(self) -> list[ToolImage]:
        return list(self._images)

    def with_images(self, *images: ToolImage) -> Self:
        self._images.extend(images)
        return self


class MessageOutput(ToolOutput):
    message: str = Field(description="What was done")


# Shared shapes: defined once here, repeated in each schema (a short field is cheaper than a $ref).
# Units and the locator rules are explained once, in the server's instructions.
TimeoutMs = Field(default=DEFAULT_ELEMENT_TIMEOUT_MS, ge=0, le=MAX_TIMEOUT_MS)
WaitTimeoutMs = Field(default=DEFAULT_WAIT_TIMEOUT_MS, ge=0, le=MAX_TIMEOUT_MS)
# Snapshot budgets (accessibility_snapshot, page_inspect): characters of the result, and paging.
MaxChars = Field(default=20_000, ge=2_000, le=10_000_000)
Offset = Field(default=0, ge=0)

SEMANTIC_LOCATORS = ("role", "text", "label", "placeholder", "testid", "alt", "title", "xpath")


class SelectorInput(ToolInput):
    selector: str = Field(min_length=1)
    timeout_ms: int = TimeoutMs


class LocatorInput(ToolInput):
    """A CSS selector or exactly one semantic locator."""

    # The fields that count as locators; a subclass that reuses a name for another purpose
    # (element_type's ``text`` is the text to type) leaves it out.
    locator_kinds: ClassVar[tuple[str, ...]] = ("selector", *SEMANTIC_LOCATORS)

    selector: str | None = Field(default=None, min_length=1)
    role: str | None = None
    name: str | None = None
    text: str | None = None
    label: str | None = None
    placeholder: str | None = None
    testid: str | None = None
    alt: str | None = None
    title: str | None = None
    xpath: str | None = None
    timeout_ms: int = TimeoutMs

    @model_validator(mode="after")
    def _exactly_one_locator(self) -> LocatorInput:
        given = [n for n in self.locator_kinds if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError(
                "give exactly one locator: selector or one of " + ", ".join(self.locator_kinds[1:])
                + (f" (got {', '.join(given)})" if given else " (got none)")
            )
        if self.name is not None and self.role is None:
            raise ValueError("name goes with role")
        return self

    def locator(self) -> dict[str, Any]:
        for kind in self.locator_kinds:
            value = getattr(self, kind)
            if value is not None:
                return {"kind": "css" if kind == "selector" else kind, "value": value, "name": self.name}
        raise AssertionError("validated to have one locator")


# -- shared objects (tool-server.md "Shared objects") -------------------------------


class BoundingBox(ToolOutput):
    x: float
    y: float
    width: float
    height: float


class TabInfo(ToolOutput):
    index: int
    id: str
    url: str
    title: str


class ConsoleMessage(ToolOutput):
    type: str
    text: str
    args: list[Any] = Field(default_factory=list)
    url: str = ""
    line: int = 0


class NetworkRequest(ToolOutput):
    url: str
    method: str
    resource_type: str
    status: int = 0
    status_text: str = ""
    response_size: int = 0
    request_id: str = ""
    failed: bool = False
    error_text: str | None = None


class RouteInfo(ToolOutput):
    pattern: str
    status: int
    content_type: str


class ConfigInfo(ToolOutput):
    headless: bool
    project: str
    default_timeout_ms: int
    browser_launched: bool
    output_dir: str = ""
    browser_version: str | None = None


class DownloadInfo(ToolOutput):
    path: str | None = Field(description="The saved file, once completed")
    suggested_filename: str
    url: str
    bytes: int
    state: str = Field(description="completed, in_progress or canceled")
