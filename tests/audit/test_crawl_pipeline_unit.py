"""The crawl keeps pages in flight across depth levels yet audits exactly the pages of a
level-by-level crawl, in the same order (issue #13); no browser: pages are fakes."""

from __future__ import annotations

import random

import pytest
import trio

from audit.crawl import PendingStart, crawl_site
from audit.failures import AuditFailed
from audit.models import PageResult
from audit.page_audit import PageAudit

SIZE = 40


def fake_site(seed: int, slow: dict[int, float] | None = None, links: dict[int, list[int]] | None = None):
    """Pages /0../SIZE-1, each linking to a few others (random, or ``links``); /7 redirects to
    /33, which /2 also links to; delays vary. Records the order pages start and finish."""
    rng = random.Random(seed)
    chosen = links or {i: [rng.randrange(SIZE) for _ in range(3)] for i in range(SIZE)}
    links = {i: [f"http://h/{j}" for j in chosen.get(i, [])] for i in range(SIZE)}
    links[2].append("http://h/33")
    delays = {i: (slow or {}).get(i, rng.random() / 200) for i in range(SIZE)}
    log: list[tuple[str, int]] = []

    async def audit_one(url: str, want_links: bool, progress=None) -> PageAudit:
        i = int(url.rsplit("/", 1)[1])
        log.append(("start", i))
        final = "http://h/33" if i == 7 else url
        if progress is not None and final == url:
            progress.loaded(final)
        await trio.sleep(delays[i] / 2)
        if progress is not None and want_links:  # links are known before the audit ends
            progress.linked(links[i])
        await trio.sleep(delays[i] / 2)
        log.append(("done", i))
        return PageAudit(PageResult(url=url, status="ok"), links=links[i] if want_links else [], final_url=final)

    return audit_one, log


async def crawl(seed: int, depth: int, max_pages: int, concurrency: int, **options) -> tuple[list[str], list]:
    audit_one, log = fake_site(seed, options.pop("slow", None), options.pop("links", None))
    start = await audit_one("http://h/0", True)
    log.clear()
    audits = await crawl_site(start, audit_one, depth=depth, max_pages=max_pages,
                              concurrency=concurrency, **options)
    return [a.page.url for a in audits], log


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("depth", "max_pages"), [(1, 50), (3, 50), (5, 12), (4, 7), (2, 2)])
async def test_same_pages_in_the_same_order_as_level_by_level(seed, depth, max_pages):
    by_level, _ = await crawl(seed, depth, max_pages, 3, by_level=True)
    pipelined, _ = await crawl(seed, depth, max_pages, 3, reports_loaded=True)
    assert pipelined == by_level
    assert len(set(pipelined)) == len(pipelined) <= max_pages


async def test_a_redirect_target_is_not_audited_again():
    # /0 -> /1, /2, /7; /2 links to /33, the document /7 redirects to: /33 is visited already.
    links = {0: [1, 2, 7], 1: [4], 2: [5], 7: [6]}
    for options in ({"reports_loaded": True}, {"by_level": True}):
        urls, _ = await crawl(0, 3, 50, 2, links=links, **options)
        assert urls == [f"http://h/{i}" for i in (0, 1, 2, 7, 4, 5, 6)]


async def test_next_level_starts_before_the_slowest_page_of_this_one_is_done():
    # /0 links to /1, /2 and /3; /3 is slow. Level 2 (links of /1 and /2) need not wait for it,
    # but a level-by-level crawl does.
    links = {0: [1, 2, 3], 1: [4, 5], 2: [6], 3: [8]}
    slow = {3: 0.3}

    def level_two_started_before_3_done(log) -> bool:
        return log.index(("start", 4)) < log.index(("done", 3))

    pipelined_urls, pipelined = await crawl(0, 2, 50, 3, reports_loaded=True, slow=slow, links=links)
    by_level_urls, by_level = await crawl(0, 2, 50, 3, by_level=True, slow=slow, links=links)
    assert pipelined_urls == by_level_urls == [f"http://h/{i}" for i in (0, 1, 2, 3, 4, 5, 6, 33, 8)]
    assert level_two_started_before_3_done(pipelined)
    assert not level_two_started_before_3_done(by_level)


async def test_a_pending_start_page_starts_its_links_before_its_own_audit_ends():
    # The crawl audits the start page itself: the pages it links to start as soon as its
    # links are reported, while its own audit is still running; the order is unchanged.
    links = {0: [1, 2, 3], 1: [4], 2: [5], 3: [6]}
    audit_one, log = fake_site(0, slow={0: 0.2}, links=links)

    async def audit_start(progress) -> PageAudit:
        return await audit_one("http://h/0", True, progress)

    audits = await crawl_site(PendingStart("http://h/0", audit_start), audit_one, depth=2, max_pages=50,
                              concurrency=3, reports_loaded=True)
    assert [a.page.url for a in audits] == [f"http://h/{i}" for i in (0, 1, 2, 3, 4, 5, 33, 6)]
    assert log.index(("start", 1)) < log.index(("done", 0))


async def test_a_failing_pending_start_page_ends_the_crawl_with_its_failure():
    audit_one, log = fake_site(0, links={0: [1, 2], 1: [], 2: []})

    async def audit_start(progress) -> PageAudit:
        progress.loaded("http://h/0")
        progress.linked(["http://h/1", "http://h/2"])
        await trio.sleep(0.05)
        raise AuditFailed("timeout", "the start page timed out", [])

    with pytest.raises(BaseException) as info:  # noqa: PT011 (a group around the failure)
        await crawl_site(PendingStart("http://h/0", audit_start), audit_one, depth=1, max_pages=50,
                         concurrency=3, reports_loaded=True)
    failures = info.value.exceptions if isinstance(info.value, BaseExceptionGroup) else [info.value]
    assert [type(f) for f in failures] == [AuditFailed]
