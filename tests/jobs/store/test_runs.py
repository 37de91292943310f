"""Runs: creation, lookup, lists with filters and windows, and the status machine."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobs.store import Conflict, NotFound

from .helpers import running_run, site_pages


def test_a_created_run_is_queued_and_reads_back_the_same(store):
    before = datetime.now(UTC)
    run = store.create_run("https://Site.test:443/start#top", {"url": "x", "crawl": {"depth": 2}})
    assert run.status == "queued" and run.kind == "job"
    assert run.site == "https://site.test"
    assert run.url == "https://Site.test:443/start#top"
    assert run.request == {"url": "x", "crawl": {"depth": 2}}
    assert before <= run.created_at <= datetime.now(UTC)
    assert run.started_at is None and run.finished_at is None and run.result is None
    assert (run.pages_done, run.pages_queued, run.findings_total, run.score) == (0, 0, 0, None)
    assert store.get_run(run.id) == run


def test_every_method_naming_an_unknown_run_raises_not_found(store):
    calls = [
        lambda: store.get_run("nope"),
        lambda: store.set_run_status("nope", "running"),
        lambda: store.add_pages("nope", site_pages(1)),
        lambda: store.add_pages("nope", []),
        lambda: store.record_page("nope", "https://site.test/p0", "ok", {}),
        lambda: store.get_page("nope", "https://site.test/p0"),
        lambda: store.page_counts("nope"),
        lambda: store.pages("nope"),
        lambda: store.findings("nope"),
        lambda: store.add_event("nope", "page_done", {}),
        lambda: store.events_after("nope"),
    ]
    for call in calls:
        with pytest.raises(NotFound):
            call()


def test_runs_list_newest_first_filtered_and_windowed(store):
    made = [
        store.create_run(url, {"n": n}, kind=kind)
        for n, (url, kind) in enumerate(
            [("https://a.test/", "job"), ("https://b.test/", "sync"), ("https://a.test/", "job")] * 3
        )
    ]
    store.set_run_status(made[0].id, "running")
    newest_first = [run.id for run in reversed(made)]
    assert [run.id for run in store.list_runs()] == newest_first
    assert [run.id for run in store.list_runs(offset=2, limit=3)] == newest_first[2:5]
    assert [run.url for run in store.list_runs(url="https://a.test/")] == ["https://a.test/"] * 6
    assert {run.kind for run in store.list_runs(kind="sync")} == {"sync"}
    assert [run.id for run in store.list_runs(status="running")] == [made[0].id]
    assert [run.id for run in store.list_runs(url="https://b.test/", status="queued", limit=1)] == [
        made[7].id
    ]
    assert store.list_runs(url="https://c.test/") == []


def test_legal_moves_stamp_the_times_and_keep_result_and_error(store):
    done = store.create_run("https://site.test/", {})
    running = store.set_run_status(done.id, "running")
    assert running.status == "running" and running.started_at is not None
    assert running.finished_at is None
    header = {"url": "https://site.test/", "score": 87.5, "conformant": False}
    completed = store.set_run_status(done.id, "completed", result=header)
    assert completed.finished_at >= completed.started_at
    assert (completed.result, completed.score) == (header, 87.5)
    assert store.get_run(done.id) == completed

    failed = store.create_run("https://site.test/", {})
    error = {"code": "browser_unavailable", "message": "no browser", "details": []}
    assert store.set_run_status(failed.id, "failed", error=error).error == error
    cancelled = store.create_run("https://site.test/", {})
    assert store.set_run_status(cancelled.id, "cancelled").status == "cancelled"


@pytest.mark.parametrize(
    ("path", "refused"),
    [
        (["running", "completed"], "running"),
        (["running", "completed"], "cancelled"),
        (["failed"], "queued"),
        ([], "completed"),
        ([], "queued"),
        (["running"], "running"),
        (["running"], "queued"),
        (["cancelled"], "cancelled"),
    ],
)
def test_illegal_moves_are_conflicts_and_change_nothing(store, path, refused):
    run = store.create_run("https://site.test/", {})
    for status in path:
        store.set_run_status(run.id, status)
    before = store.get_run(run.id)
    with pytest.raises(Conflict):
        store.set_run_status(run.id, refused)
    assert store.get_run(run.id) == before


def test_unfinished_runs_are_the_queued_and_running_ones_oldest_first(store):
    queued = store.create_run("https://site.test/", {})
    running = running_run(store)
    for finished in ("completed", "failed", "cancelled"):
        run_id = running_run(store)
        store.set_run_status(run_id, finished)
    assert [run.id for run in store.unfinished_runs()] == [queued.id, running]


def test_bad_arguments_are_programming_errors(store):
    with pytest.raises(ValueError):
        store.create_run("https://site.test/", {}, kind="batch")
    with pytest.raises(ValueError):
        store.create_run("ftp://site.test/", {})
    with pytest.raises(ValueError):
        store.list_runs(status="done")
    with pytest.raises(ValueError):
        store.list_runs(limit=0)
    with pytest.raises(ValueError):
        store.list_runs(offset=-1)
    with pytest.raises(ValueError):
        store.list_runs(limit=1001)


@pytest.mark.parametrize("ending", ["completed", "failed", "cancelled"])
def test_a_run_s_secrets_are_kept_apart_until_it_finishes(store, ending):
    secrets = {"url": "https://u:canary@site.test/", "auth": {"headers": {"X-Key": "canary"}}}
    run = store.create_run("https://site.test/", {"url": "https://site.test/"}, secrets=secrets)
    plain = store.create_run("https://site.test/", {"url": "https://site.test/"})
    assert "canary" not in repr(run)
    assert store.run_secrets(run.id) == secrets
    assert store.run_secrets(plain.id) == {}
    store.set_run_status(run.id, "running")
    assert store.run_secrets(run.id) == secrets, "a running run's pages still need them"
    store.set_run_status(run.id, ending)
    assert store.run_secrets(run.id) == {}
