"""HAR 1.2 from the requests a tab recorded (``Tab.requests``).

The recorder keeps CDP timestamps, which are monotonic seconds; ``wall_offset``
turns them into wall-clock time for ``startedDateTime``. Fields the recorder
does not know (cookies, header sizes, detailed timings) carry HAR's "unknown"
values (empty lists, -1). Two custom fields, ``_request_id`` (the id
cdp_get_response_body takes) and ``_resource_type``, are added per entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from .tab import RequestRecord


def _iso(wall: float) -> str:
    return datetime.fromtimestamp(wall, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _headers(headers: dict[str, Any]) -> list[dict[str, str]]:
    out = []
    for name, value in headers.items():
        # CDP joins repeated headers with newlines; HAR lists each.
        for part in str(value).split("\n"):
            out.append({"name": str(name), "value": part})
    return out


def _header(headers: dict[str, Any], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return str(value)
    return ""


def entry(record: RequestRecord, wall_offset: float, page_id: str | None = None) -> dict[str, Any]:
    total_ms = max(0.0, ((record.finished or record.started) - record.started) * 1000)
    request: dict[str, Any] = {
        "method": record.method,
        "url": record.url,
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": _headers(record.request_headers),
        "queryString": [{"name": k, "value": v} for k, v in parse_qsl(urlsplit(record.url).query, keep_blank_values=True)],
        "headersSize": -1,
        "bodySize": len(record.post_data.encode()) if record.post_data else 0,
    }
    if record.post_data is not None:
        request["postData"] = {"mimeType": _header(record.request_headers, "content-type"), "text": record.post_data}
    response = {
        "status": record.status,
        "statusText": record.status_text or (record.error_text or ""),
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": _headers(record.response_headers),
        "content": {"size": record.response_size, "mimeType": record.mime_type or "x-unknown"},
        "redirectURL": _header(record.response_headers, "location"),
        "headersSize": -1,
        "bodySize": record.response_size if record.finished is not None and not record.failed else -1,
    }
    item: dict[str, Any] = {
        "startedDateTime": _iso(record.started + wall_offset),
        "time": round(total_ms, 3),
        "request": request,
        "response": response,
        "cache": {},
        "timings": {"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0,
                    "wait": round(total_ms, 3), "receive": 0},
        "_request_id": record.request_id,
        "_resource_type": record.resource_type,
    }
    if record.failed:
        item["_error"] = record.error_text or "failed"
    if page_id:
        item["pageref"] = page_id
    return item


def build(records: Iterable[RequestRecord], wall_offset: float, *, title: str = "", creator_version: str = "") -> dict[str, Any]:
    """A HAR log with one page (the recording) holding every entry, oldest first."""
    ordered = sorted(records, key=lambda r: r.started)
    page_id = "page_1"
    started = (ordered[0].started + wall_offset) if ordered else None
    pages = [{
        "startedDateTime": _iso(started) if started else _iso(datetime.now(UTC).timestamp()),
        "id": page_id, "title": title or "recording", "pageTimings": {},
    }]
    return {"log": {
        "version": "1.2",
        "creator": {"name": "a11y", "version": creator_version or "0"},
        "pages": pages,
        "entries": [entry(r, wall_offset, page_id) for r in ordered],
    }}
