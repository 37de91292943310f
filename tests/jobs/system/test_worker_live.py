"""Worker rules on a real browser: a transient failure is retried once, a poison task is
recorded failed, a task of a cancelled run is acknowledged unrun."""

from __future__ import annotations

from collections.abc import Callable

import trio

from jobs.ids import url_key
from jobs.queue import MemoryQueue, PageTask
from jobs.store import open_store
from jobs.worker import Worker
from tests.support.site import Response

from .support import LIMITS, job, local_jobs, page_body, supervised_browser, wait_finished


def hang_up(while_: Callable[[], bool], body: str):
    """A route that gives no answer at all while ``while_()`` holds (the connection is
    closed: a net error in the browser, which may also retry on its own), then the page."""
    def handler(_request):
        if while_():
            raise ConnectionAbortedError("the test server hangs up")
        return Response(body)
    return handler


async def test_a_transient_failure_is_retried_once_then_recorded(site, chromium, tmp_path):
    data = str(tmp_path / "data")
    flaky_key = url_key(site.url("/retry/flaky"))
    runs: list[str] = []

    def first_attempt() -> bool:
        with open_store(data) as store:
            return store.get_page(runs[0], flaky_key).attempts < 2

    site.route("/retry/0", page_body("retry", 1, ["/retry/flaky", "/retry/down"]))
    site.route("/retry/flaky", hang_up(first_attempt, page_body("retry", 2, [])))
    site.route("/retry/down", hang_up(lambda: True, page_body("retry", 4, [])))
    async with local_jobs(data, chromium.ws_url) as jobs:
        run = await jobs.submit(job(site.url("/retry/0"), depth=1))
        runs.append(run.id)
        done = await wait_finished(jobs, run.id)
        result = await jobs.result(run.id)
        flaky, down = (jobs.store.get_page(run.id, url_key(site.url(f"/retry/{n}"))) for n in ("flaky", "down"))
    assert done.status == "completed"
    statuses = {page["url"]: page["status"] for page in result["pages"]}
    assert statuses == {site.url("/retry/0"): "ok", site.url("/retry/flaky"): "ok", site.url("/retry/down"): "failed"}
    assert (flaky.attempts, down.attempts) == (2, 2)
    assert down.error["code"] == "navigation_failed"


async def test_a_poison_task_is_recorded_failed_and_a_cancelled_run_s_task_is_dropped(site, chromium, tmp_path):
    queue = MemoryQueue(lease_ms=50)
    with open_store(str(tmp_path / "data")) as store:
        poisoned = store.create_run(site.url("/poison"), job(site.url("/poison")).model_dump(mode="json"))
        cancelled = store.create_run(site.url("/gone"), job(site.url("/gone")).model_dump(mode="json"))
        for run, path in ((poisoned, "/poison"), (cancelled, "/gone")):
            store.add_pages(run.id, [(site.url(path), url_key(site.url(path)), 0, 0)])
            store.set_run_status(run.id, "running")
        store.set_run_status(cancelled.id, "cancelled")
        await queue.enqueue([PageTask(poisoned.id, site.url("/poison"), url_key(site.url("/poison")), 0)])
        await queue.receive("ghost")
        for _ in range(3):  # three workers took it and died
            await trio.sleep(0.06)
            await queue.reclaim("ghost")
        await queue.enqueue([PageTask(cancelled.id, site.url("/gone"), url_key(site.url("/gone")), 0)])
        async with supervised_browser(chromium.ws_url) as browsers, trio.open_nursery() as nursery:
            worker = Worker(store, queue, browsers, LIMITS, concurrency=2)
            nursery.start_soon(worker.run)
            with trio.fail_after(20):
                while await queue.length():
                    await trio.sleep(0.05)
            nursery.cancel_scope.cancel()
        page = store.get_page(poisoned.id, url_key(site.url("/poison")))
        assert page.status == "failed" and "5 times" in page.error["message"]
        assert store.get_page(cancelled.id, url_key(site.url("/gone"))).status == "queued"
    assert not any(r.path in ("/poison", "/gone") for r in site.log)
