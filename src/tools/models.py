"""Pydantic bases and the shared objects of tool-server.md.

Every tool has one input model and one output model; the MCP schemas, the
catalog and the docs are generated from them. Inputs forbid unknown fields so
a misspelt argument is an error rather than silently ignored.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

DEFAULT_ELEMENT_TIMEOUT_MS = 5000
DEFAULT_WAIT_TIMEOUT_MS = 30000
MAX_TIMEOUT_MS = 600_000


class ToolInput(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoInput(ToolInput):
    """This tool takes no arguments."""


class ToolOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MessageOutput(ToolOutput):
    message: str = Field(description="What was done")


TimeoutMs = Field(
    default=DEFAULT_ELEMENT_TIMEOUT_MS, ge=0, le=MAX_TIMEOUT_MS,
    description="How long to wait for the element, in milliseconds",
)
WaitTimeoutMs = Field(
    default=DEFAULT_WAIT_TIMEOUT_MS, ge=0, le=MAX_TIMEOUT_MS,
    description="How long to wait, in milliseconds",
)

SEMANTIC_LOCATORS = ("role", "text", "label", "placeholder", "testid", "alt", "title", "xpath")


class SelectorInput(ToolInput):
    selector: str = Field(min_length=1, description="CSS selector of the element (in the current frame)")
    timeout_ms: int = TimeoutMs


class LocatorInput(ToolInput):
    """A CSS selector or exactly one semantic locator."""

    # The fields that count as locators; a subclass that reuses a name for another purpose
    # (element_type's ``text`` is the text to type) leaves it out.
    locator_kinds: ClassVar[tuple[str, ...]] = ("selector", *SEMANTIC_LOCATORS)

    selector: str | None = Field(default=None, min_length=1, description="CSS selector")
    role: str | None = Field(default=None, description="ARIA role, e.g. button; combine with name")
    name: str | None = Field(default=None, description="Accessible name to match with role (substring, case-insensitive)")
    text: str | None = Field(default=None, description="Visible text the element contains")
    label: str | None = Field(default=None, description="Text of the element's label")
    placeholder: str | None = Field(default=None, description="Placeholder text")
    testid: str | None = Field(default=None, description="data-testid value")
    alt: str | None = Field(default=None, description="alt text of an image")
    title: str | None = Field(default=None, description="title attribute")
    xpath: str | None = Field(default=None, description="XPath expression")
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
