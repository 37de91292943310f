"""Server-Sent Events framing (the ``text/event-stream`` format of the HTML standard).

An event is ``id:``, ``event:`` and one ``data:`` line, ended by a blank line. The data is
JSON written on one line (``json.dumps`` escapes every newline inside strings), so a payload
can never end an event early or forge a field. The event type and comments are not JSON,
so one holding a line break is refused, for the same reason. A line starting with
``:`` is a comment: clients ignore it, proxies see traffic, and a write to a client that has
gone away fails, which is how a quiet stream notices it.
"""

from __future__ import annotations

import json
from typing import Any

CONTENT_TYPE = "text/event-stream; charset=utf-8"
#: Sent with every stream: no cache may keep it, no buffering proxy may hold it back.
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def _one_line(what: str, value: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError(f"an SSE {what} cannot contain a line break: {value!r}")
    return value


def event(event_id: int, event_type: str, data: Any) -> bytes:
    """One event; a client that reconnects sends ``event_id`` back as ``Last-Event-ID``."""
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    event_type = _one_line("event type", event_type)
    return f"id: {event_id}\nevent: {event_type}\ndata: {payload}\n\n".encode()


def comment(text: str) -> bytes:
    """A comment line (a heartbeat): ignored by clients, it keeps the connection busy."""
    return f": {_one_line('comment', text)}\n\n".encode()

