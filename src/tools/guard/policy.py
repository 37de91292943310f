"""The rules of the guard rails and their verdicts on a URL or a connection.

One place decides, so the tool-level check (an agent's ``page_navigate``), the request-level
one (every request the browser makes, :mod:`.requests`) and the connect-level one (every
connection of a guarded context, :mod:`.egress`) can never disagree.

Origin patterns (``--allowed-origins`` / ``--blocked-origins``, comma- or semicolon-separated):

- ``https://example.com``, ``http://127.0.0.1:8080``: that origin (the scheme's default
  port when none is given); ``ws:`` / ``wss:`` URLs are judged as ``http:`` / ``https:``,
  so an allowed site keeps its WebSockets;
- ``https://*.example.com``: any subdomain of example.com (not example.com itself);
- ``example.com``, ``example.com:8080``, ``*.example.com``: that host on http and https,
  on any port unless one is given;
- ``file://`` (allowlist only): let ``file:`` URLs through an allowlist.

With an allowlist, every URL that reaches the network must match it; ``about:``, ``blob:``
and ``data:`` URLs never leave the browser and are judged by ``--no-js-evaluate`` only (the
agent's ``data:`` and ``javascript:`` navigations), other schemes (``chrome:``,
``chrome-extension:``, ``file:``) are refused unless listed. A blocklist wins over the
allowlist.

Standard library only: the server builds this from its command line before the handshake.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

BLOCKED_CODE = "blocked_by_policy"
_DEFAULT_PORTS = {"http": 80, "https": 443}
_AS_HTTP = {"ws": "http", "wss": "https", "http": "http", "https": "https"}
#: Schemes whose URLs never reach the network.
_LOCAL_SCHEMES = frozenset({"about", "blob", "data", "javascript", "filesystem"})
#: Schemes that run the agent's own code when it navigates to them.
_SCRIPT_SCHEMES = frozenset({"data", "javascript"})


@dataclass(frozen=True)
class OriginPattern:
    """One entry of ``--allowed-origins`` or ``--blocked-origins``."""

    text: str
    scheme: str | None  # "http", "https", "file", or None for http and https
    host: str  # lower case; "*" any host, "*.x" any subdomain of x
    port: int | None  # None: any port (no scheme given) or the scheme's default

    @classmethod
    def parse(cls, text: str) -> OriginPattern:
        """``ValueError`` (saying what is wrong) unless ``text`` is a pattern of the syntax above."""
        raw = text.strip()
        if raw.lower() in ("file://", "file:///", "file:"):
            return cls(raw, "file", "", None)
        if "://" in raw:
            scheme_text = raw.split("://", 1)[0].lower()
            scheme = _AS_HTTP.get(scheme_text)
            if scheme is None:
                raise ValueError(f"{raw!r}: only http(s), ws(s) and file:// origins can be listed")
            parts = urlsplit(raw)
        else:
            scheme, parts = None, urlsplit("//" + raw)
        try:
            port = parts.port
        except ValueError:
            raise ValueError(f"{raw!r}: the port is not a number from 0 to 65535") from None
        host = (parts.hostname or "").rstrip(".")
        if not host or parts.path not in ("", "/") or parts.query or parts.fragment or "@" in parts.netloc:
            raise ValueError(f"{raw!r} is not an origin: give scheme://host[:port] or host[:port]")
        if "*" in host and not (host == "*" or (host.startswith("*.") and "*" not in host[2:])):
            raise ValueError(f"{raw!r}: a wildcard may only stand for the whole host or lead it (*.example.com)")
        if port is None and scheme is not None:
            port = _DEFAULT_PORTS[scheme]
        return cls(raw, scheme, host, port)

    def matches(self, scheme: str, host: str, port: int) -> bool:
        """True for an http(s) origin (scheme already mapped from ws/wss) this pattern names."""
        if self.scheme == "file" or (self.scheme is not None and self.scheme != scheme):
            return False
        if self.port is not None and self.port != port:
            return False
        if self.host == "*":
            return True
        if self.host.startswith("*."):
            return host.endswith(self.host[1:])
        return host == self.host


def parse_patterns(values: list[str] | tuple[str, ...] | None) -> tuple[OriginPattern, ...]:
    """Every pattern of the flag's values (each may list several, split by ``,`` or ``;``)."""
    patterns: list[OriginPattern] = []
    for value in values or ():
        for item in value.replace(";", ",").split(","):
            if item.strip():
                patterns.append(OriginPattern.parse(item))
    return tuple(patterns)


