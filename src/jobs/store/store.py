"""The run store: every read and write of runs, pages, findings and events, one method each.

Methods are synchronous and thread-safe (each takes a pooled connection for one short
transaction); Trio code calls them through ``trio.to_thread.run_sync``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, Row, Select, delete, exists, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL

from ..ids import new_run_id, redirect_key, site_of
from .database import read_transaction, redact, write_transaction
from .errors import Conflict, NotFound
from .migrate import current_revision
from .records import (
    FINDING_KINDS,
    IMPACTS,
    PAGE_DONE,
    PAGE_PENDING,
    PAGE_STATUSES,
    RUN_FINISHED,
    RUN_KINDS,
    RUN_STATUSES,
    RUN_TRANSITIONS,
    Event,
    FindingRecord,
    Json,
    NewPage,
    Page,
    Run,
    StoredFinding,
)
from .schema import events, findings, pages, run_secrets, runs, utc_now

MAX_LIMIT = 1000
COUNTERS = ("pages_done", "pages_failed", "pages_queued", "findings_total", *IMPACTS)
_INSERT_OR_IGNORE = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}
T = TypeVar("T")


class Store:
    """Runs, their pages, findings and events in one SQL database (SQLite or PostgreSQL).

    Invariants every method keeps:
    - A page is one row per (run, url_key): adding a URL the run has is a no-op, and
      recording a page's result replaces its previous result and findings in one
      transaction, so a redelivered page leaves exactly one copy.
    - A run only moves along ``RUN_TRANSITIONS`` (queued → running → completed | failed |
      cancelled; queued → failed | cancelled); anything else is a ``Conflict``. A finished
      run is frozen: its pages and counters no longer change, late writes of workers are
      dropped and say so by their return value. Its request's secrets, kept apart from
      ``runs.request`` while it ran, are gone.
    - A run's counters are the sum over its page rows of what each row contributes
      (``_contribution``): every write that changes a row applies the difference between the
      row's contribution after and before, read under the row's lock, so re-deliveries and
      concurrent writers can neither double-count nor lose a page.
    - Events of one run are committed in id order (their insert holds the run's row lock),
      so a reader that has seen id N never later finds a smaller one.
    - Lists are ordered deterministically and paginated with ``offset``/``limit``
      (``limit`` at most ``MAX_LIMIT``).
    """

    def __init__(self, engine: Engine, url: URL) -> None:
        """Use ``open_store``, which migrates the database first."""
        self._engine = engine
        self._url = url

    def __repr__(self) -> str:
        return f"Store({redact(self._url)})"

    @property
    def dialect(self) -> str:
        return self._engine.dialect.name

    @property
    def engine(self) -> Engine:
        """For the store's satellite modules (``artifacts``, ``sites``), which keep their own queries."""
        return self._engine

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def ping(self) -> None:
        """One round trip to the database; ``StoreUnavailable`` when it does not answer."""
        with read_transaction(self._engine) as conn:
            conn.execute(select(1))

    @property
    def file(self) -> str | None:
        """The SQLite file of an embedded store; None for a database server."""
        return self._url.database if self.dialect == "sqlite" else None

    def revision(self) -> str | None:
        """The schema revision the database is at (Alembic's head after ``open_store``)."""
        with read_transaction(self._engine) as conn:
            return current_revision(conn)

    # ------------------------------------------------------------------ runs

    def create_run(
        self,
        url: str,
        request: Mapping[str, Any],
        *,
        kind: str = "job",
        secrets: Mapping[str, Any] | None = None,
        submitted_by: str | None = None,
    ) -> Run:
        """A new queued run; ``request`` must already have its secrets redacted, and the
        secrets (``jobs.secrets.split_secrets``), if any, are kept apart with the run until
        it finishes. ``submitted_by`` names the API token that started it, if any."""
        _check(kind, RUN_KINDS, "run kind")
        now = utc_now()
        values = {
            "id": new_run_id(), "url": url, "site": site_of(url), "kind": kind,
            "status": "queued", "request": dict(request), "created_at": now,
            "submitted_by": submitted_by,
        }
        with write_transaction(self._engine) as conn:
            run = _run(conn.execute(insert(runs).values(values).returning(*runs.c)).one())
            if secrets:
                conn.execute(insert(run_secrets).values(run_id=run.id, data=dict(secrets), created_at=now))
            return run

    def run_secrets(self, run_id: str) -> dict[str, Any]:
        """The secrets of an unfinished run's request; empty when it has none, or has
        finished (they are deleted then)."""
        query = select(run_secrets.c.data).where(run_secrets.c.run_id == run_id)
        with read_transaction(self._engine) as conn:
            return dict(conn.execute(query).scalar() or {})

    def get_run(self, run_id: str) -> Run:
        with read_transaction(self._engine) as conn:
            row = conn.execute(select(runs).where(runs.c.id == run_id)).first()
        if row is None:
            raise NotFound(f"no run {run_id}")
        return _run(row)

    def list_runs(
        self,
        *,
        url: str | None = None,
        status: str | None = None,
        kind: str | None = None,
        sites: Iterable[str] | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> list[Run]:
        """Runs newest first (ids sort by creation time), optionally of one URL (as given at
        creation), status or kind, and only of ``sites`` (origins) when given."""
        query = select(runs).order_by(runs.c.id.desc())
        if sites is not None:
            query = query.where(runs.c.site.in_(sorted(sites)))
        if url is not None:
            query = query.where(runs.c.url == url)
        if status is not None:
            query = query.where(runs.c.status == _check(status, RUN_STATUSES, "run status"))
        if kind is not None:
            query = query.where(runs.c.kind == _check(kind, RUN_KINDS, "run kind"))
        with read_transaction(self._engine) as conn:
            return [_run(row) for row in conn.execute(_window(query, offset, limit))]

    def unfinished_runs(self) -> list[Run]:
        """Queued and running runs, oldest first: what a restarted service resumes. Not
        paginated: it is bounded by the runs in flight, not by history."""
        query = select(runs).where(runs.c.status.not_in(RUN_FINISHED)).order_by(runs.c.id)
        with read_transaction(self._engine) as conn:
            return [_run(row) for row in conn.execute(query)]

    def set_run_status(
        self,
        run_id: str,
        status: str,
        *,
        error: Mapping[str, Any] | None = None,
        result: Mapping[str, Any] | None = None,
    ) -> Run:
        """Move a run along ``RUN_TRANSITIONS``, stamping ``started_at`` / ``finished_at``.
        ``error`` is ``{code, message, details}``; ``result`` is the result header, whose
        ``score`` is also kept in the run's ``score`` column for lists. A finished run's
        secrets are deleted in the same transaction."""
        _check(status, RUN_STATUSES, "run status")
        sources = [old for old, targets in RUN_TRANSITIONS.items() if status in targets]
        values: dict[str, Any] = {"status": status}
        if status == "running":
            values["started_at"] = utc_now()
        if status in RUN_FINISHED:
            values["finished_at"] = utc_now()
        if error is not None:
            values["error"] = dict(error)
        if result is not None:
            values["result"] = dict(result)
            values["score"] = result.get("score")
        statement = (
            update(runs)
            .where(runs.c.id == run_id, runs.c.status.in_(sources))
            .values(values)
            .returning(*runs.c)
        )
        with write_transaction(self._engine) as conn:
            row = conn.execute(statement).first()
            if row is None:
                current = self._run_status(conn, run_id)
                raise Conflict(f"run {run_id} is {current}; it cannot become {status}")
            if status in RUN_FINISHED:  # nothing loads its pages any more
                conn.execute(delete(run_secrets).where(run_secrets.c.run_id == run_id))
            return _run(row)

    # ----------------------------------------------------------------- pages

    def add_pages(
        self, run_id: str, new_pages: Iterable[NewPage | tuple[str, str, int, int]], *,
        guard: Callable[[Connection], bool] | None = None,
    ) -> int:
        """Add frontier entries (queued pages); a url_key the run already has, or that comes
        again in ``new_pages`` (the first one counts), is ignored. Returns how many pages
        were new (0 for a finished run, which takes no pages). ``guard`` (the frontier's
        compare-and-set of its scan) writes first in the same transaction; when it returns
        False nothing is written and ``Conflict`` is raised."""
        now = utc_now()
        by_key: dict[str, Json] = {}
        for page in map(NewPage._make, new_pages):
            by_key.setdefault(page.url_key, {
                "run_id": run_id, "url": page.url, "url_key": page.url_key, "depth": page.depth,
                "seq": page.seq, "status": "queued", "updated_at": now,
            })
        # Inserted in key order: two writers adding overlapping sets then wait on each
        # other's keys in the same order, never in a cycle.
        rows = [by_key[key] for key in sorted(by_key)]
        with write_transaction(self._engine) as conn:
            if self._run_status(conn, run_id) in RUN_FINISHED:
                return 0
            if guard is not None and not guard(conn):
                raise Conflict(f"run {run_id}: the crawl moved on meanwhile")
            added = self._insert_pages(conn, rows) if rows else 0
            if not self._bump_counters(conn, run_id, {"pages_queued": added}):
                conn.rollback()
                return 0
            return added

    def requeue_running(self, run_id: str, *, lost_queue: bool = False) -> int:
        """Put the running pages of an unfinished run back in the queue (after a restart:
        their audits died with the process). With ``lost_queue`` (an in-process queue, whose
        tasks died with it too) every pending page is also marked as not enqueued. Returns
        how many pages were running."""
        unfinished = exists().where(runs.c.id == run_id, runs.c.status.not_in(RUN_FINISHED))
        statement = (
            update(pages)
            .where(pages.c.run_id == run_id, pages.c.status == "running", unfinished)
            .values(status="queued", updated_at=utc_now())
        )
        with write_transaction(self._engine) as conn:
            requeued = conn.execute(statement).rowcount
            if lost_queue:
                conn.execute(
                    update(pages)
                    .where(pages.c.run_id == run_id, pages.c.status == "queued", unfinished)
                    .values(enqueued=False)
                )
            return requeued

    def start_page(self, run_id: str, url_key: str) -> Page | None:
        """Mark a pending page of a running run as running and count the attempt: the gate a
        worker passes before it loads the page. None (nothing written) when the run is not
        running or the page is already done, so a cancelled run and a redelivered finished
        page are never audited again."""
        run_is_running = exists().where(runs.c.id == run_id, runs.c.status == "running")
        statement = (
            update(pages)
            .where(
                pages.c.run_id == run_id, pages.c.url_key == url_key,
                pages.c.status.in_(PAGE_PENDING), run_is_running,
            )
            .values(status="running", attempts=pages.c.attempts + 1, updated_at=utc_now())
            .returning(*pages.c)
        )
        with write_transaction(self._engine) as conn:
            row = conn.execute(statement).first()
        return None if row is None else _page(row)

    def unsent_pages(self, run_id: str, *, limit: int = 100) -> list[Page]:
        """Queued pages of an unfinished run not yet handed to the queue, smallest ``seq``
        first."""
        unfinished = exists().where(runs.c.id == run_id, runs.c.status.not_in(RUN_FINISHED))
        query = (
            select(pages)
            .where(
                pages.c.run_id == run_id, pages.c.status == "queued",
                pages.c.enqueued.is_(False), unfinished,
            )
            .order_by(pages.c.seq, pages.c.id)
        )
        with read_transaction(self._engine) as conn:
            return [_page(row) for row in conn.execute(_window(query, 0, limit))]

    def mark_enqueued(self, run_id: str, url_keys: Iterable[str]) -> int:
        """Note that these pages' tasks are in the queue."""
        keys = sorted(set(url_keys))
        if not keys:
            return 0
        statement = (
            update(pages)
            .where(pages.c.run_id == run_id, pages.c.url_key.in_(keys))
            .values(enqueued=True)
        )
        with write_transaction(self._engine) as conn:
            return conn.execute(statement).rowcount

    def frontier(self, run_id: str) -> tuple[int, int, int]:
        """(pages, deepest depth, highest seq) of the run; (0, -1, -1) without pages."""
        query = select(func.count(), func.max(pages.c.depth), func.max(pages.c.seq)).where(
            pages.c.run_id == run_id
        )
        with read_transaction(self._engine) as conn:
            count, deepest, highest = conn.execute(query).one()
            if not count:
                self._run_status(conn, run_id)
        return count, -1 if deepest is None else deepest, -1 if highest is None else highest

    def ok_scores(self, run_id: str) -> list[float | None]:
        """The scores of the run's audited (``ok``) pages, in ``seq`` order."""
        query = (
            select(pages.c.score)
            .where(pages.c.run_id == run_id, pages.c.status == "ok")
            .order_by(pages.c.seq, pages.c.id)
        )
        with read_transaction(self._engine) as conn:
            return list(conn.execute(query).scalars())

    def record_page(
        self,
        run_id: str,
        url_key: str,
        status: str,
        page_data: Mapping[str, Any],
        findings_of_page: Sequence[FindingRecord] = (),
        *,
        duration_ms: int | None = None,
        timings: Mapping[str, Any] | None = None,
        final_url: str | None = None,
        links: Sequence[str] | None = None,
        if_pending: bool = False,
        event: tuple[str, Mapping[str, Any]] | None = None,
    ) -> bool:
        """Set a page's result (``page_data``: the PageResult as the result shows it; its
        ``score`` and ``error`` are also kept in columns) and replace its findings, in one
        transaction; ``final_url`` and ``links`` are what the crawl needs of it, and those
        reported earlier (``jobs.store.crawl_scan.note_page``) stay: the crawl may have
        decided pages from them already. Idempotent: recording the same page again leaves
        one copy. Returns False, writing nothing, when
        the run is already finished, or with ``if_pending`` when the page already has a
        result: the first result recorded is then final. Workers record so, because a worker
        that was frozen past its lease finishes the page late, after the worker that took it
        over has recorded it (and the crawl may have gone on from that result); its late
        result must not replace the one already kept. ``event`` (type, data) is the page's
        progress event, added in the same transaction: no run finishes in between to drop it."""
        _check(status, PAGE_DONE, "recorded page status")
        for record in findings_of_page:
            _check(record.kind, FINDING_KINDS, "finding kind")
        with write_transaction(self._engine) as conn:
            page = self._locked_page(conn, run_id, url_key)
            if if_pending and page.status in PAGE_DONE:
                return False
            final_url = page.final_url if page.final_url is not None else final_url
            links = page.links if page.links is not None else links
            removed = conn.execute(
                delete(findings).where(findings.c.page_id == page.id)
                .returning(findings.c.kind, findings.c.impact)
            ).all()
            if findings_of_page:
                conn.execute(insert(findings), _finding_rows(run_id, page, findings_of_page))
            conn.execute(
                update(pages).where(pages.c.id == page.id).values(
                    status=status, score=page_data.get("score"), error=page_data.get("error"),
                    data=dict(page_data), duration_ms=duration_ms,
                    timings=None if timings is None else dict(timings),
                    finding_count=sum(r.kind == "finding" for r in findings_of_page),
                    final_url=final_url, final_key=redirect_key(url_key, final_url),
                    links=None if links is None else list(links),
                    updated_at=utc_now(),
                )
            )
            before = _contribution(page.status, removed)
            after = _contribution(status, [(r.kind, r.data.get("impact")) for r in findings_of_page])
            if not self._bump_counters(conn, run_id, {k: after[k] - before[k] for k in COUNTERS}):
                conn.rollback()
                return False
            if event is not None:
                _insert_event(conn, run_id, *event)
            return True

    def get_page(self, run_id: str, url_key: str) -> Page:
        query = select(pages).where(pages.c.run_id == run_id, pages.c.url_key == url_key)
        with read_transaction(self._engine) as conn:
            row = conn.execute(query).first()
        if row is None:
            raise NotFound(f"run {run_id} has no page {url_key}")
        return _page(row)

    def page_counts(self, run_id: str) -> dict[str, int]:
        """How many of the run's pages are in each status (every status present)."""
        query = (
            select(pages.c.status, func.count())
            .where(pages.c.run_id == run_id)
            .group_by(pages.c.status)
        )
        with read_transaction(self._engine) as conn:
            counted: dict[str, int] = dict(conn.execute(query).all())
            if not counted:
                self._run_status(conn, run_id)
        return {status: counted.get(status, 0) for status in PAGE_STATUSES}

    def pages(
        self,
        run_id: str,
        *,
        status: str | None = None,
        depth: int | None = None,
        offset: int = 0,
        limit: int = 100,
    ) -> list[Page]:
        """The run's pages in discovery order (``seq``), optionally of one status or depth."""
        query = select(pages).where(pages.c.run_id == run_id).order_by(pages.c.seq, pages.c.id)
        if depth is not None:
            query = query.where(pages.c.depth == depth)
        if status is not None:
            query = query.where(pages.c.status == _check(status, PAGE_STATUSES, "page status"))
        with read_transaction(self._engine) as conn:
            return self._listed(conn, run_id, query, offset, limit, _page)

    def findings(
        self, run_id: str, kind: str = "finding", *, offset: int = 0, limit: int = 100
    ) -> list[StoredFinding]:
        """The run's items of one kind in result order: page by page (``seq``), then in the
        order the page listed them."""
        query = (
            select(findings)
            .where(findings.c.run_id == run_id, findings.c.kind == _check(kind, FINDING_KINDS, "finding kind"))
            .order_by(findings.c.page_seq, findings.c.seq, findings.c.id)
        )
        with read_transaction(self._engine) as conn:
            return self._listed(conn, run_id, query, offset, limit, _finding)

    # ---------------------------------------------------------------- events

    def add_event(
        self, run_id: str, event_type: str, data: Mapping[str, Any], *, unless_finished: bool = False
    ) -> int | None:
        """Append a progress event (finished runs too: "run done" comes last); returns its id.
        With ``unless_finished`` nothing is added to a finished run (None is returned), so
        a late page event never follows "run done"."""
        with write_transaction(self._engine) as conn:
            if self._run_status(conn, run_id, lock=True) in RUN_FINISHED and unless_finished:
                return None
            return _insert_event(conn, run_id, event_type, data)

    def events_after(self, run_id: str, last_id: int = 0, *, limit: int = 100) -> list[Event]:
        """The run's events with an id above ``last_id`` (a ``Last-Event-ID``), oldest first."""
        query = (
            select(events)
            .where(events.c.run_id == run_id, events.c.id > last_id)
            .order_by(events.c.id)
        )
        with read_transaction(self._engine) as conn:
            return self._listed(conn, run_id, query, 0, limit, _event)

    # --------------------------------------------------------------- helpers

    @staticmethod
    def _run_status(conn: Connection, run_id: str, *, lock: bool = False) -> str:
        """The run's status; with ``lock`` the run's row is held (against other locking
        writers, not against the foreign-key checks of inserts) until the transaction ends."""
        query = select(runs.c.status).where(runs.c.id == run_id)
        status = conn.execute(query.with_for_update(key_share=True) if lock else query).scalar()
        if status is None:
            raise NotFound(f"no run {run_id}")
        return status

    @staticmethod
    def _locked_page(conn: Connection, run_id: str, url_key: str) -> Row[Any]:
        """The page's id, seq, status, final URL and links, locked until the transaction ends, so a concurrent
        record of the same page waits and then sees this one's result as its "before"."""
        query = (
            select(pages.c.id, pages.c.seq, pages.c.status, pages.c.final_url, pages.c.links)
            .where(pages.c.run_id == run_id, pages.c.url_key == url_key)
            .with_for_update()
        )
        page = conn.execute(query).first()
        if page is None:
            raise NotFound(f"run {run_id} has no page {url_key}")
        return page

    @staticmethod
    def _insert_pages(conn: Connection, rows: list[dict[str, Any]]) -> int:
        insert_or_ignore = _INSERT_OR_IGNORE[conn.dialect.name]
        statement = (
            insert_or_ignore(pages)
            .on_conflict_do_nothing(index_elements=[pages.c.run_id, pages.c.url_key])
            .returning(pages.c.id)
        )
        return len(conn.execute(statement, rows).all())

    @staticmethod
    def _bump_counters(conn: Connection, run_id: str, delta: Mapping[str, int]) -> bool:
        """Add ``delta`` to the counters of an unfinished run (this also takes the run's row
        lock, last in every transaction that takes it with a page lock). False when the run
        is finished; ``NotFound`` when there is no such run."""
        statement = (
            update(runs)
            .where(runs.c.id == run_id, runs.c.status.not_in(RUN_FINISHED))
            .values({name: runs.c[name] + amount for name, amount in delta.items()})
        )
        if conn.execute(statement).rowcount:
            return True
        Store._run_status(conn, run_id)
        return False

    @staticmethod
    def _listed(
        conn: Connection, run_id: str, query: Select[Any], offset: int, limit: int,
        make: Callable[[Row[Any]], T],
    ) -> list[T]:
        """One window of a list that belongs to a run; empty only if the run exists."""
        listed = [make(row) for row in conn.execute(_window(query, offset, limit))]
        if not listed:
            Store._run_status(conn, run_id)
        return listed


def _contribution(status: str, items: Iterable[tuple[str, str | None]]) -> Counter[str]:
    """What one page row adds to its run's counters, given its status and the (kind,
    impact) of its findings. The run's counters are the sum of this over its pages."""
    impacts = Counter(impact for kind, impact in items if kind == "finding")
    contribution = Counter(
        pages_queued=int(status in PAGE_PENDING),
        pages_done=int(status in PAGE_DONE),
        pages_failed=int(status == "failed"),
        findings_total=impacts.total(),
    )
    contribution.update({impact: impacts[impact] for impact in IMPACTS})
    return contribution


def _finding_rows(run_id: str, page: Row[Any], records: Sequence[FindingRecord]) -> list[Json]:
    return [
        {"run_id": run_id, "page_id": page.id, "page_seq": page.seq, "kind": record.kind,
         "seq": seq, "rule_id": str(record.data.get("ruleId", "")),
         "impact": record.data.get("impact"),
         "fingerprint": record.fingerprint or record.data.get("fingerprint") or None,
         "data": dict(record.data)}
        for seq, record in enumerate(records)
    ]


def _window(query: Select[Any], offset: int, limit: int) -> Select[Any]:
    _check_window(offset, limit)
    return query.offset(offset).limit(limit)


def _check_window(offset: int, limit: int) -> None:
    if offset < 0 or not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"offset must be >= 0 and limit 1..{MAX_LIMIT} (got {offset}, {limit})")


def _check(value: str, allowed: Iterable[str], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r}")
    return value


def _run(row: Row[Any]) -> Run:
    return Run(**row._mapping)


def _page(row: Row[Any]) -> Page:
    return Page(**row._mapping)


def _finding(row: Row[Any]) -> StoredFinding:
    return StoredFinding(**row._mapping)


def _event(row: Row[Any]) -> Event:
    return Event(**row._mapping)


def _insert_event(conn: Connection, run_id: str, event_type: str, data: Mapping[str, Any]) -> int:
    statement = insert(events).values(run_id=run_id, type=event_type, data=dict(data), created_at=utc_now())
    return conn.execute(statement.returning(events.c.id)).scalar_one()
