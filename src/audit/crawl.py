"""Breadth-first crawl of one origin, auditing several pages at once.

The crawl is level by level: every page of depth ``d`` is audited (``concurrency`` at a time)
before any page of depth ``d + 1``, and links are taken in document order, page by page, so
the set of pages audited under a ``maxPages`` limit does not depend on timing. A URL is
normalized before it is compared (see :func:`normalize_url`) and is never visited twice.
Which pages fail or are skipped is decided by the ``audit_one`` callable; only browser loss
ends the crawl early (it propagates out of ``audit_one``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import urljoin, urlsplit, urlunsplit

import trio

from .page_audit import PageAudit

DEFAULT_PORTS = {"http": 80, "https": 443}

AuditOne = Callable[[str, bool], Awaitable[PageAudit]]
OnAudit = Callable[[PageAudit], None]


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


async def audit_batch(
    urls: list[str],
    audit_one: AuditOne,
    *,
    want_links: bool,
    concurrency: int,
    on_audit: OnAudit | None = None,
) -> list[PageAudit]:
    """Audit ``urls`` with at most ``concurrency`` in flight; results in ``urls`` order."""
    limiter = trio.CapacityLimiter(max(1, concurrency))
    results: list[PageAudit | None] = [None] * len(urls)

    async def one(index: int, url: str) -> None:
        async with limiter:
            audit = await audit_one(url, want_links)
        results[index] = audit
        if on_audit is not None:
            on_audit(audit)

    async with trio.open_nursery() as nursery:
        for index, url in enumerate(urls):
            nursery.start_soon(one, index, url)
    return [r for r in results if r is not None]


async def crawl_site(
    start: PageAudit,
    audit_one: AuditOne,
    *,
    depth: int,
    max_pages: int,
    concurrency: int,
    start_urls: Iterable[str] = (),
    on_audit: OnAudit | None = None,
) -> list[PageAudit]:
    """``start`` (already audited) plus every page reachable within ``depth`` link hops,
    at most ``max_pages`` pages in all (failed and skipped pages count)."""
    known = [start.page.url, *start_urls, start.final_url]
    frontier = Frontier(u for u in known if u)
    for url in known:
        frontier.mark(url)
    audits = [start]
    level = frontier.new_links(start.links)
    for current_depth in range(1, depth + 1):
        room = max_pages - len(audits)
        if not level or room <= 0:
            break
        batch = await audit_batch(
            level[:room],
            audit_one,
            want_links=current_depth < depth,
            concurrency=concurrency,
            on_audit=on_audit,
        )
        audits.extend(batch)
        for audit in batch:  # a redirect's target counts as visited too
            frontier.mark(audit.final_url)
        level = [link for audit in batch for link in frontier.new_links(audit.links)]
    return audits
