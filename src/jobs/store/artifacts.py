"""Bytes that belong to a run (its findings' screenshots, its pages' thumbnails): the
``artifacts`` table, one row per (run, name).

Kept in the store, not in files, so that every worker of a shared deployment writes them
where the service reads them, and deleting a run deletes them (the foreign key cascades).
Writes replace by name, so a page audited again (a redelivery) leaves one copy of each.
Like ``Store``'s methods these are synchronous, one short transaction each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import delete, func, insert, select

from .database import read_transaction, write_transaction
from .errors import NotFound
from .schema import artifacts, runs, utc_now
from .store import Store

#: An artifact's columns but its bytes, and how many bytes it has.
_DESCRIBED = [
    artifacts.c.name, artifacts.c.media_type, artifacts.c.meta,
    func.length(artifacts.c.data).label("size"), artifacts.c.created_at,
]


class NewArtifact(NamedTuple):
    """An artifact to write (a plain 4-tuple in this order works too)."""

    name: str
    media_type: str
    data: bytes
    meta: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Artifact:
    """A stored artifact; ``data`` is None when only its description was read."""

    name: str
    media_type: str
    meta: dict[str, Any] | None
    size: int
    created_at: datetime
    data: bytes | None = None


def put_artifacts(store: Store, run_id: str, items: Iterable[NewArtifact | tuple[Any, ...]]) -> int:
    """Write (or replace, by name) the run's artifacts; returns how many were written.
    ``NotFound`` when there is no such run."""
    now = utc_now()
    rows = {
        item.name: {"run_id": run_id, "name": item.name, "media_type": item.media_type,
                    "data": bytes(item.data), "meta": None if item.meta is None else dict(item.meta),
                    "created_at": now}
        for item in map(NewArtifact._make, items)
    }
    if not rows:
        return 0
    with write_transaction(store.engine) as conn:
        if conn.execute(select(runs.c.id).where(runs.c.id == run_id)).first() is None:
            raise NotFound(f"no run {run_id}")
        conn.execute(delete(artifacts).where(artifacts.c.run_id == run_id,
                                             artifacts.c.name.in_(sorted(rows))))
        conn.execute(insert(artifacts), [rows[name] for name in sorted(rows)])
    return len(rows)


def get_artifact(store: Store, run_id: str, name: str) -> Artifact:
    """One artifact with its bytes; ``NotFound`` when the run has none of that name."""
    query = select(*_DESCRIBED, artifacts.c.data).where(
        artifacts.c.run_id == run_id, artifacts.c.name == name
    )
    with read_transaction(store.engine) as conn:
        row = conn.execute(query).first()
    if row is None:
        raise NotFound(f"run {run_id} has no artifact {name}")
    return Artifact(**row._mapping)


def list_artifacts(store: Store, run_id: str, *, with_data: bool = False) -> list[Artifact]:
    """The run's artifacts by name, described (``data`` only ``with_data``): what the
    screenshots of a result are found by. Bounded by the run's screenshot budget."""
    columns = [*_DESCRIBED, artifacts.c.data] if with_data else _DESCRIBED
    query = select(*columns).where(artifacts.c.run_id == run_id).order_by(artifacts.c.name)
    with read_transaction(store.engine) as conn:
        return [Artifact(**row._mapping) for row in conn.execute(query)]


def artifact_spending(store: Store, run_id: str, prefix: str) -> tuple[int, list[dict[str, Any]]]:
    """How many bytes the run's artifacts hold, and the metas of those named ``prefix…``, in
    one transaction: what a page of the run may still take."""
    query = select(artifacts.c.meta).where(
        artifacts.c.run_id == run_id, artifacts.c.name.startswith(prefix, autoescape=True)
    )
    with read_transaction(store.engine) as conn:
        return _bytes(conn, run_id), [meta for (meta,) in conn.execute(query) if meta]


def _bytes(conn: Any, run_id: str) -> int:
    """How many bytes the run's artifacts hold: what its budget has spent."""
    query = select(func.coalesce(func.sum(func.length(artifacts.c.data)), 0)).where(
        artifacts.c.run_id == run_id
    )
    return int(conn.execute(query).scalar_one())
