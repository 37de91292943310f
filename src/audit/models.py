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
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel
from pydantic_core import InitErrorDetails, PydanticCustomError

from .meta import package_version
from .problems.schema import Problem
from .request_options import (
    ONE_OF_VIEWPORTS,
    RELATIONS,
    AuthOptions,
    JsonInt,
    ViewportList,
    ViewportOption,
    check_request_options,
    is_false,
    is_none,
)
from .request_options import RequestModel as _RequestModel
from .rules import Impact, WcagLevel, WcagVersion

if TYPE_CHECKING:  # AuditResult.diff's answer; audit.diff imports this module
    from .diff import Diff

MAX_URL_LENGTH = 2048
MAX_HTML_LENGTH = 300
DEPTH_MAX = 5
MAX_PAGES_MAX = 500
DEFAULT_MAX_PAGES = 50
ALLOWED_SCHEMES = ("http", "https")
#: The codes of a failed audit (HTTP 500), raised by the engine as ``AuditFailed``.
AUDIT_ERROR_CODES = (
    "navigation_failed", "http_error", "timeout", "browser_crashed", "login_failed", "audit_failed"
)

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


_NOT_URL_TEXT = r"\u0000-\u0020\u007f"
_PORT = r"(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})?"
#: What ``_check_url`` accepts, as a pattern for the OpenAPI document (ECMA-262 syntax, which
#: Python's ``re`` reads the same way), so a client or fuzzer reading the document can tell a
#: URL the server will take: http(s), optional user info, a host (a bracketed IPv6 address or
#: a name without reserved characters), an optional port up to 65535, then anything printable.
URL_PATTERN = (
    f"^[Hh][Tt][Tt][Pp][Ss]?://([^{_NOT_URL_TEXT}/?#]*@)?"
    f"([^{_NOT_URL_TEXT}/?#@:\\[\\]]+|\\[[0-9A-Fa-f:.]+\\])(:{_PORT})?"
    f"([/?#][^{_NOT_URL_TEXT}]*)?$"
)

