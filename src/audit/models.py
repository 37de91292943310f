"""The HTTP contract of the audit service in one place: request, result, health and error
bodies as pydantic v2 models, the translation of validation errors into the error body, and
the OpenAPI document built from the same models.

Python attributes are snake_case; every JSON name is the camelCase alias (``maxPages``,
``wcagVersion``). Requests accept only the JSON names and no coercion at all ("2" is not 2,
"true" is not true); result models may also be built from the Python names, and always
serialize to camelCase (``model_dump(mode="json")`` is enough, ``by_alias=True`` is implied).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
)
from pydantic.alias_generators import to_camel
from pydantic.json_schema import models_json_schema
from pydantic_core import InitErrorDetails, PydanticCustomError

from .meta import package_version
from .rules import Impact, WcagLevel, WcagVersion

MAX_URL_LENGTH = 2048
MAX_HTML_LENGTH = 300
DEPTH_MAX = 5
MAX_PAGES_MAX = 500
DEFAULT_MAX_PAGES = 50
ALLOWED_SCHEMES = ("http", "https")
#: The codes of a failed audit (HTTP 500), raised by the engine as ``AuditFailed``.
AUDIT_ERROR_CODES = ("navigation_failed", "http_error", "timeout", "browser_crashed", "audit_failed")

Provider = Literal["anthropic", "openai", "gemini", "xai", "ollama", "openai-compatible"]
PROVIDERS: tuple[str, ...] = ("anthropic", "openai", "gemini", "xai", "ollama", "openai-compatible")


# --------------------------------------------------------------------------- helpers


def round1(value: float) -> float:
    """Round half up to one decimal (92.25 -> 92.3), unlike ``round``'s banker's rounding
    on binary floats; the shortest repr is used so what you see is what gets rounded."""
    return float(Decimal(repr(float(value))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def clip(text: str, limit: int = MAX_HTML_LENGTH) -> str:
    """``text`` cut to at most ``limit`` characters, marking a cut with a trailing ellipsis."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "\u2026"


def _upper_if_str(value: Any) -> Any:
    return value.upper() if isinstance(value, str) else value


def _check_url(value: str) -> str:
    if any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value):
        raise PydanticCustomError(
            "url_invalid", "Must be a URL without spaces or control characters."
        )
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as exc:
        raise PydanticCustomError("url_invalid", "Must be a valid absolute URL.") from exc
    scheme = parts.scheme.lower()
    if not scheme:
        raise PydanticCustomError(
            "url_scheme", "Must be an absolute URL starting with http:// or https://."
        )
    if scheme not in ALLOWED_SCHEMES:
        raise PydanticCustomError(
            "url_scheme",
            "Scheme '{scheme}' is not allowed; only http and https URLs can be audited.",
            {"scheme": scheme},
        )
    if not parts.hostname:
        raise PydanticCustomError("url_host", "Must include a host name.")
    return value


AuditUrl = Annotated[
    StrictStr,
    Field(min_length=1, max_length=MAX_URL_LENGTH, description="Absolute http or https URL."),
    AfterValidator(_check_url),
]
LevelIn = Annotated[
    WcagLevel,
    BeforeValidator(_upper_if_str),
    Field(description="WCAG conformance level; case-insensitive on input, upper-case on output."),
]


def _not_blank(value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise PydanticCustomError("blank", "Must not be empty.")
    return value


class _RequestModel(BaseModel):
    """Request bodies: JSON names only, unknown fields rejected."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=to_camel,
        validate_by_alias=True,
        validate_by_name=False,
        serialize_by_alias=True,
    )


class _ResultModel(BaseModel):
    """Response bodies: built from Python or JSON names, always dumped as camelCase."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=to_camel,
        validate_by_alias=True,
        validate_by_name=True,
        serialize_by_alias=True,
    )


# --------------------------------------------------------------------------- request


class CrawlOptions(_RequestModel):
    """Crawl settings; depth 0 audits the start page only."""

    enabled: StrictBool = False
    depth: StrictInt = Field(2, ge=0, le=DEPTH_MAX)
    max_pages: StrictInt = Field(DEFAULT_MAX_PAGES, ge=1, le=MAX_PAGES_MAX)


class LlmOptions(_RequestModel):
    """LLM assistance settings; ``model`` None means the provider's default model."""

    enabled: StrictBool = False
    provider: Provider = "anthropic"
    model: Annotated[StrictStr | None, Field(min_length=1), AfterValidator(_not_blank)] = None
    include_findings: StrictBool = False


