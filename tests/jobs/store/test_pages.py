"""Pages: the frontier (insert-or-ignore, the start gate, requeue), idempotent results, counters
derived from the rows, result-ordered windows, and writers racing on one run."""

from __future__ import annotations

import threading

import pytest

from jobs.store import NewPage, NotFound

from .helpers import (
    all_events,
    assert_counters_are_the_rows,
    everything,
    items,
    page_result,
    running_run,
    site_pages,
)


def test_adding_pages_ignores_urls_the_run_already_has(store):
    run_id = running_run(store)
    first = site_pages(3)
    assert store.add_pages(run_id, first) == 3
    again = [*first[1:], *site_pages(2, first_seq=3), NewPage(*first[0][:3], 99)]
    assert store.add_pages(run_id, again) == 2
    assert store.add_pages(run_id, [first[0], tuple(first[0])]) == 0
    assert store.add_pages(run_id, []) == 0
    assert [page.seq for page in store.pages(run_id)] == [0, 1, 2, 3, 4]
    assert store.get_run(run_id).pages_queued == 5
    assert store.page_counts(run_id) == {
        "queued": 5, "running": 0, "ok": 0, "failed": 0, "skipped": 0
    }
    other = running_run(store)
    assert store.add_pages(other, first) == 3, "the same URLs in another run are new there"


def test_recording_a_page_twice_leaves_one_copy_and_right_counters(store):
    run_id = running_run(store, pages=3)
    key = site_pages(1)[0].url_key
    for _ in range(2):
        assert store.record_page(
            run_id, key, "ok", page_result(key), [*items("serious", "minor"), *items(None, kind="review")],
            duration_ms=420, timings={"load": 300},
        )
    page = store.get_page(run_id, key)
    assert (page.status, page.score, page.finding_count, page.duration_ms) == ("ok", 90.0, 2, 420)
    assert page.timings == {"load": 300} and page.data == page_result(key)
    assert [(f.impact, f.data["n"]) for f in store.findings(run_id)] == [("serious", 0), ("minor", 1)]
    assert len(store.findings(run_id, "review")) == 1
    run = store.get_run(run_id)
    assert (run.pages_done, run.pages_queued, run.findings_total, run.serious, run.minor) == (1, 2, 2, 1, 1)
    assert_counters_are_the_rows(store, run_id)


def test_a_new_result_for_a_page_replaces_the_old_one(store):
    run_id = running_run(store, pages=2)
    key = site_pages(1)[0].url_key
    store.record_page(run_id, key, "ok", page_result(key), items("critical", "critical", "moderate"))
    failure = {"code": "navigation_failed", "message": "net::ERR_FAILED"}
    failed = {**page_result(key, "failed", None), "error": failure}
    store.record_page(run_id, key, "failed", failed, items("minor"))
    page = store.get_page(run_id, key)
    assert (page.status, page.score, page.error, page.finding_count) == ("failed", None, failure, 1)
    assert [f.impact for f in store.findings(run_id)] == ["minor"]
    run = store.get_run(run_id)
    assert (run.pages_failed, run.critical, run.moderate, run.minor) == (1, 0, 0, 1)
    assert_counters_are_the_rows(store, run_id)


def test_recording_an_unknown_page_is_not_found_and_bad_values_are_refused(store):
    run_id = running_run(store, pages=1)
    with pytest.raises(NotFound):
        store.record_page(run_id, "https://site.test/elsewhere", "ok", {})
    key = site_pages(1)[0].url_key
    with pytest.raises(ValueError):
        store.record_page(run_id, key, "queued", {})
    with pytest.raises(ValueError):
        store.record_page(run_id, key, "ok", {}, items("minor", kind="warning"))
    assert store.get_page(run_id, key).status == "queued"


def test_a_finished_run_takes_no_more_pages_or_results(store):
    run_id = running_run(store, pages=2)
    store.set_run_status(run_id, "cancelled")
    before = store.get_run(run_id)
    key = site_pages(1)[0].url_key
    assert store.record_page(run_id, key, "ok", page_result(key), items("serious")) is False
    assert store.add_pages(run_id, site_pages(2, first_seq=2)) == 0
    assert store.start_page(run_id, key) is None
    assert store.get_run(run_id) == before
    assert store.get_page(run_id, key).status == "queued"
    assert [page.url_key for page in store.pages(run_id)] == [p.url_key for p in site_pages(2)]
    assert store.findings(run_id) == []