AuditUrl = Annotated[
    StrictStr,
    Field(
        min_length=1,
        max_length=MAX_URL_LENGTH,
        description="Absolute http or https URL.",
        json_schema_extra={"format": "uri", "pattern": URL_PATTERN},
    ),
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
    depth: JsonInt = Field(2, ge=0, le=DEPTH_MAX)
    max_pages: JsonInt = Field(DEFAULT_MAX_PAGES, ge=1, le=MAX_PAGES_MAX)


class LlmOptions(_RequestModel):
    """LLM assistance settings; ``model`` None means the provider's default model."""

    enabled: StrictBool = False
    provider: Provider = "anthropic"
    model: Annotated[StrictStr | None, Field(min_length=1), AfterValidator(_not_blank)] = None
    include_findings: StrictBool = False
    judgment: StrictBool = Field(
        False,
        exclude_if=is_false,
        description="Also ask the model what only judgment decides (ACT rules: descriptive page "
        "title, headings, links, image names, labels; docs/llm.md, Questions of judgment).",
    )


class CheckOptions(_RequestModel):
    """Which kinds of checks run beyond the static pass (axe-core and our own)."""

    interaction: StrictBool = Field(
        True,
        description="Use the page after the static pass: keyboard, hover, zoom and reflow, "
        "language and the rest of docs/interactive-checks.md. Costs a bounded share of each "
        "page's time (README, Interactive checks); false: the audit reads the DOM only.",
    )


def _default_checks(value: CheckOptions) -> bool:
    return value == CheckOptions()


class AuditRequest(_RequestModel):
    """Body of POST /audit."""

    # The rules between fields, in the document too: one screen or several (a schema rule),
    # and those JSON Schema cannot state (x-relations).
    model_config = ConfigDict(json_schema_extra={**ONE_OF_VIEWPORTS, "x-relations": RELATIONS})

    url: AuditUrl
    level: LevelIn = "AA"
    version: WcagVersion = "2.2"
    crawl: CrawlOptions = Field(default_factory=CrawlOptions)
    llm: LlmOptions = Field(default_factory=LlmOptions)
    best_practices: StrictBool = Field(
        False,
        description="Also run axe-core best-practice rules; reported apart, never WCAG findings.",
    )
    auth: AuthOptions | None = Field(
        None, exclude_if=is_none,
        description="Credentials for the audited site (README, Logged-in audits); never echoed.",
    )
    viewport: ViewportOption | None = Field(
        None, exclude_if=is_none,
        description="The screen: desktop (1280x800), mobile (390x844 @3, touch) or a size.",
    )
    viewports: ViewportList | None = Field(
        None, exclude_if=is_none, description="Several screens: each page is audited once per viewport."
    )
    checks: CheckOptions = Field(default_factory=CheckOptions, exclude_if=_default_checks)

    @model_validator(mode="after")
    def _options_agree(self) -> AuditRequest:
        check_request_options(self.url, self.auth, self.viewport, self.viewports, type(self).__name__)
        return self


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


def _is_blank(value: str) -> bool:
    return not value


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
    act_rules: list[str] = Field(
        default_factory=list,
        description="W3C ACT rule ids the rule that produced it implements (README, Checks beyond axe-core).",
    )
    fingerprint: str = Field(
        "",
        description="Stable across runs: the same problem of the same element on the same page "
        "keeps it when selectors change (README, Fingerprints); diffs compare runs by it.",
    )
    viewport: str | None = Field(
        None, exclude_if=is_none,
        description="The viewport it was found at (desktop, mobile, WxH); absent when none was asked.",
    )
    problem: str = Field(
        "", exclude_if=_is_blank,
        description="The problem it belongs to (problems[].id): the same rule on the same component "
        "anywhere in the run, stable across runs (docs/problems.md). Findings and needs-review items only.",
    )
    component: str = Field(
        "", exclude_if=_is_blank,
        description="The component it was found on, as its structure or style reads (docs/problems.md).",
    )

    @field_validator("html")
    @classmethod
    def _clip_html(cls, value: str) -> str:
        return clip(value)


class Finding(_Located):
    """One WCAG rule failing on one element."""

    id: str
    level: WcagLevel
    success_criteria: list[str] = Field(default_factory=list)
    source: Literal["axe", "a11y", "llm"] = Field(
        "axe", description="Which engine decided: axe-core, a check of a11y's own (a11y-…), or the LLM."
    )
    llm: FindingReview | None = None


class NeedsReviewItem(_Located):
    """An element axe-core could not decide for a WCAG rule; never breaks conformance."""

    id: str = Field(description="r1, r2, ... unique within the result.")
    level: WcagLevel
    success_criteria: list[str] = Field(default_factory=list)
    reason: str = Field(description="Why axe could not decide (its check messages).")
    source: Literal["axe", "a11y", "llm"] = Field("axe", description="Which engine could not decide.")
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


class InteractionSkip(_ResultModel):
    """An interactive check that did not run to its end on a page, and why: ``budget`` (the
    page's interaction time ran out), ``navigated`` (an action left the page, which was then
    loaded again), ``unresponsive`` (the page stopped answering), ``failed`` (the check met
    something it cannot handle), ``unsupported`` (its rule applies, but it cannot act on the
    page as the audit is set up). What it found before stopping is kept."""

    rule_id: str
    reason: Literal["budget", "navigated", "unresponsive", "failed", "unsupported"]
    message: str


class InteractionInfo(_ResultModel):
    """What the interaction phase did on a page (README, Interactive checks)."""

    ran: list[str] = Field(default_factory=list, description="Interactive checks that ran to their end.")
    skipped: list[InteractionSkip] = Field(default_factory=list)
    blocked_submissions: int = Field(
        0, ge=0, description="Form submissions the checks' actions set off, stopped before they left the page."
    )


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
    interaction: InteractionInfo | None = Field(
        None, exclude_if=is_none, description="The interaction phase on this page; absent when it was off."
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
    problems: list[Problem] = Field(
        default_factory=list,
        description="Findings and needs-review items grouped into problems, in priority order "
        "(docs/problems.md).",
    )

    @field_validator("score")
    @classmethod
    def _one_decimal(cls, value: float) -> float:
        return _round_score(value)

    # The Python API's conveniences (docs/python-api.md): thin calls into the report and
    # diff modules, imported on use (they import this module).

    def to_sarif(self, baseline: AuditResult | None = None) -> str:
        """This result as SARIF 2.1.0 (:mod:`audit.reports.sarif`); with ``baseline``, each
        result carries its ``baselineState``."""
        from .reports.sarif import render_sarif

        return render_sarif(self, baseline)

    def to_junit(self) -> str:
        """This result as JUnit XML (:mod:`audit.reports.junit`)."""
        from .reports.junit import render_junit

        return render_junit(self)

    def diff(self, baseline: AuditResult | Sequence[AuditResult]) -> Diff[Finding]:
        """This result's findings against a baseline's (one result or several, pooled), by
        fingerprint: an :class:`audit.diff.Diff` with ``new``, ``fixed`` and ``unchanged``."""
        from .diff import diff_items

        earlier = [baseline] if isinstance(baseline, AuditResult) else list(baseline)
        return diff_items(self.findings, [item for result in earlier for item in result.findings])


# --------------------------------------------------------------------------- health


class BrowserInfo(_ResultModel):
    connected: bool
    version: str | None = None


class CapacityInfo(_ResultModel):
    concurrency: int = Field(ge=1, description="Audits the service runs at once (--concurrency).")
    cpus: int = Field(ge=1, description="CPU cores this process may use.")
    warning: str | None = Field(None, description="Set when concurrency exceeds the cores.")


class HealthStatus(_ResultModel):
    """Body of GET /health: ``healthy`` (200), ``degraded`` (200: audits answer, but the run
    store or the page queue does not) or ``unhealthy`` with a reason (503: no browser)."""

    status: Literal["healthy", "degraded", "unhealthy"] = "healthy"
    version: str = Field(default_factory=package_version)
    browser: BrowserInfo | None = None
    reason: str | None = None
    capacity: CapacityInfo | None = None
    dependencies: dict[Literal["browser", "store", "queue"], Literal["ok", "unavailable", "full"]] | None = Field(
        None,
        description="Each server the service depends on, as it answers now: the browser, the "
        "run store (full: an embedded store's disk is nearly full) and the page queue.",
    )


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
