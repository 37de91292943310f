"""Bring a database to the newest schema, safely when several processes open it at once.

Alembic runs programmatically (no ``alembic.ini``): the scripts ship inside the package
(``jobs/store/migrations``) and get the store's own connection. The whole upgrade is one
transaction that first takes a lock only one opener can hold (PostgreSQL: a transaction
advisory lock; SQLite: the write lock of ``BEGIN IMMEDIATE``), so a second opener waits,
then finds the schema at head and does nothing.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

from .database import write_transaction

SCRIPT_LOCATION = "jobs.store:migrations"
# Any fixed bigint shared by every a11y process; advisory locks are per database.
_ADVISORY_LOCK_KEY = 0x61_31_31_79_6D_69_67  # "a11ymig"


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    return config


def head_revision() -> str | None:
    """The newest revision the shipped scripts know."""
    return ScriptDirectory.from_config(_config()).get_current_head()


def upgrade(engine: Engine) -> None:
    config = _config()
    with write_transaction(engine) as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ADVISORY_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()