@dataclass(frozen=True)
class Refusal:
    """Why a URL (or a connection) is refused: what was asked, its origin, and the rule."""

    url: str
    origin: str
    rule: str  # the flag that refuses it, as typed on the command line
    why: str

    @property
    def message(self) -> str:
        return f"{self.origin} is refused by {self.rule}: {self.why}"


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url`` (ws/wss kept), or its scheme for URLs without one."""
    try:
        parts = urlsplit(url)
        if parts.hostname:
            host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
            port = f":{parts.port}" if parts.port is not None else ""
            return f"{parts.scheme.lower()}://{host}{port}"
    except ValueError:
        pass
    return url.split(":", 1)[0].lower() + ":" if ":" in url else url[:80]


@dataclass(frozen=True)
class GuardConfig:
    """The guard rails a server was started with; the default guards nothing."""

    allowed: tuple[OriginPattern, ...] = ()
    blocked: tuple[OriginPattern, ...] = ()
    no_js_evaluate: bool = False
    block_file_urls: bool = False
    #: ``(name, value)`` pairs of ``--secrets``; their values never appear in a result or a log.
    secrets: tuple[tuple[str, str], ...] = ()
    #: The nonce of the page-text markers (``--content-boundaries``); None when off.
    boundary_nonce: str | None = None
    confirm_actions: bool = False
    #: Seconds a confirmation may wait for its answer before it counts as declined.
    confirm_timeout: float = 120.0

    @property
    def origins_ruled(self) -> bool:
        return bool(self.allowed or self.blocked)

    @property
    def intercepts(self) -> bool:
        """True when every request of the browser is paused and judged (:mod:`.requests`)."""
        return self.origins_ruled or self.block_file_urls or self.confirm_actions

    def url_verdict(self, url: str) -> Refusal | None:
        """The refusal of a request for ``url`` by the browser, or None to let it through."""
        scheme = url.split(":", 1)[0].lower() if ":" in url else ""
        if scheme in _LOCAL_SCHEMES:
            return None
        if scheme == "file":
            return self._file_verdict(url)
        if scheme in _AS_HTTP:
            try:
                parts = urlsplit(url)
                host, port = (parts.hostname or "").rstrip("."), parts.port
            except ValueError:
                return self._refuse(url, "--allowed-origins", "the URL cannot be read") if self.origins_ruled else None
            mapped = _AS_HTTP[scheme]
            return self._origin_verdict(url, mapped, host, port if port is not None else _DEFAULT_PORTS[mapped])
        if self.allowed:
            return self._refuse(url, "--allowed-origins", f"{scheme or 'this'}: URLs are not in the allowlist")
        return None

    def navigation_verdict(self, url: str) -> Refusal | None:
        """The refusal of the agent's own navigation to ``url`` (a tool's ``url`` argument)."""
        scheme = url.split(":", 1)[0].strip().lower() if ":" in url else ""
        if scheme in _SCRIPT_SCHEMES and self.no_js_evaluate:
            return Refusal(url, f"{scheme}:", "--no-js-evaluate", f"{scheme}: URLs run the caller's own code")
        return self.url_verdict(url)

    def connect_allowed(self, host: str, port: int) -> bool:
        """True when a connection to ``host:port`` may be made. The proxy sees no scheme, so it
        errs on the side of refusing: a host and port that a blocked origin names under either
        scheme is refused (a WebSocket, which only the proxy sees, cannot slip past a blocked
        ``https://`` origin as ``wss:``), and with an allowlist one of the two must be allowed."""
        host = host.rstrip(".").lower()
        schemes = ("http", "https")
        if any(p.matches(scheme, host, port) for p in self.blocked for scheme in schemes):
            return False
        return not self.allowed or any(p.matches(scheme, host, port) for p in self.allowed for scheme in schemes)

    def _origin_verdict(self, url: str, scheme: str, host: str, port: int) -> Refusal | None:
        blocked = next((p for p in self.blocked if p.matches(scheme, host, port)), None)
        if blocked is not None:
            return self._refuse(url, "--blocked-origins", f"it matches {blocked.text!r}")
        if self.allowed and not any(p.matches(scheme, host, port) for p in self.allowed):
            return self._refuse(url, "--allowed-origins", "it matches no allowed origin")
        return None

    def _file_verdict(self, url: str) -> Refusal | None:
        if self.block_file_urls:
            return self._refuse(url, "--block-file-urls", "file: URLs are turned off")
        if any(p.scheme == "file" for p in self.blocked):
            return self._refuse(url, "--blocked-origins", "file: URLs are blocked")
        if self.allowed and not any(p.scheme == "file" for p in self.allowed):
            return self._refuse(url, "--allowed-origins", "file: URLs are not in the allowlist")
        return None

    @staticmethod
    def _refuse(url: str, rule: str, why: str) -> Refusal:
        return Refusal(url, origin_of(url), rule, why)
