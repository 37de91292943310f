"""The run store: runs, pages, findings and progress events in SQLite or PostgreSQL.

``open_store(target)`` is the one way in: it resolves the target (a data directory or a
database URL), migrates the database to the newest schema and returns a ``Store``.
"""

from __future__ import annotations

import logging
import os

from sqlalchemy.exc import SQLAlchemyError

from .database import create_store_engine, database_url, redact
from .errors import Conflict, NotFound, StoreError, StoreFull, StoreUnavailable
from .migrate import upgrade
from .records import (
    FINDING_KINDS,
    PAGE_STATUSES,
    RUN_STATUSES,
    Event,
    FindingRecord,
    NewPage,
    Page,
    Run,
    StoredFinding,
)
from .store import MAX_LIMIT, Store

__all__ = [
    "FINDING_KINDS", "MAX_LIMIT", "PAGE_STATUSES", "RUN_STATUSES", "Conflict", "Event",
    "FindingRecord", "NewPage", "NotFound", "Page", "Run", "Store", "StoreError", "StoreFull", "StoreUnavailable",
    "StoredFinding", "open_store",
]

log = logging.getLogger(__name__)


def open_store(target: str | os.PathLike[str]) -> Store:
    """A migrated store at ``target``: a directory (SQLite file ``a11y.db`` inside, created
    with its parents), a ``sqlite:///…`` URL or a ``postgresql+psycopg://…`` URL.

    Raises ``StoreError`` when the database cannot be reached or migrated; neither its
    message nor any log line shows the URL's password.
    """
    url = database_url(target)
    shown = redact(url)
    engine = create_store_engine(url)
    try:
        upgrade(engine)
    except (SQLAlchemyError, StoreError) as exc:
        engine.dispose()
        reason = getattr(exc, "orig", None) or exc
        raise StoreError(f"cannot open the store at {shown}: {reason}") from exc
    log.info("store open at %s", shown)
    return Store(engine, url)
