"""Alembic environment of the run store: online only, on the connection (and inside the
transaction) that ``jobs.store.migrate.upgrade`` passes in ``config.attributes``."""

from alembic import context

from jobs.store.schema import metadata

if context.is_offline_mode():
    raise RuntimeError("the run store migrates online only, through jobs.store.migrate")

context.configure(
    connection=context.config.attributes["connection"],
    target_metadata=metadata,
    render_as_batch=True,  # SQLite alters tables by copying them; batch mode does that
)
with context.begin_transaction():
    context.run_migrations()
