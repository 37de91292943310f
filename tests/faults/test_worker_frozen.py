"""A worker frozen past its lease (issue #26, item 4), with real Redis, PostgreSQL, Chromium
and worker processes: the worker is stopped (SIGSTOP) while it holds started pages, the
other worker takes them over once their lease has lapsed and records them, and the frozen
one is then let go on (SIGCONT) and finishes them late, while the run is still running. The
run completes with every page once, and the late results are dropped: a page's result, once
recorded, is final (``Store.record_page(..., if_pending=True)``), so what the store keeps is
the survivor's. A worker frozen in the middle of a store transaction (it holds the run's row)
holds the others up for at most PostgreSQL's ``idle_in_transaction_session_timeout`` (10 s,
``jobs.store.database``), not for as long as it is frozen."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path
from typing import Any

import trio

from jobs.blocking import in_thread
from jobs.ids import url_key
from jobs.queue import open_queue
from jobs.store import Page
from jobs.system import Jobs
from tests.jobs.system.support import LIMITS, job, tree_site, wait_finished, worker_processes
from tests.service.conftest import Gate
from tests.support.site import Response

#: A bound against a hang only.
HANG = 120
LEASE_MS = 2_000


def _state(pid: int) -> str:
    """The process's state letter (``T``: stopped)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def _started_pages(client: Any, queue: Any, store: Any, run_id: str, consumer: str) -> dict[str, Page]:
    """The pages ``consumer`` holds in the queue and has started (their rows are running)."""
    started = {}
    for held in client.xpending_range(queue.stream, queue.group, "-", "+", 100, consumer):
        for _entry_id, fields in client.xrange(queue.stream, held["message_id"], held["message_id"]):
            page = store.get_page(run_id, fields["url_key"])
            if page.status == "running":
                started[page.url_key] = page
    return started


async def _freeze_holding_pages(process: subprocess.Popen[bytes], started: Any) -> dict[str, Page]:
    """Stop ``process`` while ``started()`` names pages it holds, and return them as they were
    then; a page finished between the look and the signal does not count, so the look is
    taken again once the process has stopped (and the process let go when it holds none)."""
    with trio.fail_after(HANG):
        while True:
            if started():
                process.send_signal(signal.SIGSTOP)
                while _state(process.pid) != "T":
                    await trio.sleep(0.01)
                if held := started():
                    return held
                process.send_signal(signal.SIGCONT)
            await trio.sleep(0.05)


async def _until(holds: Any) -> None:
    with trio.fail_after(HANG):
        while not holds():
            await trio.sleep(0.05)


async def test_a_frozen_worker_s_pages_are_taken_over_and_its_late_results_dropped(
        site, chromium, postgres_url, redis_server, redis_prefix, tmp_path):
    pages, name, gates = 8, "faults-frozen", {}

    def slow(n: int, page: Response) -> Any:
        """Pages take 0.3 s to load, so the victim holds started ones. Page 7 (in the last
        level, with 4-6) is held until the late results have come and gone: the run is still
        running then."""
        return gates.setdefault(n, Gate(page.body, limit=HANG)) if n == 7 else Response(page.body, delay=0.3)

    start = tree_site(site, name, pages, fanout=3, wrap=slow)
    last_page = url_key(site.url(f"/{name}/7"))
    queue = open_queue(redis_server.url, redis_prefix, lease_ms=LEASE_MS)
    await queue.length()  # makes the stream and its group, which the test looks into
    client = redis_server.client()
    try:
        with worker_processes(chromium, postgres_url, redis_server.url, redis_prefix, lease_ms=LEASE_MS,
                              names=["victim", "survivor"], navigation_timeout=HANG, log_dir=tmp_path) as workers:
            victim = workers["victim"]
            async with Jobs.open(database=postgres_url, queue=redis_server.url, limits=LIMITS, browsers=None,
                                 workers=0, prefix=redis_prefix, lease_ms=LEASE_MS) as jobs:
                try:
                    store = jobs.store
                    # Both ready before the run starts, so that the victim gets pages too.
                    await _until(lambda: all("browser ready" in (tmp_path / f"{worker}.log").read_text(errors="replace")
                                             for worker in workers))
                    run = await jobs.submit(job(start, depth=5, maxPages=pages))

                    def started() -> dict[str, Page]:
                        held = _started_pages(client, queue, store, run.id, "victim")
                        held.pop(last_page, None)
                        return held

                    while True:
                        frozen = await _freeze_holding_pages(victim, started)
                        # The survivor takes them over after the lease, and records them.
                        await _until(lambda held=frozen: all(store.get_page(run.id, key).status == "ok" for key in held))
                        survivors = {key: store.get_page(run.id, key) for key in frozen}
                        # A page whose result the victim was committing as it stopped is done
                        # without a second start; it is not one of those taken over.
                        frozen = {key: page for key, page in frozen.items() if survivors[key].attempts > page.attempts}
                        if frozen:
                            break
                        victim.send_signal(signal.SIGCONT)  # try again on a later page
                    assert (await jobs.get(run.id)).status == "running"  # page 7 is held

                    victim.send_signal(signal.SIGCONT)
                    log = tmp_path / "victim.log"
                    # Until the victim has finished each page late: its result dropped (it says
                    # so), or not made (frozen mid-transaction, its session was ended: "not
                    # processed"), or, were it neither, written over the survivor's.
                    await _until(lambda: all(
                        any(f"{page.url} of run {run.id}: {end}" in log.read_text(errors="replace")
                            for end in ("dropped", "not processed"))
                        or store.get_page(run.id, key).updated_at != survivors[key].updated_at
                        for key, page in frozen.items()
                    ))
                    gates[7].release()
                    done = await wait_finished(jobs, run.id, timeout=HANG)
                    result = await jobs.result(run.id)
                    after = {key: store.get_page(run.id, key) for key in frozen}
                    stuck = await in_thread(store.unfinished_runs)
                finally:  # never leave it frozen: closing the jobs system waits for the store
                    victim.send_signal(signal.SIGCONT)
                    gates[7].release()
    finally:
        gates[7].release()
        client.close()
        await queue.close()
    assert done.status == "completed", done.error
    urls = [page["url"] for page in result["pages"]]
    assert sorted(urls) == sorted({site.url(f"/{name}/{n}") for n in range(pages)})  # each once
    assert all(page["status"] == "ok" for page in result["pages"])
    assert stuck == []
    for key in frozen:
        assert after[key] == survivors[key]  # the survivor's result, untouched by the late one
