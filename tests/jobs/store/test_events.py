"""Progress events: increasing ids, resumption after a Last-Event-ID, and order under
concurrent writers."""

from __future__ import annotations

import threading

from .helpers import all_events, page_result, running_run


def test_events_get_increasing_ids_and_resume_after_the_last_one_seen(store):
    run_id = running_run(store)
    other = running_run(store)
    ids = [store.add_event(run_id, "page_done", {"n": n}) for n in range(5)]
    store.add_event(other, "page_done", {"n": 99})
    assert ids == sorted(ids) and len(set(ids)) == 5
    assert [event.data["n"] for event in store.events_after(run_id)] == [0, 1, 2, 3, 4]
    assert [event.id for event in store.events_after(run_id, ids[1], limit=2)] == ids[2:4]
    assert store.events_after(run_id, ids[-1]) == []
    event = store.events_after(run_id, ids[3])[0]
    assert (event.run_id, event.type, event.data) == (run_id, "page_done", {"n": 4})
    assert event.created_at.tzinfo is not None


def test_a_finished_run_still_takes_its_last_events(store):
    run_id = running_run(store)
    store.set_run_status(run_id, "completed")
    last = store.add_event(run_id, "run_done", {"status": "completed"})
    assert [event.id for event in store.events_after(run_id)] == [last]


def test_a_reader_following_concurrent_writers_never_skips_an_event(store):
    run_id = running_run(store)
    writers, per_writer = 3, 15
    start = threading.Barrier(writers + 1)
    seen: list[int] = []

    def write(n: int) -> None:
        start.wait(timeout=30)
        for k in range(per_writer):
            store.add_event(run_id, "page_done", {"writer": n, "k": k})

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    start.wait(timeout=30)
    while any(thread.is_alive() for thread in threads):
        seen.extend(event.id for event in store.events_after(run_id, seen[-1] if seen else 0))
    seen.extend(event.id for event in store.events_after(run_id, seen[-1] if seen else 0))
    assert seen == [event.id for event in all_events(store, run_id)]
    assert len(seen) == writers * per_writer


def test_a_page_s_event_is_written_with_its_result_or_not_at_all(store):
    """The last page's result lets the coordinator finish the run at once: an event written
    after the result could find the run finished and be dropped (a followed run once showed
    28 page.done events for 30 pages). With the result, it is in before any finish."""
    run_id = running_run(store, pages=2)
    first, second = (page.url_key for page in store.pages(run_id))
    done = ("page.done", {"url": first, "status": "ok"})
    assert store.record_page(run_id, first, "ok", page_result(first), event=done) is True
    assert [(e.type, e.data) for e in store.events_after(run_id)] == [done]
    # A late result (the page has one) and a result for a finished run add no event either.
    assert store.record_page(run_id, first, "ok", page_result(first), if_pending=True,
                             event=("page.done", {"url": first, "late": True})) is False
    store.set_run_status(run_id, "cancelled")
    assert store.record_page(run_id, second, "ok", page_result(second),
                             event=("page.done", {"url": second})) is False
    assert [(e.type, e.data) for e in store.events_after(run_id)] == [done]
