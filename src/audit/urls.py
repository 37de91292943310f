"""URL helpers that must be the same everywhere a URL is shown or stored."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit


def without_credentials(url: str) -> str:
    """``url`` with any ``user:password@`` removed, for logs and stored runs.

    A URL that does not parse is returned with everything before the last ``@`` of its
    authority cut, so a malformed URL cannot smuggle a password into a log either.
    """
    try:
        parts = urlsplit(url)
        if "@" not in parts.netloc:
            return url
        host = parts.netloc.rsplit("@", 1)[1]
        return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))
    except ValueError:
        scheme, sep, rest = url.partition("://")
        authority, slash, tail = rest.partition("/")
        if "@" in authority:
            authority = authority.rsplit("@", 1)[1]
        return f"{scheme}{sep}{authority}{slash}{tail}" if sep else url


_USERINFO = re.compile(r"(?<=//)[^/\s@?#]+@")


def scrub_credentials(value: Any) -> Any:
    """``value`` (a string, or lists and dicts of them) with every ``//user:pass@`` cut."""
    if isinstance(value, str):
        return _USERINFO.sub("", value)
    if isinstance(value, list):
        return [scrub_credentials(v) for v in value]
    if isinstance(value, dict):
        return {k: scrub_credentials(v) for k, v in value.items()}
    return value
