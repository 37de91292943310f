"""What a request may add to the pages it audits: credentials (``auth``) and the screen they
are seen on (``viewport`` / ``viewports``), as strict request models.

Every request model shares :class:`RequestModel`: JSON (camelCase) names only, unknown fields
refused, no coercion, and the input never echoed in a ``ValidationError``'s text (a request
carries cookies, tokens and passwords; only the field and a sentence leave this module).

``auth`` is secret as a whole: its values are never shown. ``repr`` of an :class:`AuthOptions`
counts what it holds, errors name fields and header names but never a value, and
:meth:`AuthOptions.secrets` lists what an error message must not contain
(:func:`redact`). Where the credentials go (only to the audited site) is decided by
:mod:`audit.auth`; which screens exist is decided here (:data:`PRESETS`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)
from pydantic.alias_generators import to_camel
from pydantic_core import InitErrorDetails, PydanticCustomError


def _integral(value: Any) -> Any:
    """JSON has one number type: to a JSON Schema validator (and to JavaScript) ``4.0`` is
    the integer 4, so the server takes it as 4, and the document means what it says; ``4.5``
    and ``true`` stay refused."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: An integer field as JSON Schema defines one (see ``_integral``).
JsonInt = Annotated[StrictInt, BeforeValidator(_integral)]

class RequestModel(BaseModel):
    """Request bodies: JSON names only, unknown fields rejected, input kept out of errors."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=to_camel,
        validate_by_alias=True,
        validate_by_name=False,
        serialize_by_alias=True,
        hide_input_in_errors=True,
    )


def is_none(value: Any) -> bool:
    """For ``Field(exclude_if=...)``: an optional field left out is left out of the dump too,
    so bodies that do not use it read as they did before it existed."""
    return value is None


def is_false(value: Any) -> bool:
    """For ``Field(exclude_if=...)``: a switch added to the spec's shape, left at off, is left
    out of the dump, for the same reason as :func:`is_none`."""
    return value is False


# --------------------------------------------------------------------------- cookies

MAX_COOKIES = 50
MAX_STATE_COOKIES = 300
MAX_HEADERS = 50
MAX_STATE_ORIGINS = 50
MAX_STORAGE_ITEMS = 500
MAX_LOGIN_STEPS = 50
MAX_VALUE_LENGTH = 8192

# RFC 7230 ``tchar``: the characters of a header name (and of a cookie name, RFC 6265).
_TOKEN_RE = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_HOST_RE = re.compile(r"\.?[A-Za-z0-9]([A-Za-z0-9\-._]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]")


def _token(kind: str) -> Any:
    def check(value: str) -> str:
        if not _TOKEN_RE.fullmatch(value):
            raise PydanticCustomError(
                "token", f"A {kind} name is letters, digits and !#$%&'*+-.^_`|~ only."
            )
        return value

    return AfterValidator(check)


def _no_control(value: str) -> str:
    if _CONTROL_RE.search(value):
        raise PydanticCustomError(
            "control_characters", "Must not contain line breaks or other control characters."
        )
    return value


def _cookie_value(value: str) -> str:
    _no_control(value)
    if ";" in value:
        raise PydanticCustomError("cookie_value", "A cookie value must not contain ';'.")
    return value


def _host(value: str) -> str:
    if not _HOST_RE.fullmatch(value):
        raise PydanticCustomError("cookie_domain", "Must be a host name such as example.org or .example.org.")
    return value.lower()


def _path(value: str) -> str:
    _no_control(value)
    if not value.startswith("/") or ";" in value:
        raise PydanticCustomError("cookie_path", "Must start with '/' and contain no ';'.")
    return value


def _http_url(value: str) -> str:
    _no_control(value)
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PydanticCustomError("url_scheme", "Must be an absolute http:// or https:// URL.")
    return value


HttpUrlText = Annotated[StrictStr, Field(min_length=1, max_length=2048), AfterValidator(_http_url)]


class PartitionKey(RequestModel):
    """A partitioned (CHIPS) cookie's key, as ``Storage.getCookies`` reports it."""

    top_level_site: StrictStr = Field(max_length=2048)
    has_cross_site_ancestor: StrictBool = False