def test_started_pages_count_their_attempts_and_a_restart_requeues_them(store):
    run = store.create_run("https://site.test/", {})
    store.add_pages(run.id, list(reversed(site_pages(5))))
    keys = [page.url_key for page in site_pages(5)]
    assert store.start_page(run.id, keys[0]) is None, "a queued run starts no page"
    store.set_run_status(run.id, "running")
    first = [store.start_page(run.id, key) for key in keys[:4]]
    assert [page.seq for page in first] == [0, 1, 2, 3]
    assert {(page.status, page.attempts) for page in first} == {("running", 1)}
    assert store.get_run(run.id).pages_queued == 5, "running pages are still to do"
    store.record_page(run.id, first[0].url_key, "ok", page_result(first[0].url))
    assert store.requeue_running(run.id) == 3
    assert store.page_counts(run.id) == {"queued": 4, "running": 0, "ok": 1, "failed": 0, "skipped": 0}
    again = [store.start_page(run.id, key) for key in keys]
    assert again[0] is None, "a page already done is not started again"
    assert [(page.seq, page.attempts) for page in again[1:]] == [(1, 2), (2, 2), (3, 2), (4, 1)]
    assert_counters_are_the_rows(store, run.id)


def test_pages_and_findings_come_in_result_order_by_window(store):
    run_id = running_run(store, pages=12)
    keys = [page.url_key for page in site_pages(12)]
    for seq in (7, 2, 11, 0, 5):  # results arrive out of order
        store.record_page(run_id, keys[seq], "ok", page_result(keys[seq]), items("minor", "serious", rule=f"r{seq}"))
    assert [page.seq for page in everything(store.pages, run_id)] == list(range(12))
    assert [page.seq for page in store.pages(run_id, offset=10, limit=5)] == [10, 11]
    assert store.pages(run_id, offset=12) == []
    assert [page.seq for page in store.pages(run_id, status="ok")] == [0, 2, 5, 7, 11]
    in_order = [(f.page_seq, f.seq, f.rule_id) for f in everything(store.findings, run_id)]
    assert in_order == [(seq, n, f"r{seq}") for seq in (0, 2, 5, 7, 11) for n in range(2)]
    assert [f.page_seq for f in store.findings(run_id, offset=3, limit=3)] == [2, 5, 5]
    assert store.findings(run_id, "best_practice") == []


def test_writers_racing_on_one_run_lose_nothing_and_count_everything_once(store):
    run_id = running_run(store, pages=30)
    keys = [page.url_key for page in site_pages(30)]
    # Two workers at once: pages 0..19 and 10..29, so 10 pages are delivered twice.
    shares = [keys[:20], keys[10:]]
    start = threading.Barrier(len(shares))
    failures: list[BaseException] = []

    def worker(share: list[str]) -> None:
        try:
            start.wait(timeout=30)
            for key in share:
                store.record_page(run_id, key, "ok", page_result(key), items("serious", "minor", "minor"))
                store.add_event(run_id, "page_done", {"url": key})
        except BaseException as exc:  # reported by the test thread
            failures.append(exc)

    threads = [threading.Thread(target=worker, args=(share,)) for share in shares]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert failures == []
    run = store.get_run(run_id)
    assert (run.pages_done, run.pages_queued, run.findings_total, run.serious, run.minor) == (
        30, 0, 90, 30, 60
    )
    findings = everything(store.findings, run_id)
    assert sorted((f.page_seq, f.seq) for f in findings) == [(p, n) for p in range(30) for n in range(3)]
    assert_counters_are_the_rows(store, run_id)
    event_ids = [event.id for event in all_events(store, run_id)]
    assert len(event_ids) == 40 and event_ids == sorted(set(event_ids))


def test_frontiers_growing_at_once_with_overlapping_links_add_each_page_once(store):
    run_id = running_run(store)
    batches = [site_pages(30), list(reversed(site_pages(30, first_seq=15)))]
    start = threading.Barrier(len(batches))
    added: list[int] = []

    def discover(batch: list[NewPage]) -> None:
        start.wait(timeout=30)
        for n in range(0, len(batch), 5):
            added.append(store.add_pages(run_id, batch[n : n + 5]))

    threads = [threading.Thread(target=discover, args=(batch,)) for batch in batches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(added) == 12 and sum(added) == 45
    assert store.get_run(run_id).pages_queued == 45
    assert sorted(page.seq for page in everything(store.pages, run_id)) == list(range(45))


def test_windows_are_bounded(store):
    run_id = running_run(store, pages=1)
    for call in (
        lambda: store.pages(run_id, limit=0),
        lambda: store.findings(run_id, offset=-1),
        lambda: store.events_after(run_id, limit=1001),
        lambda: store.unsent_pages(run_id, limit=0),
    ):
        with pytest.raises(ValueError):
            call()
