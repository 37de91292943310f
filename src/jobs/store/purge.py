"""Deleting a run for good: the run and every row it owns (pages, findings, events, secrets,
artifacts, a baseline that names it), in one transaction.

Only a finished run can go. A queued or running one still has pages in the queue and
workers writing to it; it must be cancelled first, so a deletion never races the run's own
writes (a late write of a worker for a run that is gone is dropped: ``NotFound``). The rows
go by the foreign keys' ``ON DELETE CASCADE`` (declared by every table that belongs to a run,
and switched on for every SQLite connection), so a table added later cannot be forgotten.
"""

from __future__ import annotations

from sqlalchemy import delete, select

from .database import write_transaction
from .errors import Conflict, NotFound
from .records import RUN_FINISHED, Run
from .schema import runs
from .store import Store


def purge_run(store: Store, run_id: str) -> Run:
    """Delete the finished run ``run_id`` with everything it owns; returns the run as it was.
    ``NotFound`` without such a run, ``Conflict`` while it is queued or running."""
    with write_transaction(store.engine) as conn:
        row = conn.execute(select(runs).where(runs.c.id == run_id).with_for_update()).first()
        if row is None:
            raise NotFound(f"no run {run_id}")
        if row.status not in RUN_FINISHED:
            raise Conflict(f"run {run_id} is {row.status}; only a finished run can be deleted (cancel it first)")
        conn.execute(delete(runs).where(runs.c.id == run_id))
    return Run(**row._mapping)
