"""The crawl decides pages while the pages before them are still audited.

Revision ID: 0004
Revises: 0003

- ``pages.final_key``: a page's final URL, normalised, when it is another page than its own
  key (it redirected); indexed with the run, so the frontier's "seen" check is a lookup
  rather than a read of every page of the run.
- ``crawl_scans``: where each job's crawl stands (``jobs.frontier``), one row per run,
  moved only by a compare-and-set in the transaction that admits the pages it decided.
  Runs started before this get theirs when a coordinator next steps them (from the deepest
  level they have), so an upgrade mid-run loses nothing.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("pages", sa.Column("final_key", sa.Text))
    op.create_index("ix_pages_run_id_final_key", "pages", ["run_id", "final_key"])
    op.create_table(
        "crawl_scans",
        sa.Column(
            "run_id", sa.String(32),
            sa.ForeignKey("runs.id", ondelete="CASCADE", name="fk_crawl_scans_run_id_runs"),
            nullable=False,
        ),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("pages", sa.Integer, nullable=False),
        sa.Column("chosen", sa.Integer, nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.PrimaryKeyConstraint("run_id", name="pk_crawl_scans"),
    )


def downgrade() -> None:
    op.drop_table("crawl_scans")
    op.drop_index("ix_pages_run_id_final_key", table_name="pages")
    with op.batch_alter_table("pages") as batch:
        batch.drop_column("final_key")
