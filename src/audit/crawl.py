"""Breadth-first crawl of one origin, auditing several pages at once.

The pages are those of a level-by-level crawl: every page of depth ``d`` comes before any page
of depth ``d + 1``, and links are taken in document order, page by page, so the set of pages
audited under a ``maxPages`` limit does not depend on timing. The audits themselves do not
wait for levels: ``concurrency`` pages stay in flight (see :func:`crawl_site`). A URL is
normalized before it is compared (see :func:`normalize_url`) and is never visited twice.
Which pages fail or are skipped is decided by the ``audit_one`` callable; only browser loss
ends the crawl early (it propagates out of ``audit_one``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

import trio

from .page_audit import PageAudit

DEFAULT_PORTS = {"http": 80, "https": 443}

#: ``audit_one(url, want_links)`` (or, see ``reports_loaded``, ``(url, want_links, progress)``).
AuditOne = Callable[..., Awaitable[PageAudit]]
OnAudit = Callable[[PageAudit], None]


@dataclass(frozen=True)
class PageProgress:
    """What a page's audit tells the crawl before it ends, so the crawl can decide the next
    pages while this one is still audited: its document's URL (``loaded``, once known) and
    its links (``linked``, once the document has settled; axe changes no link)."""

    loaded: Callable[[str], None]
    linked: Callable[[list[str]], None]


@dataclass(frozen=True)
class PendingStart:
    """A start page the crawl audits itself (its links can start the next level before its
    audit ends); a failure of ``audit`` is the crawl's, and ends it."""

    url: str
    audit: Callable[[PageProgress], Awaitable[PageAudit]]


