"""API tokens with scopes, and who started each run.

Revision ID: 0003
Revises: 0002

- ``api_tokens``: tokens of the HTTP service made by ``a11y token create``: a unique name, a
  scope (read, submit, admin), the sites it is limited to (a JSON list of origins, NULL for
  every site), the SHA-256 of its value (unique: the lookup key; the value itself is never
  stored), when it was made and when it was revoked. Rows are never deleted, so a revoked
  token's name cannot be reused to claim its runs.
- ``runs.submitted_by``: the name of the token that started the run, NULL for runs started
  with the service's ``--token`` or without auth (and for every run older than this).
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TIMESTAMP = sa.DateTime(timezone=True)
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "api_tokens",
        sa.Column("id", BIG_ID, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("scope", sa.String(16), nullable=False),
        sa.Column("sites", sa.JSON(none_as_null=True)),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("revoked_at", TIMESTAMP),
        sa.PrimaryKeyConstraint("id", name="pk_api_tokens"),
        sa.UniqueConstraint("name", name="uq_api_tokens_name"),
        sa.UniqueConstraint("hash", name="uq_api_tokens_hash"),
    )
    op.add_column("runs", sa.Column("submitted_by", sa.String(64)))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("submitted_by")
    op.drop_table("api_tokens")
