"""Alembic scripts of the run store, run by ``jobs.store.migrate`` at every open.

A revision is history: once released it is never edited, and a schema change is a new file
in ``versions/`` next to the matching edit of ``schema.py``.
"""
