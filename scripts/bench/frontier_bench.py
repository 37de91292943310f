"""What one coordinator step of the crawl costs (``jobs.frontier.advance``, issue #23 item 4)
on a large run, without a browser: workers are played by writing to the store as a worker
does (start and final URL, then links and result), ``--concurrency`` pages in flight in
``seq`` order, and the frontier is stepped after every write, as the coordinator is woken.

    .venv/bin/python scripts/bench/frontier_bench.py                  # 5,000 pages, SQLite
    .venv/bin/python scripts/bench/frontier_bench.py --pages 20000 --database postgresql+psycopg://…

The site is the scale benchmark's: page n links to pages 10n+1 … 10n+10 (and home), so a
crawl of depth 4 finds 11,111 pages, cut at ``--pages``. Prints the steps' count and time
(all, those that admitted pages, and those that found nothing to do: the cost of every
wake-up and every 0.5 s poll), at each tenth of the run, so a cost that grows with the run
shows. Asserts only that the run's pages are those of the rule.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from jobs.frontier import advance, start_pages  # noqa: E402
from jobs.models import JobRequest  # noqa: E402
from jobs.store import Page, Store, open_store  # noqa: E402
from jobs.store.crawl_scan import note_page  # noqa: E402

SITE = "http://bench.test"


def links_of(n: int) -> list[str]:
    return [f"{SITE}/{c}" for c in range(10 * n + 1, 10 * n + 11)] + [f"{SITE}/0"]


def timed(store: Store, run_id: str, request: JobRequest, into: list[tuple[float, int]]) -> None:
    began = time.perf_counter()
    scan = advance(store, run_id, request)
    into.append((time.perf_counter() - began, scan.added))


def bench(store: Store, pages: int, concurrency: int) -> None:
    request = JobRequest.model_validate({"url": f"{SITE}/0", "crawl": {"enabled": True, "depth": 4, "maxPages": pages}})
    run = store.create_run(request.url, request.model_dump(mode="json"))
    store.add_pages(run.id, start_pages(request))
    store.set_run_status(run.id, "running")
    steps: list[tuple[float, int]] = []
    flight: deque[Page] = deque()
    done, began = 0, time.perf_counter()
    while True:
        timed(store, run.id, request, steps)
        for page in store.pages(run.id, status="queued", limit=concurrency - len(flight) or 1)[:concurrency - len(flight)]:
            store.start_page(run.id, page.url_key)  # started and loaded: its final URL is known
            note_page(store, run.id, page.url_key, final_url=page.url)
            timed(store, run.id, request, steps)
            flight.append(page)
        if not flight:
            break
        page = flight.popleft()  # the oldest in flight settles (its links are known), then is done
        n, want = int(page.url.rsplit("/", 1)[1]), page.depth < request.crawl.depth
        if want:
            note_page(store, run.id, page.url_key, links=links_of(n))
            timed(store, run.id, request, steps)
        store.record_page(run.id, page.url_key, "ok", {"url": page.url, "status": "ok"},
                          final_url=page.url, links=links_of(n) if want else None, if_pending=True)
        done += 1
        if done % (pages // 10) == 0:
            report(f"{done:>6} pages done", steps[-200:])
    total = time.perf_counter() - began
    urls = [p.url for offset in range(0, pages, 1000) for p in store.pages(run.id, offset=offset, limit=1000)]
    assert urls == [f"{SITE}/{n}" for n in range(pages)], "the pages of the rule, in its order"
    assert advance(store, run.id, request).finished
    report("every step", steps)
    report("steps that admitted pages", [s for s in steps if s[1]])
    report("steps with nothing to do", [s for s in steps if not s[1]])
    print(f"{pages} pages, {len(steps)} steps, {total:.1f} s in all (store writes of the workers included)")


def report(label: str, steps: list[tuple[float, int]]) -> None:
    if not steps:
        return
    times = sorted(seconds * 1000 for seconds, _ in steps)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{label:>28}: {len(times):>6} steps, mean {statistics.fmean(times):6.2f} ms, "
          f"p50 {statistics.median(times):6.2f} ms, p99 {p99:6.2f} ms, max {times[-1]:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--database", help="a database URL (default: SQLite in a temporary directory)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory, open_store(args.database or directory) as store:
        bench(store, args.pages, args.concurrency)


if __name__ == "__main__":
    main()
