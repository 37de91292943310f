"""What the crawl keeps on page rows: the start gate, what is in the queue, links and final
URLs, and the frontier's shape."""

from __future__ import annotations

from .helpers import page_result, running_run, site_pages


def test_the_start_gate_admits_pending_pages_of_running_runs_only(store):
    run_id = running_run(store, pages=2)
    first, second = site_pages(2)
    started = store.start_page(run_id, first.url_key)
    assert started is not None and (started.status, started.attempts) == ("running", 1)
    assert store.start_page(run_id, first.url_key).attempts == 2, "a redelivery may start it again"
    store.record_page(run_id, first.url_key, "ok", page_result(first.url))
    assert store.start_page(run_id, first.url_key) is None, "a page already done is not run again"
    store.set_run_status(run_id, "cancelled")
    assert store.start_page(run_id, second.url_key) is None, "nor a page of a cancelled run"
    assert store.get_page(run_id, second.url_key).status == "queued"


def test_pages_not_yet_enqueued_and_a_lost_in_process_queue(store):
    run_id = running_run(store, pages=4)
    keys = [page.url_key for page in site_pages(4)]
    assert [page.url_key for page in store.unsent_pages(run_id)] == keys
    assert store.mark_enqueued(run_id, keys[:3]) == 3
    assert [page.url_key for page in store.unsent_pages(run_id, limit=10)] == keys[3:]
    store.start_page(run_id, keys[0])
    store.record_page(run_id, keys[1], "ok", page_result(site_pages(4)[1].url))
    assert store.requeue_running(run_id) == 1
    assert [page.url_key for page in store.unsent_pages(run_id)] == keys[3:], "still in the queue"
    store.start_page(run_id, keys[0])
    assert store.requeue_running(run_id, lost_queue=True) == 1
    assert [page.url_key for page in store.unsent_pages(run_id)] == [keys[0], keys[2], keys[3]]
    store.set_run_status(run_id, "cancelled")
    assert store.unsent_pages(run_id) == [], "a finished run sends nothing more"


def test_links_final_urls_scores_and_the_frontier_shape(store):
    run_id = running_run(store)
    assert store.frontier(run_id) == (0, -1, -1)
    store.add_pages(run_id, site_pages(3))
    a, b, c = site_pages(3)
    store.record_page(run_id, a.url_key, "ok", page_result(a.url, score=80.0),
                      final_url="https://site.test/moved", links=["https://site.test/x", "/y"])
    store.record_page(run_id, b.url_key, "ok", page_result(b.url, score=None), final_url=b.url)
    store.record_page(run_id, c.url_key, "failed", page_result(c.url, "failed", None))
    assert store.frontier(run_id) == (3, 1, 2)
    assert store.get_page(run_id, a.url_key).links == ["https://site.test/x", "/y"]
    assert store.get_page(run_id, b.url_key).links is None
    assert [store.get_page(run_id, p.url_key).final_key for p in (a, b, c)] == [
        "https://site.test/moved", None, None], "a key only for the pages that ended elsewhere"
    assert store.ok_scores(run_id) == [80.0, None]
    assert [page.url for page in store.pages(run_id, depth=1, offset=1, limit=5)] == [b.url, c.url]
    assert store.pages(run_id, depth=0) == []


def test_page_events_never_follow_a_finished_run_s_last_event(store):
    run_id = running_run(store)
    assert store.add_event(run_id, "page.started", {}, unless_finished=True) is not None
    store.set_run_status(run_id, "cancelled")
    done = store.add_event(run_id, "run.done", {"status": "cancelled"})
    assert store.add_event(run_id, "page.started", {}, unless_finished=True) is None
    assert [event.id for event in store.events_after(run_id)][-1] == done
