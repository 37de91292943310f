"""Secrets kept apart from runs, site baselines, and binary artefacts (evidence screenshots).

Revision ID: 0002
Revises: 0001

- ``run_secrets``: the parts of a request that must never be shown (URL credentials, ``auth``),
  one row per run, read by whoever audits its pages and deleted when the run ends; the
  request stored on ``runs`` is the redacted one.
- ``site_baselines``: the run a site (an origin) is compared against by default.
- ``artifacts``: bytes that belong to a run (a finding's screenshot, a page thumbnail), named
  uniquely within it, in the store so that every worker of a shared deployment can write them
  and the service can serve them.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TIMESTAMP = sa.DateTime(timezone=True)
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _run_fk(table: str) -> sa.ForeignKey:
    return sa.ForeignKey("runs.id", ondelete="CASCADE", name=f"fk_{table}_run_id_runs")


def upgrade() -> None:
    op.create_table(
        "run_secrets",
        sa.Column("run_id", sa.String(32), _run_fk("run_secrets"), nullable=False),
        sa.Column("data", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("run_id", name="pk_run_secrets"),
    )
    op.create_table(
        "site_baselines",
        sa.Column("site", sa.Text, nullable=False),
        sa.Column("run_id", sa.String(32), _run_fk("site_baselines"), nullable=False),
        sa.Column("set_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("site", name="pk_site_baselines"),
    )
    op.create_table(
        "artifacts",
        sa.Column("id", BIG_ID, autoincrement=True),
        sa.Column("run_id", sa.String(32), _run_fk("artifacts"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("media_type", sa.String(64), nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("meta", sa.JSON(none_as_null=True)),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_artifacts"),
        sa.UniqueConstraint("run_id", "name", name="uq_artifacts_run_id_name"),
    )
    op.create_index("ix_runs_site_created_at", "runs", ["site", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_runs_site_created_at", table_name="runs")
    for table in ("artifacts", "site_baselines", "run_secrets"):
        op.drop_table(table)
