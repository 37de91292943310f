"""The store's side of the crawl that never waits (``jobs.frontier``): what workers report
of a page before its audit ends, and the per-run scan that turns one level's links into the
next level's pages.

Every read is bounded (a window of one level, or a lookup of given keys through an index),
so a coordinator's step costs the same on a run of 100 pages as on one of 100,000. Like
:class:`Store`, every function is one short transaction, synchronous and thread-safe.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from sqlalchemy import Connection, exists, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..ids import redirect_key
from .database import read_transaction, write_transaction
from .errors import Conflict
from .records import PAGE_DONE, PAGE_PENDING, RUN_FINISHED, NewPage
from .schema import crawl_scans, pages, runs
from .store import Store

_INSERT_OR_IGNORE = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}
#: Keys per ``IN (...)`` lookup: far below either database's limit on bound parameters.
_LOOKUP_CHUNK = 500


class ScanState(NamedTuple):
    """A run's row of ``crawl_scans``: level ``depth`` is being read for links; its pages up
    to seq ``position`` have been; ``pages`` pages are admitted in all, ``chosen`` of them
    into level ``depth + 1``, the last with seq ``last_seq``; ``finished``: nothing is left
    to decide."""

    depth: int
    position: int
    pages: int
    chosen: int
    last_seq: int
    finished: bool


class LinkedPage(NamedTuple):
    seq: int
    links: list[str]


def note_page(
    store: Store, run_id: str, url_key: str, *, final_url: str | None = None,
    links: Sequence[str] | None = None,
) -> bool:
    """Keep what a worker learnt of a page before its audit ended: its document's URL and its
    links. Only on a page still pending of an unfinished run, and only what is not known
    yet (the first report wins, as in ``audit.crawl``), so a repeated or late report (a
    redelivery, a worker that lost its lease) changes nothing the crawl may have used.
    Returns whether anything was written."""
    if final_url is None and links is None:
        return False
    unfinished = exists().where(runs.c.id == run_id, runs.c.status.not_in(RUN_FINISHED))
    pending = (pages.c.run_id == run_id, pages.c.url_key == url_key, pages.c.status.in_(PAGE_PENDING), unfinished)
    written = 0
    with write_transaction(store.engine) as conn:
        if final_url is not None:
            written += conn.execute(
                update(pages).where(*pending, pages.c.final_url.is_(None))
                .values(final_url=final_url, final_key=redirect_key(url_key, final_url))
            ).rowcount
        if links is not None:
            written += conn.execute(
                update(pages).where(*pending, pages.c.links.is_(None)).values(links=list(links))
            ).rowcount
    return written > 0


def scan_state(store: Store, run_id: str) -> ScanState | None:
    """The run's scan; made on first use from the pages it has (the start pages, or, for a
    run begun before scans were kept, the deepest level, which was admitted whole). None
    for a run without pages yet."""
    state = _read_state(store, run_id)
    if state is not None:
        return state
    count, deepest, highest = store.frontier(run_id)
    if not count:
        return None
    first = select(func.min(pages.c.seq)).where(pages.c.run_id == run_id, pages.c.depth == deepest)
    with write_transaction(store.engine) as conn:
        position = conn.execute(first).scalar_one() - 1
        row = {"run_id": run_id, "depth": deepest, "position": position, "pages": count, "chosen": 0,
               "last_seq": highest, "finished": False}
        insert = _INSERT_OR_IGNORE[conn.dialect.name](crawl_scans).values(row)
        conn.execute(insert.on_conflict_do_nothing(index_elements=[crawl_scans.c.run_id]))
    return _read_state(store, run_id)


def level_settled(store: Store, run_id: str, depth: int, after: int, through: int) -> bool:
    """Whether every page of ``depth`` with a seq past ``after`` (up to ``through``, the
    level's last) has a final URL: it reported one, or it is done (one that failed has none,
    which is known too). Reads at most the level's pages in flight: its queued pages come
    first in the index and have none."""
    unknown = select(pages.c.id).where(
        pages.c.run_id == run_id, pages.c.status.in_(PAGE_PENDING), pages.c.seq > after,
        pages.c.seq <= through, pages.c.depth == depth, pages.c.final_url.is_(None),
    ).limit(1)
    with read_transaction(store.engine) as conn:
        return conn.execute(unknown).first() is None


def linked_pages(
    store: Store, run_id: str, depth: int, after: int, through: int, limit: int
) -> tuple[list[LinkedPage], bool]:
    """The pages of ``depth`` after seq ``after`` (up to ``through``, the level's last) whose
    links are known, in seq order, up to the first whose links are not (at most ``limit``);
    and whether the level ends with them. A page done without links (it failed first, or
    was not HTML) has none."""
    window = (
        select(pages.c.seq, pages.c.status, pages.c.links.is_not(None))
        .where(pages.c.run_id == run_id, pages.c.seq > after, pages.c.seq <= through, pages.c.depth == depth)
        .order_by(pages.c.seq)
        .limit(limit)
    )
    with read_transaction(store.engine) as conn:
        rows = conn.execute(window).all()
        known = 0
        while known < len(rows) and (rows[known][1] in PAGE_DONE or rows[known][2]):
            known += 1
        at_end = known == len(rows) < limit
        if not known:
            return [], at_end
        read = (
            select(pages.c.seq, pages.c.links)
            .where(pages.c.run_id == run_id, pages.c.seq > after, pages.c.seq <= rows[known - 1][0],
                   pages.c.depth == depth)
            .order_by(pages.c.seq)
        )
        return [LinkedPage(seq, list(links or ())) for seq, links in conn.execute(read)], at_end


def seen(store: Store, run_id: str, keys: Iterable[str], depth: int) -> set[str]:
    """Those of ``keys`` the crawl has seen when it decides level ``depth + 1``: a page of the
    run has that key, or a page of depth ``depth`` or less ended there (a redirect). The
    final URLs of deeper pages do not count: a level-by-level crawl would not know them
    yet."""
    wanted = list(dict.fromkeys(keys))
    found: set[str] = set()
    with read_transaction(store.engine) as conn:
        for start in range(0, len(wanted), _LOOKUP_CHUNK):
            chunk = wanted[start:start + _LOOKUP_CHUNK]
            found.update(conn.execute(
                select(pages.c.url_key).where(pages.c.run_id == run_id, pages.c.url_key.in_(chunk))
            ).scalars())
            found.update(conn.execute(
                select(pages.c.final_key).where(
                    pages.c.run_id == run_id, pages.c.final_key.in_(chunk), pages.c.depth <= depth
                )
            ).scalars())
    return found


def level_size(store: Store, run_id: str, depth: int) -> int:
    query = select(func.count()).where(pages.c.run_id == run_id, pages.c.depth == depth)
    with read_transaction(store.engine) as conn:
        return conn.execute(query).scalar_one()


def admit(store: Store, run_id: str, before: ScanState, after: ScanState, new_pages: list[NewPage]) -> bool:
    """Move the scan from ``before`` to ``after`` and add ``new_pages``, in one transaction;
    False, with nothing written, when the scan is no longer at ``before`` (another
    coordinator moved it: the caller reads it again) or the run has finished."""

    moved = False

    def move(conn: Connection) -> bool:
        nonlocal moved
        update_scan = update(crawl_scans).where(*_at(run_id, before)).values(after._asdict())
        moved = conn.execute(update_scan).rowcount == 1
        return moved

    try:
        store.add_pages(run_id, new_pages, guard=move)
    except Conflict:
        return False
    return moved


def _at(run_id: str, state: ScanState) -> list[Any]:
    return [crawl_scans.c.run_id == run_id, *(crawl_scans.c[name] == value for name, value in state._asdict().items())]


def _read_state(store: Store, run_id: str) -> ScanState | None:
    query = select(*(crawl_scans.c[name] for name in ScanState._fields)).where(crawl_scans.c.run_id == run_id)
    with read_transaction(store.engine) as conn:
        row = conn.execute(query).first()
    return None if row is None else ScanState(*row)
