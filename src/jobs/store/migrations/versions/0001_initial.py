"""The first schema of the run store: runs, their pages (the frontier), findings, events.

Revision ID: 0001
Revises: (none)

Spelled out rather than built from ``schema.py``: a revision records the schema as it was
when it was written, and ``schema.py`` will move on. The store's tests check that upgrading
to head gives exactly the tables ``schema.py`` declares.
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TIMESTAMP = sa.DateTime(timezone=True)


def _json() -> sa.JSON:
    return sa.JSON(none_as_null=True)


def _zero(name: str) -> sa.Column:
    return sa.Column(name, sa.Integer, nullable=False, server_default="0")


def _owned_by_run(table: str) -> sa.Column:
    fk = sa.ForeignKey("runs.id", ondelete="CASCADE", name=f"fk_{table}_run_id_runs")
    return sa.Column("run_id", sa.String(32), fk, nullable=False)


def _create_runs() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("site", sa.Text, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("request", _json(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("started_at", TIMESTAMP),
        sa.Column("finished_at", TIMESTAMP),
        *(_zero(name) for name in ("pages_done", "pages_failed", "pages_queued")),
        *(_zero(name) for name in ("findings_total", "critical", "serious", "moderate", "minor")),
        sa.Column("score", sa.Float),
        sa.Column("error", _json()),
        sa.Column("result", _json()),
        sa.PrimaryKeyConstraint("id", name="pk_runs"),
    )
    op.create_index("ix_runs_status", "runs", ["status"])
    op.create_index("ix_runs_url", "runs", ["url"])


def _create_pages() -> None:
    op.create_table(
        "pages",
        sa.Column("id", BIG_ID, autoincrement=True),
        _owned_by_run("pages"),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("url_key", sa.Text, nullable=False),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        _zero("attempts"),
        sa.Column("score", sa.Float),
        sa.Column("duration_ms", sa.Integer),
        sa.Column("timings", _json()),
        sa.Column("error", _json()),
        _zero("finding_count"),
        sa.Column("data", _json()),
        sa.Column("final_url", sa.Text),
        sa.Column("links", _json()),
        sa.Column("enqueued", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("updated_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_pages"),
        sa.UniqueConstraint("run_id", "url_key", name="uq_pages_run_id_url_key"),
    )
    op.create_index("ix_pages_run_id_status_seq", "pages", ["run_id", "status", "seq"])
    op.create_index("ix_pages_run_id_seq", "pages", ["run_id", "seq"])


def _create_findings() -> None:
    page_fk = sa.ForeignKey("pages.id", ondelete="CASCADE", name="fk_findings_page_id_pages")
    op.create_table(
        "findings",
        sa.Column("id", BIG_ID, autoincrement=True),
        _owned_by_run("findings"),
        sa.Column("page_id", BIG_ID, page_fk, nullable=False),
        sa.Column("page_seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("rule_id", sa.Text, nullable=False),
        sa.Column("impact", sa.String(16)),
        sa.Column("fingerprint", sa.Text),
        sa.Column("data", _json(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_findings"),
    )
    op.create_index(
        "ix_findings_run_id_kind_page_seq_seq", "findings", ["run_id", "kind", "page_seq", "seq"]
    )
    op.create_index("ix_findings_page_id", "findings", ["page_id"])
    op.create_index("ix_findings_run_id_fingerprint", "findings", ["run_id", "fingerprint"])


def _create_events() -> None:
    op.create_table(
        "events",
        sa.Column("id", BIG_ID, autoincrement=True),
        _owned_by_run("events"),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("data", _json(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
    )
    op.create_index("ix_events_run_id_id", "events", ["run_id", "id"])


def upgrade() -> None:
    _create_runs()
    _create_pages()
    _create_findings()
    _create_events()


def downgrade() -> None:
    for table in ("events", "findings", "pages", "runs"):
        op.drop_table(table)