class CookieOption(RequestModel):
    """A cookie to set before the first page loads, shaped like CDP's ``CookieParam``.

    Without ``url`` and ``domain`` it is a host-only cookie of the audited URL's host; either
    must name that host (or, for ``domain``, a parent of it): cookies go to the audited site
    only. ``expires`` is seconds since the epoch (``-1`` or absent: a session cookie).
    """

    name: Annotated[StrictStr, Field(min_length=1, max_length=256), _token("cookie")]
    value: Annotated[StrictStr, Field(max_length=MAX_VALUE_LENGTH), AfterValidator(_cookie_value)]
    url: HttpUrlText | None = None
    domain: Annotated[StrictStr, Field(min_length=1, max_length=253), AfterValidator(_host)] | None = None
    path: Annotated[StrictStr, Field(max_length=1024), AfterValidator(_path)] | None = None
    secure: StrictBool | None = None
    http_only: StrictBool | None = None
    same_site: Literal["Strict", "Lax", "None"] | None = None
    expires: StrictFloat | None = Field(None, ge=-1)
    #: What ``storage_get_state`` says of a cookie without expiry.
    session: StrictBool | None = None
    partition_key: PartitionKey | None = None

    @model_validator(mode="after")
    def _browser_rules(self) -> CookieOption:
        """What Chromium would refuse anyway, said up front and at the field."""
        if self.same_site == "None" and not self.secure:
            raise PydanticCustomError("cookie_same_site", "sameSite 'None' needs secure: true.")
        if self.name.startswith(("__Secure-", "__Host-")) and not self.secure:
            raise PydanticCustomError("cookie_prefix", "A __Secure- or __Host- cookie needs secure: true.")
        if self.name.startswith("__Host-") and (self.domain or (self.path or "/") != "/"):
            raise PydanticCustomError("cookie_prefix", "A __Host- cookie has no domain and path '/'.")
        return self

    def as_dict(self, default_url: str) -> dict[str, Any]:
        """The cookie's JSON fields; a cookie naming no site is given ``default_url``'s host,
        and path ``/`` rather than that URL's directory."""
        data = self.model_dump(exclude_none=True)
        if not self.url and not self.domain:
            data["url"] = default_url
            data.setdefault("path", "/")
        return data


# --------------------------------------------------------------------------- headers

#: Headers the network stack owns, or that would bypass the cookie rules: refused by name.
FORBIDDEN_HEADERS = frozenset({
    "host", "content-length", "connection", "keep-alive", "transfer-encoding", "upgrade", "te",
    "trailer", "expect", "cookie",
})
_FORBIDDEN_PREFIXES = ("proxy-", "sec-")


def _header_names(headers: dict[str, str]) -> dict[str, str]:
    seen: set[str] = set()
    for name in headers:
        lower = name.lower()
        if not _TOKEN_RE.fullmatch(name) or len(name) > 256:
            raise PydanticCustomError(
                "header_name", "Header names are letters, digits and !#$%&'*+-.^_`|~ only."
            )
        if lower == "cookie":
            raise PydanticCustomError("header_name", "Send cookies with auth.cookies, not a Cookie header.")
        if lower in FORBIDDEN_HEADERS or lower.startswith(_FORBIDDEN_PREFIXES):
            raise PydanticCustomError(
                "header_name", "Header '{name}' is set by the browser and cannot be given.", {"name": name}
            )
        if lower in seen:
            raise PydanticCustomError("header_name", "Header '{name}' is given twice.", {"name": name})
        seen.add(lower)
    return headers


HeaderValue = Annotated[StrictStr, Field(max_length=MAX_VALUE_LENGTH), AfterValidator(_no_control)]
HeaderMap = Annotated[
    dict[StrictStr, HeaderValue], Field(max_length=MAX_HEADERS), AfterValidator(_header_names)
]


