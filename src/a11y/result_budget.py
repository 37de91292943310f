"""What one tool result may cost an agent: a hard budget on its size, and no second copy.

A tool result reaches the model twice when it is sent both as structured content and as the
same JSON in a text block, and a page can make a result as large as it likes (``js_evaluate``
of a 50 MB string sent about 105 MB and wedged the official Python client for minutes). So:

- The data is cut to ``max_chars`` of JSON (``ServerConfig.max_result_chars``, about 1 MB
  unless ``--max-result-size`` says otherwise) by shortening its longest strings, each cut one
  marked where it was cut (the data keeps its shape, so it still matches the tool's output
  schema); the result's ``_meta`` says it was truncated and how large it was.
- A small result's text block is the JSON itself (clients that read only text keep working);
  a large one's text is a short note and a preview, the data being in the structured content.
- A client that reads structured content gets the JSON once: its text block is one line
  saying where the data is (:func:`pointer`). Neither protocol era (2025-11-25, 2026-07-28)
  gives a client a capability to say that it reads structured content, and the specification
  asks a server to send the JSON as text too "for backwards compatibility", which agents that
  hand the model only the text blocks rely on (a pointer would leave them blind). So the JSON
  is sent twice by default, in either era, and once when the client advertises the extension
  :data:`READS_STRUCTURED` in its capabilities (``extensions``, or ``experimental`` in the
  handshake era) or the server was started with ``--structured-only``
  (``ServerConfig.structured_only``). An error result has no structured content: its text is
  always the JSON.
"""

from __future__ import annotations

import json
from typing import Any

#: The extension identifier a client advertises to say it reads ``structuredContent``: our
#: own (no MCP revision has one), e.g. ``mcp.client.advertise(READS_STRUCTURED)``.
READS_STRUCTURED = "a11y/structured-content"
#: Results up to this size carry their JSON in the text block as well.
FULL_TEXT_CHARS = 16_000
PREVIEW_CHARS = 2_000
_CUT = "…[truncated {} characters]"


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _capped(value: Any, cap: int) -> Any:
    """A copy of ``value`` whose strings longer than ``cap`` end, marked, at ``cap``."""
    if isinstance(value, str):
        return value if len(value) <= cap else value[:cap] + _CUT.format(len(value) - cap)
    if isinstance(value, dict):
        return {key: _capped(child, cap) for key, child in value.items()}
    if isinstance(value, list):
        return [_capped(child, cap) for child in value]
    return value


def _longest(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return max((_longest(child) for child in children), default=0)


def fit(data: Any, max_chars: int) -> tuple[Any, int | None]:
    """``data`` within ``max_chars`` of JSON, and its size before when it was cut (None when
    it fitted). Only strings are shortened: every string is kept up to the longest common
    length that fits (found by bisection), so short fields stay whole and long ones keep
    their start. A shape too large even with empty strings is returned with them empty."""
    size = len(dumps(data))
    if size <= max_chars:
        return data, None
    low, high, best = 0, _longest(data), None
    while low <= high:
        cap = (low + high) // 2
        candidate = _capped(data, cap)
        if len(dumps(candidate)) <= max_chars:
            best, low = candidate, cap + 1
        else:
            high = cap - 1
    return (best if best is not None else _capped(data, 0)), size


def reads_structured(ctx: Any, structured_only: bool) -> bool:
    """Whether the client of this request reads structured content: the server says so for
    everyone (``structured_only``), or the client advertised :data:`READS_STRUCTURED` (the
    SDK keeps a handshake-era client's capabilities on its session, and builds a 2026-07-28
    request's from its envelope, so ``ctx.session`` has them in either era)."""
    if structured_only:
        return True
    capabilities = getattr(getattr(ctx, "session", None), "client_capabilities", None)
    return any(isinstance(group, dict) and READS_STRUCTURED in group
               for group in (getattr(capabilities, "extensions", None), getattr(capabilities, "experimental", None)))


def pointer(data: Any) -> str:
    """The text block for a client that reads structured content: one line naming the fields
    the structured content holds, none of their values."""
    if not isinstance(data, dict):
        return "The result is in the structured content."
    names = list(data)
    shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
    return f"The result is in the structured content: {{{shown}}}."


def text_for(data: Any, text: str, original_size: int | None, *, structured_only: bool = False) -> str:
    """The text block: a pointer for a client that reads structured content (``structured_only``),
    else the JSON when small, else a note and a preview."""
    if structured_only:
        return pointer(data)
    if len(text) <= FULL_TEXT_CHARS and original_size is None:
        return text
    note = (f"The full result ({len(text):,} characters of JSON"
            + (f", cut from {original_size:,}" if original_size is not None else "")
            + ") is in the structured content; its start:\n")
    return note + text[:PREVIEW_CHARS]