class AuditRequest(_RequestModel):
    """Body of POST /audit."""

    url: AuditUrl
    level: LevelIn = "AA"
    version: WcagVersion = "2.2"
    crawl: CrawlOptions = Field(default_factory=CrawlOptions)
    llm: LlmOptions = Field(default_factory=LlmOptions)
    best_practices: StrictBool = Field(
        False,
        description="Also run axe-core best-practice rules; reported apart, never WCAG findings.",
    )


def validate_against_limits(req: AuditRequest, max_pages: int) -> AuditRequest:
    """Apply the server's ``--max-pages`` cap to a valid request.

    An explicit ``crawl.maxPages`` above the cap is a field error (raised as a pydantic
    ``ValidationError`` located at ``crawl.maxPages``, so the caller reports it like any other
    400). When the client left ``maxPages`` out, the default is lowered to the cap instead, so a
    server started with a small cap still accepts requests that don't mention it.
    """
    crawl = req.crawl
    if crawl.max_pages <= max_pages:
        return req
    if "max_pages" in crawl.model_fields_set:
        raise ValidationError.from_exception_data(
            "AuditRequest",
            [
                InitErrorDetails(
                    type=PydanticCustomError(
                        "max_pages_limit",
                        "Must be at most {limit} on this server.",
                        {"limit": max_pages},
                    ),
                    loc=("crawl", "maxPages"),
                    input=crawl.max_pages,
                )
            ],
        )
    new_crawl = crawl.model_copy(update={"max_pages": max(1, max_pages)})
    return req.model_copy(update={"crawl": new_crawl})


# --------------------------------------------------------------------------- result


class FindingReview(_ResultModel):
    """An LLM's opinion of one finding; advisory only, it never changes conformance."""

    verdict: Literal["confirmed", "false_positive", "needs_manual_review"]
    confidence: float = Field(ge=0.0, le=1.0)
    reasoning: str
    suggested_fix: str | None = None


class _Located(_ResultModel):
    """Fields shared by everything that points at one element of one page."""

    rule_id: str
    description: str
    impact: Impact
    element: str = Field(description="Lower-case tag name; empty when axe gave no markup.")
    selector: str = Field(description="CSS selector; frame and shadow-root hops joined by ' >>> '.")
    html: str = Field(description="Opening tag of the element, at most 300 characters.")
    help: str = Field(description="URL of the rule's help page.")
    help_text: str = Field("", description="axe-core's one-sentence help for the rule.")
    page_url: str = ""
    failure_summary: str | None = None

    @field_validator("html")
    @classmethod
    def _clip_html(cls, value: str) -> str:
        return clip(value)


class Finding(_Located):
    """One WCAG rule failing on one element."""

    id: str
    level: WcagLevel
    success_criteria: list[str] = Field(default_factory=list)
    source: Literal["axe", "llm"] = "axe"
    llm: FindingReview | None = None


class NeedsReviewItem(_Located):
    """An element axe-core could not decide for a WCAG rule; never breaks conformance."""

    id: str = Field(description="r1, r2, ... unique within the result.")
    level: WcagLevel
    success_criteria: list[str] = Field(default_factory=list)
    reason: str = Field(description="Why axe could not decide (its check messages).")
    llm: FindingReview | None = None


class BestPracticeItem(_Located):
    """A non-WCAG (best-practice) rule result, reported only when bestPractices was asked;
    kept apart from findings so it never counts in stats, score or conformance."""

    id: str = Field(description="b1, b2, ... unique within the result.")
    outcome: Literal["violation", "needs_review"] = "violation"


class Stats(_ResultModel):
    total_pages: int = Field(ge=0)
    total_findings: int = Field(ge=0)
    critical: int = Field(0, ge=0)
    serious: int = Field(0, ge=0)
    moderate: int = Field(0, ge=0)
    minor: int = Field(0, ge=0)


class ErrorInfo(_ResultModel):
    """Why a page could not be audited (same codes as the 500 error body)."""

    code: str
    message: str


