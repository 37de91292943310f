"""Bring a database to the newest schema, safely when several processes open it at once.

Alembic runs programmatically (no ``alembic.ini``): the scripts ship inside the package
(``jobs/store/migrations``) and get the store's own connection. The whole upgrade is one
transaction that first takes a lock only one opener can hold (PostgreSQL: a transaction
advisory lock; SQLite: the write lock of ``BEGIN IMMEDIATE``), so a second opener waits,
then finds the schema at head and does nothing.

An opener that finds the database at :data:`HEAD` already (every start but the first)
reads one row and never imports Alembic: Alembic and its script loading are about a second
of CPU, paid by every ``serve``, ``worker`` and token command otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

from .database import write_transaction
from .errors import StoreError

if TYPE_CHECKING:
    from alembic.config import Config

SCRIPT_LOCATION = "jobs.store:migrations"
#: The newest revision the shipped scripts make; ``tests/jobs/store/test_open.py`` holds it
#: to the scripts' own head, so a new migration cannot be forgotten here.
HEAD = "0004"
# Any fixed bigint shared by every a11y process; advisory locks are per database.
_ADVISORY_LOCK_KEY = 0x61_31_31_79_6D_69_67  # "a11ymig"
_VERSION_TABLE = "alembic_version"


def _config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    return config


def head_revision() -> str | None:
    """The newest revision the shipped scripts know (read from the scripts: Alembic)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_config()).get_current_head()


def upgrade(engine: Engine) -> None:
    """Migrate to the newest schema; nothing to do (and no Alembic) when it is there."""
    with engine.connect() as connection:
        if current_revision(connection) == HEAD:
            return
    from alembic import command
    from alembic.util import CommandError

    config = _config()
    try:
        with write_transaction(engine) as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ADVISORY_LOCK_KEY})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except CommandError as exc:  # a database newer than these scripts, or broken ones
        raise StoreError(str(exc)) from exc


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at (the row Alembic keeps), None before the first
    migration."""
    if not inspect(connection).has_table(_VERSION_TABLE):
        return None
    return connection.execute(text(f"SELECT version_num FROM {_VERSION_TABLE}")).scalar()
