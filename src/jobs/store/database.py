"""Where the store lives: a target turned into a SQLAlchemy URL and engine, the SQLite
settings every connection needs, the two kinds of transaction, and URLs fit to be shown.

SQLite and PostgreSQL differ only here. SQLite gets WAL (readers never wait for the writer),
foreign keys on, a busy timeout, and write transactions that take the write lock at ``BEGIN``
(``BEGIN IMMEDIATE``): a deferred transaction that reads and then writes can fail at once
with "database is locked" when another writer got in between, whatever the timeout.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, InterfaceError, OperationalError

from .errors import StoreError, StoreFull, StoreUnavailable

SQLITE_FILE = "a11y.db"
SQLITE_BUSY_TIMEOUT_MS = 15_000
#: Seconds a connection to a database server may take (libpq's connect_timeout).
CONNECT_TIMEOUT_S = 3
#: Seconds a PostgreSQL session of ours may sit idle inside a transaction before the server
#: ends it, releasing its locks (``_postgres_on_connect``).
IDLE_IN_TRANSACTION_TIMEOUT_S = 10
_WRITE_OPTION = "a11y_write"
_SECRET_QUERY_WORDS = ("password", "secret", "token", "key")
_HIDDEN = "***"


def database_url(target: str | os.PathLike[str]) -> URL:
    """The database of a store target: a ``sqlite:///…`` or ``postgresql[+psycopg]://…`` URL,
    or a directory that holds ``a11y.db`` (the directory and its parents are created)."""
    text = os.fspath(target)
    if "://" not in text:
        return URL.create("sqlite", database=str(_make_dirs(Path(text)) / SQLITE_FILE))
    try:
        url = make_url(text)
    except ArgumentError as exc:
        raise StoreError(f"not a database URL: {redact_text(text)}") from exc
    backend = url.get_backend_name()
    if backend == "postgresql":
        return url if "+" in url.drivername else url.set(drivername="postgresql+psycopg")
    if backend != "sqlite":
        raise StoreError(f"unsupported database {redact(url)}: use sqlite:/// or postgresql+psycopg://")
    if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
        raise StoreError(f"the store needs a SQLite file, not {redact(url)}")
    _make_dirs(Path(url.database).parent)
    return url


def _make_dirs(directory: Path) -> Path:
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the data directory {directory}: {exc}") from exc
    return directory


def redact(url: URL) -> str:
    """The URL with its password and any secret-looking query value replaced by ``***``."""
    secrets = {k: _HIDDEN for k in url.query if any(w in k.lower() for w in _SECRET_QUERY_WORDS)}
    return url.update_query_dict(secrets).render_as_string(hide_password=True)


def redact_text(text: str) -> str:
    """``redact`` for a string that may not even parse: everything between ``//`` and ``@``
    (the user info) and the whole query go."""
    head, _, rest = text.partition("://")
    if "@" in rest:
        rest = _HIDDEN + "@" + rest.rsplit("@", 1)[1]
    return f"{head}://{rest.split('?', 1)[0]}"


def create_store_engine(url: URL) -> Engine:
    if url.get_backend_name() != "sqlite":
        # A server that does not answer is reported within seconds (StoreUnavailable), not
        # after the operating system's minutes of connection attempts.
        server = create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": CONNECT_TIMEOUT_S})
        event.listen(server, "connect", _postgres_on_connect)
        return server
    engine = create_engine(url)
    event.listen(engine, "connect", _sqlite_on_connect)
    event.listen(engine, "begin", _sqlite_on_begin)
    return engine


def _postgres_on_connect(dbapi_connection: Any, _record: object) -> None:
    """Have the server end a transaction of ours idle for ``IDLE_IN_TRANSACTION_TIMEOUT_S``.
    None waits on anything between its statements, so only a process stopped in the middle
    of one comes near (frozen: SIGSTOP, a paused VM, a machine swapping). Without it, the
    run's row, which every event and result write locks, stayed locked for as long as that
    process was frozen: every other writer of the run waited, no worker could take the frozen
    one's pages over, and the run stalled (``tests/faults/test_worker_frozen.py`` found it).
    Set in the session, not as a ``-c`` connect option, which PgBouncer refuses."""
    with dbapi_connection.cursor() as cursor:
        cursor.execute(f"SET idle_in_transaction_session_timeout = {IDLE_IN_TRANSACTION_TIMEOUT_S * 1000}")
    dbapi_connection.commit()


def _sqlite_on_connect(dbapi_connection: Any, _record: object) -> None:
    """Settings SQLite keeps per connection; the driver's own BEGIN is switched off so that
    ``_sqlite_on_begin`` decides how each transaction starts (DDL included)."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA synchronous = NORMAL")  # with WAL: only a power cut can lose commits
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def _switch_to_wal(cursor: Any) -> None:
    """WAL is a property of the file, so it is set once; but the switch needs the exclusive
    lock and SQLite answers "database is locked" at once, without the busy handler, when
    another process is opening (or switching) the same fresh file. Retry until the busy
    timeout, then let the error out."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            if cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                return
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _sqlite_on_begin(connection: Connection) -> None:
    immediate = connection.get_execution_options().get(_WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


#: What a driver says when the disk is full: SQLite's SQLITE_FULL, PostgreSQL's disk_full
#: (SQLSTATE 53100) and the operating system's ENOSPC as either passes it on.
_FULL_WORDS = ("database or disk is full", "no space left on device", "could not extend file",
               "disk full")


@contextmanager
def _outages() -> Iterator[None]:
    """The driver's failures to reach or write the database, as the store's typed errors;
    everything else (integrity errors the store handles itself, programming errors) passes."""
    try:
        yield
    except (OperationalError, InterfaceError) as exc:
        # The driver's own words (no statement, no parameters: those may hold a run's data;
        # neither driver puts a password in them), on one line.
        text = " ".join(str(exc.orig if exc.orig is not None else exc).split())[:200]
        if getattr(exc.orig, "sqlstate", None) == "53100" or any(w in text.lower() for w in _FULL_WORDS):
            raise StoreFull(f"the database is full: {text}") from exc
        raise StoreUnavailable(f"the database cannot be reached: {text}") from exc


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that will write: committed on success, rolled back on error or by
    ``connection.rollback()`` inside. On SQLite it holds the write lock from its start. A
    database out of reach or full raises ``StoreUnavailable`` or ``StoreFull``."""
    with _outages(), engine.connect() as connection:
        connection.execution_options(**{_WRITE_OPTION: True})
        with connection.begin():
            yield connection


@contextmanager
def read_transaction(engine: Engine) -> Iterator[Connection]:
    """A read-only transaction: one consistent snapshot, never blocking writers (typed
    errors as :func:`write_transaction`)."""
    with _outages(), engine.connect() as connection, connection.begin():
        yield connection