def _round_score(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("score must be finite")
    return round1(value)


class DialogInfo(_ResultModel):
    """A JavaScript dialog the page opened; the audit accepted it."""

    type: str = Field(description="alert, confirm, prompt or beforeunload")
    message: str = Field(description="The dialog's text, at most 500 characters.")


class PageResult(_ResultModel):
    """One page of the audit. ``status`` is ``ok`` when audited, ``failed`` when it should
    have been audited but could not be (breaks conformance), ``skipped`` when deliberately not
    audited (e.g. not HTML)."""

    url: str
    status: Literal["ok", "failed", "skipped"]
    http_status: int | None = None
    score: float | None = Field(None, ge=0, le=100)
    findings: int = Field(0, ge=0)
    error: ErrorInfo | None = None
    untested_frames: list[str] = Field(default_factory=list)
    rules_tested: list[str] = Field(
        default_factory=list,
        description="WCAG rules applicable on this page (failed, passed or undecided).",
    )
    dialogs: list[DialogInfo] = Field(
        default_factory=list,
        description="JavaScript dialogs the page opened while audited (each was accepted).",
    )

    @field_validator("score")
    @classmethod
    def _one_decimal(cls, value: float | None) -> float | None:
        return None if value is None else _round_score(value)


class EngineInfo(_ResultModel):
    name: Literal["axe-core"] = "axe-core"
    version: str


class LlmSummary(_ResultModel):
    provider: str
    model: str
    reviewed: int = Field(0, ge=0)
    tokens_used: int | None = None
    error: str | None = None


class AuditResult(_ResultModel):
    """Body of a 200 response to POST /audit."""

    url: str
    wcag_version: WcagVersion
    wcag_level: WcagLevel
    score: float = Field(ge=0, le=100, description="Mean of page scores, one decimal.")
    conformant: bool
    stats: Stats
    findings: list[Finding] = Field(default_factory=list)
    needs_review: list[NeedsReviewItem] = Field(default_factory=list)
    best_practices: list[BestPracticeItem] = Field(default_factory=list)
    pages: list[PageResult] = Field(default_factory=list)
    duration_ms: int = Field(0, ge=0)
    engine: EngineInfo
    llm: LlmSummary | None = None

    @field_validator("score")
    @classmethod
    def _one_decimal(cls, value: float) -> float:
        return _round_score(value)


# --------------------------------------------------------------------------- health


class BrowserInfo(_ResultModel):
    connected: bool
    version: str | None = None


class HealthStatus(_ResultModel):
    """Body of GET /health: ``healthy`` (200) or ``unhealthy`` with a reason (503)."""

    status: Literal["healthy", "unhealthy"] = "healthy"
    version: str = Field(default_factory=package_version)
    browser: BrowserInfo | None = None
    reason: str | None = None


# --------------------------------------------------------------------------- errors


class ErrorDetail(_ResultModel):
    field: str
    message: str


class ErrorObject(_ResultModel):
    code: str = Field(description="snake_case error code, e.g. invalid_request.")
    message: str = Field(description="A human sentence.")
    details: list[dict[str, Any]] = Field(default_factory=list)


class ErrorBody(_ResultModel):
    """Every non-200 body: ``{"error": {"code", "message", "details": [...]}}``."""

    error: ErrorObject


def error_body(
    code: str, message: str, details: Sequence[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The JSON-ready error body for any non-200 response."""
    return ErrorBody(
        error=ErrorObject(code=code, message=message, details=list(details or []))
    ).model_dump(mode="json")


_TYPE_MESSAGES = {
    "missing": "This field is required.",
    "bool_type": "Expected a boolean (true or false).",
    "bool_parsing": "Expected a boolean (true or false).",
    "int_type": "Expected an integer.",
    "int_parsing": "Expected an integer.",
    "int_from_float": "Expected an integer.",
    "string_type": "Expected a string.",
    "float_type": "Expected a number.",
    "model_type": "Expected an object.",
    "model_attributes_type": "Expected an object.",
    "dict_type": "Expected an object.",
    "list_type": "Expected an array.",
    "json_invalid": "The body is not valid JSON.",
    "json_type": "The body is not valid JSON.",
}


def _field_path(loc: Sequence[str | int]) -> str:
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path = f"{path}.{part}" if path else str(part)
    return path or "body"


def _message(err: dict[str, Any]) -> str:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind == "extra_forbidden":
        name = err["loc"][-1] if err["loc"] else "?"
        return f"Unknown field '{name}'."
    if kind in _TYPE_MESSAGES:
        return _TYPE_MESSAGES[kind]
    if kind in ("literal_error", "enum"):
        return f"Must be one of {ctx.get('expected', 'the allowed values')}."
    if kind == "greater_than_equal":
        return f"Must be at least {ctx['ge']}."
    if kind == "less_than_equal":
        return f"Must be at most {ctx['le']}."
    if kind == "string_too_short":
        if ctx.get("min_length") == 1:
            return "Must not be empty."
        return f"Must be at least {ctx['min_length']} characters long."
    if kind == "string_too_long":
        return f"Must be at most {ctx['max_length']} characters long."
    return str(err.get("msg", "Invalid value."))


def request_errors(exc: ValidationError) -> list[dict[str, str]]:
    """One ``{"field", "message"}`` per problem, fields as dotted JSON paths
    (``crawl.maxPages``; ``body`` for the body as a whole), messages as human sentences."""
    out: list[dict[str, str]] = []
    for err in exc.errors(include_url=False):
        item = {"field": _field_path(err["loc"]), "message": _message(err)}
        if item not in out:
            out.append(item)
    return out


# --------------------------------------------------------------------------- OpenAPI

_ERROR_RESPONSES = {
    "400": "Invalid request: invalid_json, invalid_request (details: one {field, message} per "
    "bad field), unsupported_media_type, payload_too_large (body over 64 KiB), llm_not_configured.",
    "401": "unauthorized: a token is configured and the bearer token is missing or wrong.",
    "413": "payload_too_large: the body is over 64 KiB (this service answers 400 with the "
    "same code; 413 is listed for front proxies that enforce the limit themselves).",
    "415": "unsupported_media_type: the content type is not application/json (this service "
    "answers 400 with the same code; 415 is listed for proxies and future use).",
    "500": f"The audit failed: {', '.join(AUDIT_ERROR_CODES)}.",
    "503": "overloaded: the queue is full; retry after the Retry-After header.",
}


JsonSchemaMode = Literal["validation", "serialization"]
#: ``use(Model, mode)``: the ``$ref`` to a model's schema in the document's components.
SchemaRef = Callable[[type[BaseModel], JsonSchemaMode], dict[str, Any]]


@dataclass(frozen=True)
class OpenApiPaths:
    """More paths for the document, described by the front end that serves them: the models
    their bodies use (generated into the same components as the audit's, in one pass, so a
    model shared by both is one schema) and a function that builds the path items from
    references to those models."""

    models: Sequence[tuple[type[BaseModel], JsonSchemaMode]]
    build: Callable[[SchemaRef], dict[str, Any]]


def json_content(schema: dict[str, Any]) -> dict[str, Any]:
    """An OpenAPI ``content`` map with one JSON body of ``schema``."""
    return {"application/json": {"schema": schema}}


def openapi_schema(*more: OpenApiPaths) -> dict[str, Any]:
    """OpenAPI 3.1 document for POST /audit and GET /health (and the paths of ``more``),
    generated from the models."""
    ref = "#/components/schemas/{model}"
    core: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        (AuditRequest, "validation"),
        (AuditResult, "serialization"),
        (HealthStatus, "serialization"),
        (ErrorBody, "serialization"),
    ]
    wanted = list(dict.fromkeys([*core, *(pair for extra in more for pair in extra.models)]))
    refs, top = models_json_schema(wanted, ref_template=ref)
    schemas = top.get("$defs", {})

    def use(model: type[BaseModel], mode: JsonSchemaMode) -> dict[str, Any]:
        return refs[(model, mode)]

    error = use(ErrorBody, "serialization")
    audit_responses: dict[str, Any] = {
        "200": {
            "description": "Audit completed.",
            "content": json_content(use(AuditResult, "serialization")),
        }
    }
    for status, text in _ERROR_RESPONSES.items():
        audit_responses[status] = {"description": text, "content": json_content(error)}
    audit_responses["503"]["headers"] = {
        "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
    }
    health = use(HealthStatus, "serialization")
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "a11y audit service",
            "version": package_version(),
            "description": "WCAG audits of web pages with axe-core in headless Chromium.",
        },
        "paths": {
            "/audit": {
                "post": {
                    "operationId": "audit",
                    "summary": "Run an accessibility audit.",
                    "security": [{"bearerAuth": []}, {}],
                    "requestBody": {
                        "required": True,
                        "content": json_content(use(AuditRequest, "validation")),
                    },
                    "responses": audit_responses,
                }
            },
            "/health": {
                "get": {
                    "operationId": "health",
                    "summary": "Health check.",
                    "responses": {
                        "200": {"description": "Healthy.", "content": json_content(health)},
                        "503": {
                            "description": "Unhealthy: the browser cannot be started.",
                            "content": json_content(health),
                        },
                    },
                }
            },
            **{path: item for extra in more for path, item in extra.build(use).items()},
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Required only when the server runs with --token.",
                }
            },
        },
    }
