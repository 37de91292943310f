"""The tables of the run store, in one ``MetaData``: the single definition the store queries
and the migrations must build (``tests/jobs/store`` compares the two).

Only portable types, so SQLite and PostgreSQL run the same statements. Counters are plain
integers kept by the store (see ``Store``); ``pages`` doubles as the persistent frontier, so
its unique key (run, url_key) is both the "seen" set and the idempotency key of results.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.types import TypeDecorator

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)


class UtcDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on both dialects: SQLite keeps no offset, so the store writes UTC
    and puts the zone back on read; PostgreSQL's session zone is converted away."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("the store takes aware datetimes only")
        return None if value is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _json() -> JSON:
    """JSON where Python ``None`` is SQL NULL, so "no value" and JSON ``null`` never differ."""
    return JSON(none_as_null=True)


def _counter(name: str) -> Column[int]:
    return Column(name, Integer, nullable=False, default=0, server_default="0")


# Row ids that grow for the life of a deployment (findings are rewritten on every redelivery):
# a bigint on PostgreSQL; SQLite gives increasing ids only to an INTEGER PRIMARY KEY, which is
# 64-bit anyway.
BIG_ID = BigInteger().with_variant(Integer(), "sqlite")


def _row_id() -> Column[int]:
    return Column("id", BIG_ID, primary_key=True, autoincrement=True)


def _owned_by_run() -> Column[str]:
    """The run a row belongs to; deleting the run deletes the row."""
    return Column("run_id", String(32), ForeignKey("runs.id", ondelete="CASCADE"), nullable=False)


runs = Table(
    "runs",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("url", Text, nullable=False),
    Column("site", Text, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("status", String(16), nullable=False),
    Column("request", _json(), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("started_at", UtcDateTime),
    Column("finished_at", UtcDateTime),
    _counter("pages_done"),
    _counter("pages_failed"),
    _counter("pages_queued"),
    _counter("findings_total"),
    _counter("critical"),
    _counter("serious"),
    _counter("moderate"),
    _counter("minor"),
    Column("score", Float),
    Column("error", _json()),
    Column("result", _json()),
    # The name of the stored API token that started the run (its owner: a token of scope
    # ``submit`` may cancel only its own runs); NULL for the service's ``--token`` and for a
    # service without tokens.
    Column("submitted_by", String(64)),
    Index(None, "status"),
    Index(None, "url"),
    Index(None, "site", "created_at"),
)

pages = Table(
    "pages",
    metadata,
    _row_id(),
    _owned_by_run(),
    Column("url", Text, nullable=False),
    Column("url_key", Text, nullable=False),
    Column("depth", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    _counter("attempts"),
    Column("score", Float),
    Column("duration_ms", Integer),
    Column("timings", _json()),
    Column("error", _json()),
    _counter("finding_count"),
    Column("data", _json()),
    # What the crawl needs of an audited page: the URL it ended at after redirects (a
    # visited page too) and, when the next level is built from it, its links in document
    # order.
    Column("final_url", Text),
    Column("links", _json()),
    # The final URL normalised, only when it is another page than ``url_key`` (a redirect):
    # what the crawl's "seen" check looks up (``jobs.frontier``).
    Column("final_key", Text),
    # Handed to the queue: a restart enqueues the queued pages that never were.
    Column("enqueued", Boolean, nullable=False, default=False, server_default=false()),
    Column("updated_at", UtcDateTime, nullable=False),
    UniqueConstraint("run_id", "url_key"),
    Index(None, "run_id", "status", "seq"),
    Index(None, "run_id", "seq"),
    Index(None, "run_id", "final_key"),
)

# Where each job's crawl stands (``jobs.frontier``): the level whose links are being read
# (``depth``), the last page of it read (``position``, a seq), the pages admitted in all
# and into the next level, the highest seq given, and whether nothing is left to decide.
# Written only by a compare-and-set together with the pages it admits, so coordinators
# that step the same run admit each page once.
crawl_scans = Table(
    "crawl_scans",
    metadata,
    Column("run_id", String(32), ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("depth", Integer, nullable=False),
    Column("position", Integer, nullable=False),
    Column("pages", Integer, nullable=False),
    Column("chosen", Integer, nullable=False),
    Column("last_seq", Integer, nullable=False),
    Column("finished", Boolean, nullable=False, default=False, server_default=false()),
)

findings = Table(
    "findings",
    metadata,
    _row_id(),
    _owned_by_run(),
    Column("page_id", BIG_ID, ForeignKey("pages.id", ondelete="CASCADE"), nullable=False),
    # The page's seq, copied: the result lists findings page by page, and an index can then
    # serve any offset of that order without sorting every finding of the run.
    Column("page_seq", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("rule_id", Text, nullable=False),
    Column("impact", String(16)),
    Column("fingerprint", Text),
    Column("data", _json(), nullable=False),
    Index(None, "run_id", "kind", "page_seq", "seq"),
    Index(None, "page_id"),
    Index(None, "run_id", "fingerprint"),
)

events = Table(
    "events",
    metadata,
    _row_id(),
    _owned_by_run(),
    Column("type", String(64), nullable=False),
    Column("data", _json(), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Index(None, "run_id", "id"),
)

# The secret parts of a run's request (URL credentials, ``auth``), apart from ``runs.request``
# (stored redacted) so that listing, reporting or exporting runs can never show them; deleted
# when the run ends.
run_secrets = Table(
    "run_secrets",
    metadata,
    Column("run_id", String(32), ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("data", _json(), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
)

# The run each site (an origin) is compared against when a diff asks for "baseline".
site_baselines = Table(
    "site_baselines",
    metadata,
    Column("site", Text, primary_key=True),
    Column("run_id", String(32), ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
    Column("set_at", UtcDateTime, nullable=False),
)

# Bytes that belong to a run (a finding's screenshot, a page thumbnail), in the store so that
# any worker of a shared deployment can write them and the service can serve them.
artifacts = Table(
    "artifacts",
    metadata,
    _row_id(),
    _owned_by_run(),
    Column("name", Text, nullable=False),
    Column("media_type", String(64), nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("meta", _json()),
    Column("created_at", UtcDateTime, nullable=False),
    UniqueConstraint("run_id", "name"),
)


# API tokens of the HTTP service (``a11y token create``): a name, what it may do (``scope``),
# the sites (origins) it is limited to (NULL: every site) and the SHA-256 of its value, never
# the value itself. A revoked token keeps its row, so its name is never given to another.
api_tokens = Table(
    "api_tokens",
    metadata,
    _row_id(),
    Column("name", String(64), nullable=False),
    Column("scope", String(16), nullable=False),
    Column("sites", _json()),
    Column("hash", String(64), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("revoked_at", UtcDateTime),
    UniqueConstraint("name"),
    UniqueConstraint("hash"),
)


def utc_now() -> datetime:
    return datetime.now(UTC)
