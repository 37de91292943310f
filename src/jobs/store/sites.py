"""A site's runs over time and the run it is compared against: the store's queries by site.

A site is an origin (``runs.site``, :func:`jobs.ids.site_of`); its baseline is one completed
run of that site (``site_baselines``), replaced by the next one set. Like :class:`Store`,
every function is one short transaction, synchronous and thread-safe.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from .database import read_transaction, write_transaction
from .errors import Conflict, NotFound
from .records import Run
from .schema import runs, site_baselines, utc_now
from .store import MAX_LIMIT, Store

_UPSERT = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


class WrongSite(Conflict):
    """The run named is of another site than the one it was to be the baseline of."""


@dataclass(frozen=True, slots=True)
class Baseline:
    site: str
    run_id: str
    set_at: datetime


def set_baseline(store: Store, site: str, run_id: str) -> Baseline:
    """Make ``run_id`` the baseline of ``site``. ``NotFound`` without such a run,
    ``WrongSite`` when it is another site's, ``Conflict`` unless it completed."""
    with write_transaction(store.engine) as conn:
        run = conn.execute(select(runs.c.site, runs.c.status).where(runs.c.id == run_id)).first()
        if run is None:
            raise NotFound(f"no run {run_id}")
        if run.site != site:
            raise WrongSite(f"run {run_id} is of {run.site}, not of {site}")
        if run.status != "completed":
            raise Conflict(f"run {run_id} is {run.status}; only a completed run can be a baseline")
        values = {"site": site, "run_id": run_id, "set_at": utc_now()}
        upsert = _UPSERT[conn.dialect.name](site_baselines).values(values)
        upsert = upsert.on_conflict_do_update(
            index_elements=[site_baselines.c.site],
            set_={"run_id": upsert.excluded.run_id, "set_at": upsert.excluded.set_at},
        )
        conn.execute(upsert)
    return Baseline(site, run_id, values["set_at"])


def get_baseline(store: Store, site: str) -> Baseline | None:
    """The site's baseline, None when none was set (or its run was deleted)."""
    query = select(site_baselines).where(site_baselines.c.site == site)
    with read_transaction(store.engine) as conn:
        row = conn.execute(query).first()
    return None if row is None else Baseline(row.site, row.run_id, row.set_at)


def site_history(store: Store, site: str, *, limit: int = 50) -> list[Run]:
    """The site's newest ``limit`` runs, oldest first (the order of a trend)."""
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be 1..{MAX_LIMIT} (got {limit})")
    query = (
        select(runs)
        .where(runs.c.site == site)
        .order_by(runs.c.created_at.desc(), runs.c.id.desc())
        .limit(limit)
    )
    with read_transaction(store.engine) as conn:
        newest_first = [Run(**row._mapping) for row in conn.execute(query)]
    return newest_first[::-1]
