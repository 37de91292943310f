"""Revisions of the run store, oldest first by ``down_revision``; Alembic skips this file."""
