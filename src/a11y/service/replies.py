"""The JSON bodies every route answers with, and :class:`Refused`, the answer given before any
work was done. Apart from the handlers so that every module of the service (the handlers,
the principal of a request in :mod:`.auth`, the outage answers) can use them without
importing the others."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from quart import Response

from audit.models import error_body


def json_response(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    response = Response(
        json.dumps(body, ensure_ascii=False, separators=(",", ":")),
        status=status,
        content_type="application/json",
    )
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def error_response(
    status: int,
    code: str,
    message: str,
    details: list[dict[str, Any]] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    return json_response(error_body(code, message, details), status, headers)


class Refused(Exception):
    """A request answered with an error before any work was done for it."""

    def __init__(self, status: int, code: str, message: str,
                 details: list[dict[str, Any]] | None = None,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.response = error_response(status, code, message, details, headers)
