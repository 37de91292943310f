"""Typed answers while a server behind the service is down or full.

The runs' store (SQLite or PostgreSQL) and the page queue (Redis) can fail under any request.
Such a failure is not the client's fault and not a bug of ours, and the client should hear
which it is and when to try again: ``503 store_unavailable`` or ``503 queue_unavailable``
with ``Retry-After``, and ``507 insufficient_storage`` when the store has no room left to
write. Anything else stays the generic ``500 internal_error``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from quart import Response

from jobs.queue import QueueUnavailable
from jobs.store import StoreFull, StoreUnavailable

from .replies import error_response

#: Seconds a client is asked to wait before trying again after a 503 of an outage.
RETRY_AFTER_S = 5
#: The codes these answers use, for the OpenAPI document and its tests.
OUTAGE_CODES = {
    "store_unavailable": 503,
    "queue_unavailable": 503,
    "insufficient_storage": 507,
}


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    """The exception itself, or every exception inside a group (a nursery's)."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from _leaves(inner)
    else:
        yield exc


def outage_response(exc: BaseException) -> Response | None:
    """The typed answer when ``exc`` is (or a group holds) an outage of the store or the
    queue; None for anything else."""
    retry = {"Retry-After": str(RETRY_AFTER_S)}
    for leaf in _leaves(exc):
        if isinstance(leaf, StoreFull):
            return error_response(507, "insufficient_storage",
                                  "The run store has no room left to write; nothing was changed.")
        if isinstance(leaf, StoreUnavailable):
            return error_response(503, "store_unavailable",
                                  "The run store cannot be reached just now; try again shortly.",
                                  headers=retry)
        if isinstance(leaf, QueueUnavailable):
            return error_response(503, "queue_unavailable",
                                  "The page queue cannot be reached just now; try again shortly.",
                                  headers=retry)
    return None


def with_outage_answers(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (an OpenAPI document, changed in place and returned) with the outage
    answers on every operation that reads or writes runs or looks up a token: 503 on each,
    507 on those that write."""
    body = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    unavailable = {
        "description": "store_unavailable or queue_unavailable: the run store or the page queue "
        "cannot be reached just now; retry after the Retry-After header.",
        "content": body,
        "headers": {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}},
    }
    full = {"description": "insufficient_storage: the run store has no room left to write.", "content": body}
    for path, operations in document["paths"].items():
        if not path.startswith(("/audits", "/sites", "/auth")):  # /auth: the token's lookup
            continue
        for method, operation in operations.items():
            operation["responses"].setdefault("503", unavailable)
            if method in ("post", "put", "delete"):
                operation["responses"].setdefault("507", full)
    return document