# --------------------------------------------------------------------------- storage state


def _origin(value: str) -> str:
    """``scheme://host[:port]`` of an http(s) origin, default port dropped."""
    origin = site_origin(value)
    parts = urlsplit(value)
    if origin is None or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise PydanticCustomError("origin", "Must be an http(s) origin such as https://example.org.")
    return origin


def _items(value: Any) -> Any:
    """Also take Playwright's ``[{name, value}]`` lists, as ``storage_set_state`` does."""
    if isinstance(value, list) and all(isinstance(i, dict) and set(i) == {"name", "value"} for i in value):
        return {i["name"]: i["value"] for i in value}
    return value


StorageItems = Annotated[
    dict[StrictStr, StrictStr], BeforeValidator(_items), Field(max_length=MAX_STORAGE_ITEMS)
]


class StorageOrigin(RequestModel):
    """One origin's web storage; ``sessionStorage`` is filled in each tab the audit opens."""

    origin: Annotated[StrictStr, Field(max_length=2048), AfterValidator(_origin)]
    local_storage: StorageItems = Field(default_factory=dict)
    session_storage: StorageItems = Field(default_factory=dict)


def _state_json(value: Any) -> Any:
    """The ``state`` string of ``storage_get_state`` is taken as well as its object."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            raise PydanticCustomError("json_invalid", "Must be a JSON object (or its text).") from None
    return value


class StorageStateOption(RequestModel):
    """What ``storage_get_state`` returns: the context's cookies and per-origin web storage.
    Only the audited site's part is applied (see :mod:`audit.auth`)."""

    cookies: list[CookieOption] = Field(default_factory=list, max_length=MAX_STATE_COOKIES)
    origins: list[StorageOrigin] = Field(default_factory=list, max_length=MAX_STATE_ORIGINS)


# --------------------------------------------------------------------------- login

#: The tools a login step may run: page actions and waits of ``batch_execute``, nothing that
#: reads or writes files, opens tabs or fetches from the server process.
LOGIN_TOOLS = (
    "page_navigate", "page_reload", "page_go_back", "page_go_forward", "page_get_url",
    "page_get_title", "wait_for_selector", "wait_for_load", "element_click", "element_double_click",
    "element_fill", "element_fill_form", "element_type", "element_press", "element_select",
    "element_check", "element_uncheck", "element_clear", "element_focus", "element_hover",
    "element_tap", "element_scroll_into_view", "input_keyboard_press", "input_keyboard_type",
    "input_mouse_click", "dialog_handle", "frame_select", "frame_select_main", "js_evaluate",
)
LoginTool = Literal[LOGIN_TOOLS]  # type: ignore[valid-type]


class LoginStep(RequestModel):
    """One step as ``record_export`` writes it: ``{tool, args}``; the tool checks ``args``."""

    tool: LoginTool
    args: dict[StrictStr, Any] = Field(default_factory=dict)


# --------------------------------------------------------------------------- auth


class AuthOptions(RequestModel):
    """Credentials for the audited site: cookies, extra headers, a storage state and login
    steps, applied in that order before the first page loads (:mod:`audit.auth`)."""

    cookies: list[CookieOption] = Field(default_factory=list, max_length=MAX_COOKIES)
    headers: HeaderMap = Field(
        default_factory=dict,
        description="Sent with every request to the audited URL's origin, never to another.",
    )
    storage_state: Annotated[
        StorageStateOption, BeforeValidator(_state_json, json_schema_input_type=StorageStateOption | str)
    ] | None = Field(
        None, description="storage_get_state's output (or its `state` string)."
    )
    login: list[LoginStep] = Field(
        default_factory=list,
        max_length=MAX_LOGIN_STEPS,
        description="record_export's steps, run once per audit in its browser context.",
    )

    def __repr_args__(self) -> Iterator[tuple[str, Any]]:
        """Counts only: a request is logged and shown, its credentials never are."""
        yield "cookies", len(self.cookies)
        yield "headers", sorted(self.headers)
        yield "storage_state", self.storage_state is not None
        yield "login", [step.tool for step in self.login]

    def secrets(self) -> list[str]:
        """Every value an error message must not contain, longest first: cookie, header and
        storage values (and a header's value after its first word), and the string arguments
        of login steps (except locators)."""
        found: set[str] = {c.value for c in self.cookies} | set(self.headers.values())
        # "Bearer <token>": the credential after the scheme too, as a message may quote it.
        found |= {part for value in self.headers.values() for part in value.split()[1:]}
        if self.storage_state is not None:
            found |= {c.value for c in self.storage_state.cookies}
            for origin in self.storage_state.origins:
                found |= {*origin.local_storage.values(), *origin.session_storage.values()}
        for step in self.login:
            found |= set(_argument_strings(step.args))
        return sorted((s for s in found if s), key=len, reverse=True)


