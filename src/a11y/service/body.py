"""Turn a request body into JSON data, refusing what would cost the server more than it should.

``json.loads`` recurses once per nesting level, so ``[`` × 5000 raises ``RecursionError``
deep inside the parser (and pydantic would recurse again). Nesting is therefore measured
before parsing, in one linear pass over the bytes, and bodies deeper than any valid request
could be are refused as ``invalid_json``. ``NaN``/``Infinity`` are not JSON and are refused too.
"""

from __future__ import annotations

import json
from typing import Any

#: Deeper than any valid request body (the deepest, ``auth.login`` steps, needs about 6).
MAX_DEPTH = 32


class InvalidJson(ValueError):
    """The body is not JSON this service accepts; the message says why, for the caller."""


def nesting_depth(raw: bytes, limit: int = MAX_DEPTH) -> int:
    """The deepest ``[``/``{`` nesting outside strings, counting no further than ``limit + 1``."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def _reject_constant(name: str) -> Any:
    raise InvalidJson(f"{name} is not valid JSON")


def parse_json_body(raw: bytes) -> Any:
    """The JSON value of ``raw``; :class:`InvalidJson` when it is not acceptable JSON."""
    if nesting_depth(raw) > MAX_DEPTH:
        raise InvalidJson(f"it is nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise InvalidJson(str(exc) or type(exc).__name__) from None