def normalize_url(url: str, base: str | None = None) -> str | None:
    """Absolute http(s) URL without fragment, scheme and host lower-cased, default port
    dropped, empty path as ``/``, query kept; None for anything else (mailto:, javascript:…)."""
    try:
        parts = urlsplit(urljoin(base, url) if base else url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname
    if scheme not in DEFAULT_PORTS or not host:
        return None
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


def origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the default port filled in."""
    normal = normalize_url(url)
    if normal is None:
        return None
    parts = urlsplit(normal)
    return parts.scheme, parts.hostname or "", parts.port or DEFAULT_PORTS[parts.scheme]


class Frontier:
    """URLs seen so far and the same-origin links still to visit, in discovery order."""

    def __init__(self, origins: Iterable[str]) -> None:
        self.origins = {o for o in (origin_of(u) for u in origins) if o is not None}
        self.seen: set[str] = set()

    def mark(self, url: str) -> None:
        normal = normalize_url(url) if url else None
        if normal is not None:
            self.seen.add(normal)

    def new_links(self, links: Iterable[str], base: str | None = None) -> list[str]:
        """Unvisited same-origin links, normalized, each marked as seen."""
        found: list[str] = []
        for link in links:
            normal = normalize_url(link, base)
            if normal is None or normal in self.seen or origin_of(normal) not in self.origins:
                continue
            self.seen.add(normal)
            found.append(normal)
        return found


class _Page:
    """One page of the crawl, in the order the plain breadth-first crawl would audit it."""

    def __init__(self, url: str, want_links: bool) -> None:
        self.url = url
        self.want_links = want_links
        self.audit: PageAudit | None = None
        #: The document's URL once loaded ("" for a page that failed); None while unknown.
        self.final_url: str | None = None
        #: The document's links once known (the first report wins); None while unknown.
        self.links: list[str] | None = None

    def loaded(self, final_url: str) -> None:
        if self.final_url is None:
            self.final_url = final_url

    def linked(self, links: list[str]) -> None:
        if self.links is None:
            self.links = list(links)


async def crawl_site(
    start: PageAudit | PendingStart,
    audit_one: AuditOne,
    *,
    depth: int,
    max_pages: int,
    concurrency: int,
    start_urls: Iterable[str] = (),
    on_audit: OnAudit | None = None,
    reports_loaded: bool = False,
    by_level: bool = False,
) -> list[PageAudit]:
    """``start`` (audited already, or :class:`PendingStart`) plus every page reachable within
    ``depth`` link hops,
    at most ``max_pages`` pages in all (failed and skipped pages count), in breadth-first
    order.

    Which pages those are is decided exactly as a crawl that audits level by level would:
    the pages of depth ``d + 1`` are the new links of the pages of depth ``d``, page by page
    in that order, once every page of depth ``d`` has marked its final URL (a redirect's
    target counts as visited). But no level waits for the one before it to finish: a page
    is audited as soon as its place in that order is decided, so ``concurrency`` pages stay
    in flight across levels, and the result is reported in the order, not as it came.

    With ``reports_loaded``, ``audit_one`` is called as ``audit_one(url, want_links,
    progress)`` and reports through :class:`PageProgress` the page's document URL and links
    as soon as they are known, so the next level's order is settled, and its pages started,
    while the pages of this one are still audited. A page that fails after reporting its
    links keeps them (they are the links of a document that loaded), in either mode.
    ``by_level`` makes every level wait until the one before it is done (the plain crawl,
    kept to measure the difference and to compare the two).
    """
    crawl = _Crawl(start, audit_one, depth=depth, max_pages=max_pages, concurrency=concurrency,
                   start_urls=start_urls, on_audit=on_audit, reports_loaded=reports_loaded,
                   by_level=by_level)
    return await crawl.run()


class _Crawl:
    """The scheduler of :func:`crawl_site`: levels of :class:`_Page` in order, a scan that
    turns level ``d`` into level ``d + 1``, and the tasks auditing the pages."""

    def __init__(
        self,
        start: PageAudit,
        audit_one: AuditOne,
        *,
        depth: int,
        max_pages: int,
        concurrency: int,
        start_urls: Iterable[str],
        on_audit: OnAudit | None,
        reports_loaded: bool,
        by_level: bool,
    ) -> None:
        if isinstance(start, PageAudit):
            first = _Page(start.page.url, True)
            first.audit, first.final_url, first.links = start, start.final_url, start.links
            self.pending_start: PendingStart | None = None
            known = [start.page.url, *start_urls, start.final_url]
        else:
            first = _Page(start.url, True)
            self.pending_start = start
            known = [start.url, *start_urls]
        self.frontier = Frontier(u for u in known if u)
        for url in known:
            self.frontier.mark(url)
        self.levels: list[list[_Page]] = [[first]]
        self.audit_one = audit_one
        self.depth = depth
        self.max_pages = max_pages
        self.limiter = trio.CapacityLimiter(max(1, concurrency))
        self.on_audit = on_audit
        self.reports_loaded = reports_loaded
        self.by_level = by_level
        self.changed = trio.Event()
        # The scan: level ``scanning`` is final; its pages up to ``position`` are scanned.
        self.scanning = 0
        self.position = 0
        self.marked = False

    async def run(self) -> list[PageAudit]:
        async with trio.open_nursery() as nursery:
            if self.pending_start is not None:
                nursery.start_soon(self._audit, self.levels[0][0])
            while self._scan(nursery):
                await self.changed.wait()
                self.changed = trio.Event()
        return [page.audit for level in self.levels for page in level if page.audit is not None]

    def _scan(self, nursery: trio.Nursery) -> bool:
        """Decide every page whose place is known now and start it; False once the crawl has
        no page left to decide or to audit."""
        while self.scanning < self.depth:
            level = self.levels[self.scanning]
            if not self.marked:
                if any(page.final_url is None or (self.by_level and page.audit is None) for page in level):
                    return True
                for page in level:  # a redirect's target counts as visited too
                    self.frontier.mark(page.final_url or "")
                self.marked = True
                self.levels.append([])
            following = self.levels[self.scanning + 1]
            room = self.max_pages - sum(len(lv) for lv in self.levels[:-1])
            while self.position < len(level):
                page = level[self.position]
                if page.links is None:
                    return True
                for url in self.frontier.new_links(page.links):
                    if len(following) < room:
                        following.append(_Page(url, self.scanning + 1 < self.depth))
                        nursery.start_soon(self._audit, following[-1])
                self.position += 1
            if not following or room <= len(following):
                break  # no deeper level, or no room for one
            self.scanning, self.position, self.marked = self.scanning + 1, 0, False
        return any(page.audit is None for level in self.levels for page in level)

    async def _audit(self, page: _Page) -> None:
        async with self.limiter:
            if page is self.levels[0][0] and self.pending_start is not None:
                audit = await self.pending_start.audit(self._progress(page))
            elif self.reports_loaded:
                audit = await self.audit_one(page.url, page.want_links, self._progress(page))
            else:
                audit = await self.audit_one(page.url, page.want_links)
        page.loaded(audit.final_url)
        page.linked(audit.links)
        page.audit = audit
        self.changed.set()
        if self.on_audit is not None:
            self.on_audit(audit)

    def _progress(self, page: _Page) -> PageProgress:
        """Reports that wake the scan: a page's document URL and its links (a level-by-level
        crawl records them too, but scans a level only once all of it is done)."""

        def loaded(final_url: str) -> None:
            page.loaded(final_url)
            self.changed.set()

        def linked(links: list[str]) -> None:
            page.linked(links)
            self.changed.set()

        return PageProgress(loaded, linked)
