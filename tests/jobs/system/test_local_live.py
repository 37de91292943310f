"""The in-process jobs system (SQLite, memory queue, local workers) on a real Chromium."""

from __future__ import annotations

import time

import pytest
import trio

import jobs.system as jobs_system
from audit.engine import run_audit
from audit.models import AuditRequest, AuditResult
from jobs.store import Conflict, open_store
from jobs.system import Jobs
from tests.support.site import Response

from .support import LIMITS, job, local_jobs, tree_site, wait_finished, wait_until, without_duration

PAGES = 30


async def test_a_crawl_job_gives_exactly_the_result_of_the_synchronous_audit(site, chromium, browser, tmp_path):
    start = tree_site(site, "jobs-equal", PAGES, fanout=3)  # depths 0 to 3
    request = job(start, depth=5, maxPages=PAGES)
    async with local_jobs(str(tmp_path / "data"), chromium.ws_url) as jobs:
        run = await jobs.submit(request)
        done = await wait_finished(jobs, run.id, timeout=300)
        assert done.status == "completed", done.error
        stored = await jobs.result(run.id)
        events = await jobs.events_after(run.id, 0, limit=1000)
    sync_request = AuditRequest.model_validate(
        {"url": start, "crawl": {"enabled": True, "depth": 5, "maxPages": PAGES}, "checks": {"interaction": False}}
    )
    expected = (await run_audit(browser, sync_request, LIMITS)).model_dump(mode="json")

    assert [p["url"] for p in stored["pages"]] == [p["url"] for p in expected["pages"]]
    assert len(stored["pages"]) == PAGES
    assert without_duration(stored) == without_duration(expected)
    types = [e.type for e in events]
    assert types[0] == "run.started" and types[-1] == "run.done"
    assert types.count("page.started") == PAGES == types.count("page.done")


async def test_cancel_stops_new_pages_and_the_run_stays_cancelled(site, chromium, tmp_path):
    requested: list[tuple[float, str]] = []

    def slow(n, response):
        def handler(request):
            requested.append((time.monotonic(), request.path))
            return Response(response.body, delay=0.2)
        return handler

    start = tree_site(site, "jobs-cancel", 40, wrap=slow)
    async with local_jobs(str(tmp_path / "data"), chromium.ws_url, workers=2) as jobs:
        run = await jobs.submit(job(start, depth=5, maxPages=40))
        await wait_until(jobs, run.id, lambda run: run.pages_done >= 4)
        cancelled = await jobs.cancel(run.id)
        at_cancel = time.monotonic()
        assert cancelled.status == "cancelled"
        await trio.sleep(2.0)
        later = await jobs.get(run.id)
        with pytest.raises(Conflict):
            await jobs.cancel(run.id)
        with pytest.raises(Conflict):
            await jobs.result(run.id)
        events = await jobs.events_after(run.id, 0, limit=1000)
    assert later.status == "cancelled" and later.pages_done == cancelled.pages_done < 40
    started_after = {path for t, path in requested if t > at_cancel}
    assert len(started_after) <= 2  # at most the pages in flight when it was cancelled
    assert events[-1].type == "run.done" and events[-1].data["status"] == "cancelled"


async def test_a_restart_mid_run_resumes_and_audits_every_page_once(site, chromium, tmp_path):
    data = str(tmp_path / "data")
    start = tree_site(site, "jobs-restart", 24, fanout=3)
    async with local_jobs(data, chromium.ws_url, workers=2) as jobs:
        run = await jobs.submit(job(start, depth=5, maxPages=24))
        await wait_until(jobs, run.id, lambda run: run.pages_done >= 6)
    with open_store(data) as store:
        interrupted = store.get_run(run.id)
    assert interrupted.status == "running" and 6 <= interrupted.pages_done < 24
    async with local_jobs(data, chromium.ws_url, workers=4) as jobs:
        done = await wait_finished(jobs, run.id)
        result = await jobs.result(run.id)
    assert done.status == "completed", done.error
    urls = [page["url"] for page in result["pages"]]
    assert len(urls) == len(set(urls)) == 24
    assert all(page["status"] == "ok" for page in result["pages"])
    assert result["stats"]["totalPages"] == 24


async def test_a_write_behind_an_answer_waits_for_the_answer_to_go_out(tmp_path, monkeypatch):
    order: list[str] = []

    async def write() -> None:
        order.append("stored")

    async with Jobs.open(database=str(tmp_path / "data"), queue=None, limits=LIMITS, browsers=None, workers=0) as jobs:
        answer = trio.Event()
        jobs.write_behind(write, answer)
        await trio.sleep(0.05)
        order.append("answered")
        answer.set()
        with trio.fail_after(30):
            await jobs.written()
        assert order == ["answered", "stored"]

        monkeypatch.setattr(jobs_system, "ANSWER_WAIT", 0.05)
        jobs.write_behind(write, trio.Event())  # an answer that never goes out
        with trio.fail_after(30):
            await jobs.written()
        assert order == ["answered", "stored", "stored"]


async def test_a_synchronous_audit_is_kept_as_a_run_and_reads_back_the_same(site, browser, tmp_path):
    start = tree_site(site, "jobs-sync", 7)
    request = AuditRequest.model_validate({"url": start, "crawl": {"enabled": True, "depth": 3}})
    answered = (await run_audit(browser, request, LIMITS)).model_dump(mode="json")
    async with Jobs.open(database=str(tmp_path / "data"), queue=None, limits=LIMITS, browsers=None, workers=0) as jobs:
        run = await jobs.record_sync(request, AuditResult.model_validate(answered))
        assert (run.kind, run.status, run.pages_done) == ("sync", "completed", 7)
        assert await jobs.result(run.id) == answered
        window = await jobs.result(run.id, offset=1, limit=2)
        listed = await jobs.list(url=start, status="completed", limit=5)
    assert len(answered["findings"]) > 3
    assert window["findings"] == answered["findings"][1:3]
    assert window["pages"] == answered["pages"] and window["stats"] == answered["stats"]
    assert [r.id for r in listed] == [run.id]
