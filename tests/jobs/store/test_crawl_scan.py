"""The job's crawl decides pages as soon as their place is certain (issue #23, item 4), and
still admits exactly the pages, in exactly the order, of a level-by-level crawl: the
synchronous crawl's own scheduler (``audit.crawl.crawl_site`` with ``by_level``) is the
reference. No browser: workers are played by writing to the store as a worker does, pages
progressing in a random order (some redirect, some fail before or after their links)."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest
import trio

from audit.crawl import PageProgress, PendingStart, crawl_site
from audit.models import PageResult
from audit.page_audit import PageAudit
from jobs.frontier import advance, start_pages
from jobs.models import JobRequest
from jobs.store import NewPage, Store, open_store
from jobs.store.crawl_scan import admit, note_page, scan_state

from .helpers import page_result, running_run

SITE = "http://h"
SIZE = 40


def url(n: int | str) -> str:
    return f"{SITE}/{n}"


@dataclass
class FakeSite:
    """Pages /0 … /SIZE-1 linking to a few others (and to things a crawl ignores); some
    redirect (to another page of the site, or to a URL no page links to), some fail before
    their links are known, some after."""

    links: dict[str, list[str]]
    redirects: dict[str, str] = field(default_factory=dict)
    fail_before: set[str] = field(default_factory=set)
    fail_after: set[str] = field(default_factory=set)

    @classmethod
    def random(cls, seed: int) -> FakeSite:
        rng = random.Random(seed)
        links = {url(i): [url(rng.randrange(SIZE)) for _ in range(rng.randint(0, 4))] for i in range(SIZE)}
        for i in range(0, SIZE, 5):
            links[url(i)] += [f"{url(i)}#top", "mailto:x@h", "http://elsewhere/1", f"{SITE}:80/{i + 1}"]
        others = [url(i) for i in range(1, SIZE)]
        rng.shuffle(others)
        redirects = {others[2]: url("moved"), others[3]: url("moved")}
        redirects.update((others[n], others[n + 1]) for n in range(10, 14, 2))
        for n in range(14, 20):  # to a URL only some pages link to
            redirects[others[n]] = url(f"r{n}")
            for i in rng.sample(range(SIZE), 4):
                links[url(i)].insert(rng.randint(0, len(links[url(i)])), url(f"r{n}"))
        return cls(links, redirects, set(others[4:7]), set(others[7:10]))

    def final(self, page: str) -> str:
        return self.redirects.get(page, page)

    async def audit(self, page: str, want_links: bool, progress: PageProgress) -> PageAudit:
        """The page as the synchronous crawl sees it (the reference)."""
        await trio.lowlevel.checkpoint()
        if page not in self.redirects:
            progress.loaded(page)
        if want_links and page not in self.fail_before:
            progress.linked(self.links.get(page, []))
        if page in self.fail_before or page in self.fail_after:
            return PageAudit(PageResult(url=page, status="failed"))
        return PageAudit(PageResult(url=page, status="ok"), links=self.links.get(page, []) if want_links else [],
                         final_url=self.final(page))

    def step(self, store: Store, run_id: str, key: str, stage: int, want_links: bool) -> int:
        """Move one page of the job one step as a worker would: start and load it (its URL
        reported unless it redirected), report its links, record its result."""
        if stage == 0:
            store.start_page(run_id, key)
            if key not in self.redirects:
                note_page(store, run_id, key, final_url=key)
        elif stage == 1 and want_links and key not in self.fail_before:
            note_page(store, run_id, key, links=self.links.get(key, []))
        elif stage == 2:
            failed = key in self.fail_before or key in self.fail_after
            store.record_page(
                run_id, key, "failed" if failed else "ok", page_result(key, "failed" if failed else "ok"),
                final_url=None if failed else self.final(key),
                links=self.links.get(key, []) if want_links and not failed else None, if_pending=True,
            )
        return stage + 1


def request_for(depth: int, max_pages: int) -> JobRequest:
    return JobRequest.model_validate({"url": url(0), "crawl": {"enabled": True, "depth": depth, "maxPages": max_pages}})


async def level_by_level(site: FakeSite, request: JobRequest) -> list[str]:
    crawl = request.crawl
    audits = await crawl_site(
        PendingStart(url(0), lambda progress: site.audit(url(0), True, progress)), site.audit,
        depth=crawl.depth, max_pages=crawl.max_pages, concurrency=3, start_urls=[url(0)],
        reports_loaded=True, by_level=True,
    )
    return [audit.page.url for audit in audits]


def run_job(store: Store, site: FakeSite, request: JobRequest, seed: int, coordinators: int = 1,
            budget: int = 1000) -> list[str]:
    """The job's pages in seq order once every page is done; ``coordinators`` step the run
    at the same time after every change, each admitting about ``budget`` pages a step."""
    run = store.create_run(request.url, request.model_dump(mode="json"))
    store.add_pages(run.id, start_pages(request))
    store.set_run_status(run.id, "running")
    rng, stages = random.Random(seed), {}
    with ThreadPoolExecutor(coordinators) as pool:
        for _ in range(20 * SIZE):
            scans = list(pool.map(lambda _: advance(store, run.id, request, budget=budget), range(coordinators)))
            pending = [p for p in store.pages(run.id, limit=1000) if p.status in ("queued", "running")]
            if not pending:
                assert any(scan.finished for scan in scans), "no page pending, yet the crawl is not over"
                break
            # Redirected pages are slow: the pages after them are often read first.
            page = rng.choices(pending, [0.2 if p.url_key in site.redirects else 1 for p in pending])[0]
            want_links = page.depth < request.crawl.depth
            stages[page.url_key] = site.step(store, run.id, page.url_key, stages.get(page.url_key, 0), want_links)
    assert advance(store, run.id, request).finished
    pages = store.pages(run.id, limit=1000)
    assert [p.seq for p in pages] == list(range(len(pages))), "seq numbers the order, with no gap"
    assert store.get_run(run.id).pages_queued == 0
    return [p.url for p in pages]


@pytest.fixture
def sqlite_store(tmp_path):
    with open_store(tmp_path / "data") as store:
        yield store


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("depth", "max_pages"), [(3, 50), (5, 12), (2, 7), (1, 50)])
async def test_the_job_admits_the_pages_of_a_level_by_level_crawl_in_its_order(sqlite_store, seed, depth, max_pages):
    site, request = FakeSite.random(seed), request_for(depth, max_pages)
    assert run_job(sqlite_store, site, request, seed) == await level_by_level(site, request)


async def test_coordinators_racing_on_one_run_admit_each_page_once_in_the_same_order(store):
    # Two coordinators step the run at the same moment after every change (as a restarted
    # one beside the old, or two services on one database): each admission is a
    # compare-and-set of the scan with its pages, so the loser admits nothing. A small budget
    # makes each step stop part way, as a long level does.
    site, request = FakeSite.random(7), request_for(4, 30)
    assert run_job(store, site, request, 7, coordinators=2, budget=2) == await level_by_level(site, request)


def test_the_next_level_starts_while_a_page_of_this_one_is_still_audited(sqlite_store):
    store = sqlite_store
    site = FakeSite({url(0): [url(1), url(2), url(3)], url(1): [url(4), url(5)], url(2): [url(6), url(1)],
                     url(3): [url(7)]})
    request = request_for(3, 7)
    run = store.create_run(request.url, request.model_dump(mode="json"))
    store.add_pages(run.id, start_pages(request))
    store.set_run_status(run.id, "running")

    def walk(n: int, until: int) -> None:
        for stage in range(until):
            site.step(store, run.id, url(n), stage, True)

    walk(0, 2)  # the start page's links are known; its audit goes on
    assert advance(store, run.id, request).added == 3
    walk(1, 2)  # /1, the slow one, is loaded and its links are known; still audited
    assert advance(store, run.id, request).added == 0, "/2 and /3 have no final URL yet"
    walk(2, 1)
    walk(3, 1)
    assert advance(store, run.id, request).added == 2, "/1's links are decided: /4 and /5"
    walk(2, 2)  # /2 links to /6, and to /1 (seen)
    scan = advance(store, run.id, request)
    assert (scan.added, scan.finished) == (1, True), "/6 is the 7th page: maxPages is reached"
    pages = {p.url: p for p in store.pages(run.id, limit=100)}
    assert list(pages) == [url(n) for n in range(7)] and [p.depth for p in pages.values()] == [0, 1, 1, 1, 2, 2, 2]
    assert pages[url(1)].status == "running" and pages[url(0)].status == "running"


def test_a_page_redirected_to_a_link_of_its_level_is_seen_but_a_deeper_one_is_not(sqlite_store):
    # /1 redirects to /3, which /2 links to: /3 is seen when level 2 is decided. /4 (level 2)
    # redirects to /9, done before /2's links are read: a level-by-level crawl does not know
    # that yet, so /9, which /2 links to, is a page of level 2.
    store = sqlite_store
    site = FakeSite({url(0): [url(1), url(2)], url(1): [url(4)], url(2): [url(3), url(9)], url(4): []},
                    redirects={url(1): url(3), url(4): url(9)})
    request = request_for(2, 50)
    run = store.create_run(request.url, request.model_dump(mode="json"))
    store.add_pages(run.id, start_pages(request))
    store.set_run_status(run.id, "running")
    for stage in range(3):
        site.step(store, run.id, url(0), stage, True)
    advance(store, run.id, request)
    for n, stages in ((1, 3), (2, 1)):
        for stage in range(stages):
            site.step(store, run.id, url(n), stage, True)
    advance(store, run.id, request)
    for stage in range(3):
        site.step(store, run.id, url(4), stage, False)
    assert store.get_page(run.id, url(4)).final_key == url(9)
    site.step(store, run.id, url(2), 1, True)
    scan = advance(store, run.id, request)
    assert scan.finished
    assert [p.url for p in store.pages(run.id, limit=100)] == [url(0), url(1), url(2), url(4), url(9)]


def test_a_stale_scan_admits_nothing(sqlite_store):
    store = sqlite_store
    request = request_for(2, 10)
    run = store.create_run(request.url, request.model_dump(mode="json"))
    store.add_pages(run.id, start_pages(request))
    store.set_run_status(run.id, "running")
    before = scan_state(store, run.id)
    after = before._replace(position=0, pages=2, chosen=1, last_seq=1)
    page = NewPage(url(5), url(5), 1, 1)
    assert admit(store, run.id, before, after, [page])
    assert not admit(store, run.id, before, after, [page._replace(url=url(6), url_key=url(6))])
    assert scan_state(store, run.id) == after
    assert [p.url for p in store.pages(run.id, limit=10)] == [url(0), url(5)]
    assert store.get_run(run.id).pages_queued == 2


def test_early_reports_keep_the_first_and_never_touch_a_done_page(store):
    run_id = running_run(store, pages=2)
    first, second = (p.url_key for p in store.pages(run_id, limit=2))
    assert note_page(store, run_id, first, final_url=first, links=["https://site.test/a"])
    assert not note_page(store, run_id, first, final_url="https://site.test/b", links=["https://site.test/b"])
    # A page that fails once its links are known keeps them (the crawl may have used them).
    store.record_page(run_id, first, "failed", page_result(first, "failed"), if_pending=True)
    kept = store.get_page(run_id, first)
    assert (kept.final_url, kept.links, kept.final_key) == (first, ["https://site.test/a"], None)
    assert not note_page(store, run_id, first, links=["https://site.test/c"]), "a done page is final"
    store.set_run_status(run_id, "cancelled")
    assert not note_page(store, run_id, second, final_url=second), "nor does a finished run change"
    assert store.get_page(run_id, second).final_url is None


def test_a_run_begun_before_scans_were_kept_goes_on_from_its_deepest_level(sqlite_store):
    # The old coordinator admitted whole levels; the scan starts from the deepest one.
    store = sqlite_store
    request = request_for(3, 50)
    run = store.create_run(request.url, request.model_dump(mode="json"))
    store.add_pages(run.id, start_pages(request))
    store.set_run_status(run.id, "running")
    store.record_page(run.id, url(0), "ok", page_result(url(0)), final_url=url(0), links=[url(1), url(2)])
    store.add_pages(run.id, [(url(1), url(1), 1, 1), (url(2), url(2), 1, 2)])
    for n, links in ((1, [url(3), url(0)]), (2, [url(3), url(4)])):
        store.record_page(run.id, url(n), "ok", page_result(url(n)), final_url=url(n), links=links)
    scan = advance(store, run.id, request)
    assert scan.added == 2 and scan.levels == ((2, 2),)
    assert [(p.url, p.depth, p.seq) for p in store.pages(run.id, depth=2, limit=10)] == [(url(3), 2, 3), (url(4), 2, 4)]