#: Login arguments that say where to act, never what to type: kept in error messages.
_LOCATOR_ARGUMENTS = frozenset({
    "selector", "role", "label", "placeholder", "testid", "alt", "title", "xpath", "wait_until", "state",
    "button", "timeout_ms",
})


def _argument_strings(value: Any, key: str = "") -> Iterator[str]:
    if isinstance(value, str) and key not in _LOCATOR_ARGUMENTS:
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _argument_strings(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _argument_strings(v, key)


def redact(text: str, secrets: list[str]) -> str:
    """``text`` with every secret (longest first, as :meth:`AuthOptions.secrets` gives them)
    replaced by ``[redacted]``."""
    for secret in secrets:
        text = text.replace(secret, "[redacted]")
    return text


# --------------------------------------------------------------------------- viewports

VIEWPORT_WIDTH = (240, 3840)
VIEWPORT_HEIGHT = (240, 4320)
DEVICE_SCALE_FACTOR = (0.5, 4.0)
MAX_VIEWPORTS = 4


@dataclass(frozen=True)
class Viewport:
    """A screen a page is audited on; ``label`` tags what was found on it."""

    label: str
    width: int
    height: int
    device_scale_factor: float = 1.0
    #: A phone: touch, the mobile user agent, and the page's viewport meta tag honoured.
    mobile: bool = False


PRESETS = {
    "desktop": Viewport("desktop", 1280, 800, 1.0, False),
    "mobile": Viewport("mobile", 390, 844, 3.0, True),
}
ViewportName = Literal["desktop", "mobile"]


class ViewportSize(RequestModel):
    """A screen of its own: CSS pixels, device pixels per CSS pixel, phone or not."""

    width: JsonInt = Field(ge=VIEWPORT_WIDTH[0], le=VIEWPORT_WIDTH[1])
    height: JsonInt = Field(ge=VIEWPORT_HEIGHT[0], le=VIEWPORT_HEIGHT[1])
    device_scale_factor: StrictFloat = Field(1.0, ge=DEVICE_SCALE_FACTOR[0], le=DEVICE_SCALE_FACTOR[1])
    mobile: StrictBool = False


_SIZE_OBJECT = "an object with width, height, deviceScaleFactor and mobile."


def _one_viewport(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """A preset's name or a size, each reported at the field itself (not per union branch)."""
    if isinstance(value, str):
        if value not in PRESETS:
            raise PydanticCustomError(
                "viewport_name", "Unknown viewport '{name}'; use 'desktop', 'mobile' or " + _SIZE_OBJECT,
                {"name": value[:40]},
            )
        return value
    if isinstance(value, dict):
        return ViewportSize.model_validate(value)
    if isinstance(value, ViewportSize):
        return value
    raise PydanticCustomError(
        "viewport_type", "Must be 'desktop', 'mobile' or " + _SIZE_OBJECT
    )


ViewportOption = Annotated[ViewportName | ViewportSize, WrapValidator(_one_viewport)]
ViewportList = Annotated[
    list[ViewportOption], Field(min_length=1, max_length=MAX_VIEWPORTS, json_schema_extra={"uniqueItems": True})
]


#: Rules that relate one field's value to another's, which JSON Schema cannot state: the
#: OpenAPI document lists them on the request body (``x-relations``, with the field each
#: is reported at), and a refusal by one of them names that field.
COOKIE_DOMAIN_RULE = "Must be the audited URL's host or a parent domain of it."
COOKIE_URL_RULE = "Must be on the audited URL's host."
RELATIONS = [
    {"field": "auth.cookies[].domain", "rule": COOKIE_DOMAIN_RULE},
    {"field": "auth.cookies[].url", "rule": COOKIE_URL_RULE},
]
#: One screen or several, never both (the schema says so with ``not``).
ONE_OF_VIEWPORTS = {"not": {"required": ["viewport", "viewports"]}}


def resolve_viewport(option: str | ViewportSize) -> Viewport:
    if isinstance(option, str):
        return PRESETS[option]
    label = f"{option.width}x{option.height}"
    if option.device_scale_factor != 1:
        label += f"@{option.device_scale_factor:g}"
    if option.mobile:
        label += "-mobile"
    return Viewport(label, option.width, option.height, option.device_scale_factor, option.mobile)


def requested_viewports(
    viewport: str | ViewportSize | None, viewports: list[str | ViewportSize] | None
) -> list[Viewport] | None:
    """The screens a request names, in order; None when it names none (the browser's own
    window, 1280x800, untouched and items left untagged)."""
    if viewports:
        screens: dict[str, Viewport] = {}
        for resolved in map(resolve_viewport, viewports):
            screens.setdefault(resolved.label, resolved)  # each screen once, where first named
        return list(screens.values())
    if viewport is not None:
        return [resolve_viewport(viewport)]
    return None


# --------------------------------------------------------------------------- the request as a whole


def site_origin(url: str) -> str | None:
    """``scheme://host[:port]`` of an http(s) URL (default port dropped), else None: the
    audited site, the only one credentials are sent to."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != default else "")


def domain_matches(host: str, domain: str) -> bool:
    """RFC 6265 domain-match: ``host`` is ``domain`` or a subdomain of it."""
    host, domain = host.lower(), domain.lower().lstrip(".")
    return host == domain or host.endswith("." + domain)


def check_request_options(
    url: str,
    auth: AuthOptions | None,
    viewport: Any,
    viewports: list[Any] | None,
    model: str = "AuditRequest",
) -> None:
    """The rules between fields: one of ``viewport``/``viewports``, no screen twice, and
    cookies only for the audited host. Raises a ``ValidationError`` naming each field."""
    problems: list[InitErrorDetails] = []

    def problem(loc: tuple[str | int, ...], code: str, message: str) -> None:
        problems.append(InitErrorDetails(type=PydanticCustomError(code, message), loc=loc, input=None))

    if viewport is not None and viewports is not None:
        problem(("viewports",), "viewport_exclusive", "Give either viewport or viewports, not both.")
    # The same item twice is refused, as the document's uniqueItems says (JSON equality: 390
    # and 390.0 are one number, an absent default differs from one given); two items that
    # only come to the same screen are audited once (requested_viewports).
    seen: set[Any] = set()
    for index, option in enumerate(viewports or []):
        key = option if isinstance(option, str) else tuple(
            sorted((name, getattr(option, name)) for name in option.model_fields_set))
        if key in seen:
            problem(("viewports", index), "viewport_duplicate", "This viewport is already listed.")
        seen.add(key)
    host = (urlsplit(url).hostname or "").lower()
    for index, cookie in enumerate(auth.cookies if auth is not None else []):
        if cookie.domain and not domain_matches(host, cookie.domain):
            problem(("auth", "cookies", index, "domain"), "cookie_site", COOKIE_DOMAIN_RULE)
        if cookie.url and (urlsplit(cookie.url).hostname or "").lower() != host:
            problem(("auth", "cookies", index, "url"), "cookie_site", COOKIE_URL_RULE)
    if problems:
        raise ValidationError.from_exception_data(model, problems, hide_input=True)
