"""Which pages a job audits, and in which order: the synchronous crawl's rule, kept in the
store so that it survives restarts and spans machines.

The rule (:mod:`audit.crawl` applies the same one in memory):

- **Depth 0**: ``url``, then ``crawl.urls`` in order, cut at ``maxPages``.
- **Depth d + 1** = the links of the depth-``d`` pages, page by page in ``seq`` order and
  in document order within a page, normalised, on the origin of ``url`` or of the start
  page's final URL (after redirects), not seen before, cut at ``maxPages`` pages in all.
  Links are followed only when crawling (``enabled``, ``depth`` > 0) and ``d < depth``.
  "Seen" means a page of the run or the final URL of a page of depth ``d`` or less.
- **Sitemap** URLs (``crawl.sitemap``) come at depth 1, after the start pages' links, with
  the same filters.
- ``seq`` numbers pages in that order (gaps allowed), which is the order of ``pages`` and
  of the findings in the result.

With no extra seeds the pages and their order are exactly those of the synchronous
``/audit`` crawl of the same request.

**When a page is decided** (issue #23): as soon as its place in that order is certain, not
once the level before it is done, so a job keeps its slots busy across levels and one page
slow to audit holds back no other (nor does a frozen worker, once its page's links are
known). Workers report a page's final URL
and links as soon as its document has loaded and settled (``crawl_scan.note_page``), long
before its audit ends. Level ``d + 1`` starts being decided once every page of level ``d``
has a final URL (or is done: a page that failed first has none, and no links); the pages of
level ``d`` are then read in ``seq`` order, and each one's new links are admitted as soon as
its links are known and every page before it has been read, until ``maxPages``. The
decision uses only what a level-by-level crawl knows at that point: the pages admitted so
far (all of depth ``d + 1`` or less), the final URLs of depth ``d`` or less (never of
deeper pages) and the links of level ``d`` in order, so the pages and their ``seq`` are
exactly its.

Where the scan stands is one row per run (``crawl_scans``), moved by a compare-and-set in
the transaction that adds the pages it decided: a restarted coordinator, or a second one on
the same database, continues from it and never admits a page twice. A step reads windows
of one level and looks the candidate links up by key, so what it costs does not grow with
the run; it admits about ``BUDGET`` pages at most, so the first pages of a huge level are
enqueued while the rest are decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from audit.crawl import normalize_url, origin_of

from .ids import url_key
from .models import JobRequest
from .store import NewPage, Store
from .store import crawl_scan as scans
from .store.crawl_scan import ScanState

START_SEQ = 0
#: Pages of a level read per window (their links are read for the known ones only).
WINDOW = 200
#: Pages one call of :func:`advance` admits at most (a few hundred ms of SQLite), so a
#: huge level is enqueued, and audited, while the rest of it is still being decided.
BUDGET = 1000


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


@dataclass(frozen=True)
class Scan:
    """What one :func:`advance` did: ``added`` pages admitted; ``levels`` the (depth, pages)
    of each level it completed; ``finished`` when nothing is left to decide; ``sitemap`` set
    when it needs the sitemap's URLs (at most that many) to go on; ``more`` when it stopped
    at its budget with pages still to admit now."""

    added: int = 0
    levels: tuple[tuple[int, int], ...] = ()
    finished: bool = False
    sitemap: int | None = None
    more: bool = False


def advance(
    store: Store, run_id: str, request: JobRequest, sitemap: Sequence[str] | None = None, *,
    budget: int = BUDGET,
) -> Scan:
    """Admit the pages whose place is decided now (see the module's docstring), about
    ``budget`` at most, and say whether the crawl has nothing left to decide. Idempotent,
    and safe beside another coordinator stepping the same run. Blocking (store reads): run
    it in a thread."""
    state = scans.scan_state(store, run_id)
    added, levels = 0, []
    origins: set[tuple[str, str, int]] | None = None
    while state is not None and not state.finished:
        if added >= budget:
            return Scan(added, tuple(levels), more=True)
        depth = state.depth
        follow = wants_links(request, depth)
        use_sitemap = depth == 0 and request.crawl.sitemap
        room = request.crawl.max_pages - state.pages
        new: list[str] = []
        if room <= 0 or not (follow or use_sitemap):
            moved = state._replace(finished=True)
        elif not scans.level_settled(store, run_id, depth, state.position, _last_of_level(state)):
            break  # a page of the level may still end at a URL a link names
        else:
            origins = origins or _origins(store, run_id, request)
            through = _last_of_level(state)
            linked, at_end = scans.linked_pages(store, run_id, depth, state.position, through, WINDOW) if follow else ([], True)
            if linked:
                new = _unseen(store, run_id, depth, origins, (page.links for page in linked), room)
                moved = _took(state, new, position=linked[-1].seq, finished=len(new) >= room)
            elif not at_end:
                break  # waiting for the links of the level's next page
            else:
                if use_sitemap:
                    if sitemap is None:
                        limit = request.crawl.max_pages - scans.level_size(store, run_id, 0)
                        return Scan(added, tuple(levels), sitemap=max(limit, 0))
                    new = _unseen(store, run_id, depth, origins, [sitemap], room)
                moved = _next_level(request, _took(state, new, finished=len(new) >= room))
                levels.append((depth + 1, state.chosen + len(new)))
        level = [NewPage(key, key, depth + 1, state.last_seq + n) for n, key in enumerate(new, 1)]
        if not scans.admit(store, run_id, state, moved, level):
            break  # another coordinator moved the scan: the next step reads it again
        added, state = added + len(level), moved
    return Scan(added, tuple(levels), finished=state is not None and state.finished)


def _last_of_level(state: ScanState) -> int:
    """The highest seq of the level being read: the next level's pages come after it."""
    return state.last_seq - state.chosen


def _took(state: ScanState, new: list[str], *, position: int | None = None, finished: bool) -> ScanState:
    """The scan once ``new`` pages joined the next level (and the level was read up to
    ``position``)."""
    return state._replace(
        position=state.position if position is None else position,
        pages=state.pages + len(new), chosen=state.chosen + len(new),
        last_seq=state.last_seq + len(new), finished=finished,
    )


def _next_level(request: JobRequest, state: ScanState) -> ScanState:
    """The scan once its level is read whole: on to the next one, unless that one is empty,
    full, or not read for links."""
    if state.finished or not state.chosen or not wants_links(request, state.depth + 1):
        return state._replace(finished=True)
    return state._replace(depth=state.depth + 1, position=state.last_seq - state.chosen, chosen=0)


def _unseen(
    store: Store, run_id: str, depth: int, origins: set[tuple[str, str, int]],
    sources: Iterable[Iterable[str]], room: int,
) -> list[str]:
    """The first ``room`` links of ``sources`` (in order) the crawl has not seen, on the
    crawl's origins, normalised, each once."""
    candidates: dict[str, None] = {}
    for links in sources:
        for link in links:
            key = normalize_url(link)
            if key is not None and key not in candidates and origin_of(key) in origins:
                candidates[key] = None
    known = scans.seen(store, run_id, candidates, depth)
    return [key for key in candidates if key not in known][:room]


def _origins(store: Store, run_id: str, request: JobRequest) -> set[tuple[str, str, int]]:
    """The start URL's origin, and that of the start page's final URL."""
    start = store.get_page(run_id, url_key(request.url))
    found = {origin_of(request.url), origin_of(start.final_url or request.url)}
    return {origin for origin in found if origin is not None}
