"""The URL pattern language of test_assert_url and workflow_login's success_url.

One function so both tools read a pattern the same way: a regex when it looks
like one, a glob when it has wildcards, a substring otherwise.
"""

from __future__ import annotations

import fnmatch
import re

from ..errors import ToolError


def url_matches(pattern: str, url: str) -> bool:
    """``/body/flags`` or ``^…``/``…$`` is a regex (searched); ``*`` or ``?`` makes a glob over the
    whole URL (``*`` crosses slashes); anything else matches as a substring."""
    regex = _as_regex(pattern)
    if regex is not None:
        return regex.search(url) is not None
    if "*" in pattern or "?" in pattern:
        return fnmatch.fnmatchcase(url, pattern)
    return pattern in url


def _as_regex(pattern: str) -> re.Pattern[str] | None:
    literal = re.fullmatch(r"/(.+)/([imsx]*)", pattern)
    body, flags = (literal.group(1), literal.group(2)) if literal else (pattern, "")
    if not literal and not pattern.startswith("^") and not pattern.endswith("$"):
        return None
    bits = 0
    for flag in flags:
        bits |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X}[flag]
    try:
        return re.compile(body, bits)
    except re.error as exc:
        raise ToolError("invalid_arguments", f"pattern {pattern!r} is not a valid regex: {exc}") from None
