"""Deleting a finished run for good: it and every row of every table that belongs to it go,
other runs stay whole; a run still queued or running cannot be deleted."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from jobs.store import Conflict, NotFound
from jobs.store.artifacts import NewArtifact, put_artifacts
from jobs.store.database import read_transaction
from jobs.store.purge import purge_run
from jobs.store.schema import metadata
from jobs.store.sites import get_baseline, set_baseline

from .helpers import items, page_result, running_run, site_pages

OWNED = [table for table in metadata.sorted_tables if "run_id" in table.c]


def _finished_run_with_everything(store) -> str:
    run_id = running_run(store, pages=2)
    for page in site_pages(2):
        store.start_page(run_id, page.url_key)
        store.record_page(run_id, page.url_key, "ok", page_result(page.url), items("serious", "minor"))
        store.add_event(run_id, "page.done", {"url": page.url})
    put_artifacts(store, run_id, [NewArtifact("thumb-0.jpg", "image/jpeg", b"\xff\xd8\xff\xd9")])
    store.set_run_status(run_id, "completed", result={"score": 90.0})
    store.add_event(run_id, "run.done", {})
    set_baseline(store, "https://site.test", run_id)
    return run_id


def _rows_of(store, run_id: str) -> dict[str, int]:
    with read_transaction(store.engine) as conn:
        return {
            table.name: conn.execute(select(func.count()).select_from(table).where(table.c.run_id == run_id)).scalar_one()
            for table in OWNED
        }


def test_a_finished_run_goes_with_every_row_it_owns(store):
    assert {"pages", "findings", "events", "artifacts", "site_baselines", "run_secrets"} <= {t.name for t in OWNED}
    kept = _finished_run_with_everything(store)
    gone = _finished_run_with_everything(store)  # now the site's baseline
    before = _rows_of(store, kept)
    assert all(before[name] for name in ("pages", "findings", "events", "artifacts"))
    purged = purge_run(store, gone)
    assert purged.id == gone and purged.status == "completed"
    assert set(_rows_of(store, gone).values()) == {0}
    with pytest.raises(NotFound):
        store.get_run(gone)
    assert get_baseline(store, "https://site.test") is None  # it named the purged run
    assert _rows_of(store, kept) == before and store.get_run(kept).status == "completed"
    with pytest.raises(NotFound):
        purge_run(store, gone)


def test_a_run_still_queued_or_running_cannot_be_deleted(store):
    queued = store.create_run("https://site.test/", {})
    running = running_run(store, pages=1)
    for run_id in (queued.id, running):
        with pytest.raises(Conflict):
            purge_run(store, run_id)
        assert store.get_run(run_id).finished is False
    store.set_run_status(running, "cancelled")
    assert purge_run(store, running).status == "cancelled"
