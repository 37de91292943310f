"""Which pages a job audits, and in which order: the synchronous crawl's rule, kept in the
store level by level so that it survives restarts and spans machines.

The rule (:mod:`audit.crawl` applies the same one in memory):

- **Depth 0**: ``url``, then ``crawl.urls`` in order, cut at ``maxPages``.
- **Level by level**: depth ``d + 1`` is admitted only when every page of depth ``d`` is
  done, in one transaction, so the pages of a level never depend on timing.
- **Depth d + 1** = the links of the depth-``d`` pages, page by page in ``seq`` order and
  in document order within a page, normalised, on the origin of ``url`` or of the start
  page's final URL (after redirects), not seen before, cut at ``maxPages`` pages in all.
  Links are followed only when crawling (``enabled``, ``depth`` > 0) and ``d < depth``.
  "Seen" means any page of the run or the final URL of any of them.
- **Sitemap** URLs (``crawl.sitemap``) come at depth 1, after the start pages' links, with
  the same filters.
- ``seq`` numbers pages in that order (gaps allowed), which is the order of ``pages`` and
  of the findings in the result.

With no extra seeds the pages and their order are exactly those of the synchronous
``/audit`` crawl of the same request.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from audit.crawl import normalize_url, origin_of

from .ids import url_key
from .models import JobRequest
from .store import MAX_LIMIT, NewPage, Store

START_SEQ = 0


def crawling(request: JobRequest) -> bool:
    crawl = request.crawl
    return crawl.enabled and crawl.depth > 0 and crawl.max_pages > 1


def wants_links(request: JobRequest, depth: int) -> bool:
    """Whether a page of this depth is read for links (the next level is built from them)."""
    return crawling(request) and depth < request.crawl.depth


def start_pages(request: JobRequest) -> list[NewPage]:
    """Depth 0: the start URL (seq 0) and the extra seeds, as given, each once."""
    pages: dict[str, NewPage] = {}
    for url in (request.url, *request.crawl.urls):
        key = url_key(url)
        if key not in pages and len(pages) < request.crawl.max_pages:
            pages[key] = NewPage(url, key, 0, START_SEQ + len(pages))
    return list(pages.values())


def next_level(
    store: Store, run_id: str, request: JobRequest, sitemap_urls: Sequence[str] = ()
) -> list[NewPage]:
    """The pages of the level after the deepest one (complete: the caller checked), empty
    when the crawl is over. Blocking (store reads): run it in a thread."""
    count, deepest, highest = store.frontier(run_id)
    depth = deepest + 1
    follow_links = wants_links(request, deepest)
    use_sitemap = depth == 1 and request.crawl.sitemap
    room = request.crawl.max_pages - count
    if room <= 0 or not (follow_links or use_sitemap):
        return []
    keys, finals = store.visited_keys(run_id)
    seen = set(keys) | {key for key in map(normalize_url, finals) if key}
    origins = _origins(store, run_id, request)
    chosen: list[str] = []
    sources = [_level_links(store, run_id, deepest)] if follow_links else []
    if use_sitemap:
        sources.append(iter(sitemap_urls))
    for source in sources:
        for link in source:
            key = normalize_url(link)
            if key is None or key in seen or origin_of(key) not in origins:
                continue
            seen.add(key)
            chosen.append(key)
            if len(chosen) >= room:
                break
        if len(chosen) >= room:
            break
    return [NewPage(key, key, depth, highest + n) for n, key in enumerate(chosen, 1)]


def _origins(store: Store, run_id: str, request: JobRequest) -> set[tuple[str, str, int]]:
    """The start URL's origin, and that of the start page's final URL."""
    start = store.get_page(run_id, url_key(request.url))
    found = {origin_of(request.url), origin_of(start.final_url or request.url)}
    return {origin for origin in found if origin is not None}


def _level_links(store: Store, run_id: str, depth: int) -> Iterator[str]:
    """The links of the pages of ``depth`` in ``seq`` order, read a window at a time."""
    offset = 0
    while window := store.pages(run_id, depth=depth, offset=offset, limit=MAX_LIMIT):
        for page in window:
            yield from page.links or ()
        offset += len(window)
        if len(window) < MAX_LIMIT:
            return
