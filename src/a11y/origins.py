"""A site named by its origin, as the service's ``/sites/{site}`` paths and ``a11y token create
--site`` take it: the pattern the OpenAPI document states, and the one parse both apply, so
that a token's sites and a path's site are the very strings runs store (``runs.site``,
:func:`jobs.ids.site_of`). Apart from the service so the CLI can use it without loading the
HTTP stack."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from jobs.ids import site_of

_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_H16 = "[0-9A-Fa-f]{1,4}"
_IPV6 = "|".join([
    f"(?:{_H16}:){{7}}{_H16}", f"(?:{_H16}:){{1,7}}:", f"(?:{_H16}:){{1,6}}:{_H16}",
    *(f"(?:{_H16}:){{1,{5 - n}}}(?::{_H16}){{1,{n + 2}}}" for n in range(4)),
    f"{_H16}:(?::{_H16}){{1,6}}", f":(?:(?::{_H16}){{1,7}}|:)",
])
_PORT = "6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}"
#: A site: an http(s) origin, ``scheme://host[:port]`` (a trailing slash, and the slashes
#: after the scheme merged by a proxy or left out by a client, tolerated). The document
#: states it and :func:`parse_origin` applies this very pattern first, so both refuse the
#: same strings.
SITE_PATTERN = (
    f"^[Hh][Tt][Tt][Pp][Ss]?:/*(?:{_LABEL}(?:\\.{_LABEL})*|\\[(?:{_IPV6})\\])(?::(?:{_PORT}))?/?$"
)
#: What :func:`parse_origin`'s ``ValueError`` says.
SITE_RULE = "Must be an http(s) origin, scheme://host[:port]"

_SITE = re.compile(SITE_PATTERN[1:-1])
# A proxy (or the router) may have merged the two slashes of a decoded "http://".
_MERGED_SLASHES = re.compile(r"^(https?):/*", re.IGNORECASE)


def parse_origin(raw: str) -> str:
    """The site ``raw`` names, as runs store it (scheme and host lower-cased, a default port
    dropped); ``ValueError`` unless it is an http(s) origin and nothing more."""
    bad = ValueError(f"{SITE_RULE}, not {raw!r}")
    if not _SITE.fullmatch(raw):
        raise bad
    text = _MERGED_SLASHES.sub(lambda m: f"{m.group(1)}://", raw)
    try:
        parts = urlsplit(text)
        site = site_of(text)
    except ValueError:
        raise bad from None
    if parts.path not in ("", "/") or parts.query or parts.fragment or "@" in parts.netloc:
        raise bad
    return site
