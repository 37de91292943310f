"""Opening a store: targets, migrations (also raced by two processes), SQLite's settings, and
URLs whose password must never be shown."""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
import time

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, func, select, table

from jobs.store import StoreError, migrate, open_store
from jobs.store.database import create_store_engine, database_url, redact
from jobs.store.migrate import head_revision
from jobs.store.schema import metadata

from .helpers import running_run, site_pages

HEAD = head_revision()
SECRET = "hunter2-do-not-show"


def test_migrations_build_exactly_the_declared_schema(store_target):
    open_store(store_target).close()
    engine = create_engine(database_url(store_target))
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert context.get_current_revision() == HEAD == migrate.HEAD == "0004"
            assert compare_metadata(context, metadata) == []
    finally:
        engine.dispose()


def test_reopening_keeps_the_data_and_migrates_nothing(store_target):
    with open_store(store_target) as store:
        run = store.create_run("https://site.test/", {"url": "https://site.test/"})
    with open_store(store_target) as again:
        assert again.revision() == HEAD
        assert again.get_run(run.id) == run
    engine = create_engine(database_url(store_target))
    try:
        with engine.connect() as conn:
            versions = conn.execute(select(func.count()).select_from(table("alembic_version")))
            assert versions.scalar_one() == 1
    finally:
        engine.dispose()


RACER = """
import pathlib, sys, time
from jobs.store import open_store
target, ready, go = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
ready.touch()
while not go.exists():
    time.sleep(0.002)
with open_store(target) as store:
    store.create_run("https://site.test/", {})
"""


def test_two_processes_opening_a_fresh_database_at_once_both_succeed(store_target, tmp_path):
    go = tmp_path / "go"
    ready = [tmp_path / f"ready{n}" for n in range(2)]
    racers = [
        subprocess.Popen([sys.executable, "-c", RACER, store_target, str(flag), str(go)],
                         stderr=subprocess.PIPE, text=True)
        for flag in ready
    ]
    deadline = time.monotonic() + 60
    while not all(flag.exists() for flag in ready) and time.monotonic() < deadline:
        time.sleep(0.01)
    go.touch()
    outcomes = [(racer.wait(timeout=60), racer.stderr.read()) for racer in racers]
    assert outcomes == [(0, ""), (0, "")]
    with open_store(store_target) as store:
        assert store.revision() == HEAD
        assert len(store.list_runs()) == 2


def test_a_directory_target_gets_its_parents_and_a_sqlite_file(tmp_path):
    target = tmp_path / "a" / "b" / "data"
    with open_store(target) as store:
        assert store.dialect == "sqlite"
    assert (target / "a11y.db").is_file()
    with open_store(f"sqlite:///{tmp_path}/c/d/named.db") as store:
        assert store.revision() == HEAD
    assert (tmp_path / "c" / "d" / "named.db").is_file()


def test_sqlite_connections_use_wal_foreign_keys_and_a_busy_timeout(tmp_path):
    engine = create_store_engine(database_url(tmp_path))
    try:
        with engine.connect() as conn:
            pragma = {
                name: conn.exec_driver_sql(f"PRAGMA {name}").scalar_one()
                for name in ("journal_mode", "foreign_keys", "busy_timeout")
            }
    finally:
        engine.dispose()
    assert pragma["journal_mode"] == "wal"
    assert pragma["foreign_keys"] == 1
    assert pragma["busy_timeout"] >= 5000


@pytest.mark.parametrize(
    "target",
    ["mysql://user:pw@db/a11y", "sqlite://", "sqlite:///:memory:", "postgresql+psycopg://%"],
)
def test_targets_that_cannot_hold_a_store_are_refused(target):
    with pytest.raises(StoreError) as refused:
        open_store(target)
    assert "pw" not in str(refused.value)


def test_the_password_of_a_postgresql_url_is_never_shown(postgres_server, caplog):
    caplog.set_level(logging.DEBUG)
    url = postgres_server.url(postgres_server.create_database(), password=SECRET)
    with open_store(url) as store:
        run_id = running_run(store, pages=2)
        store.start_page(run_id, site_pages(1)[0].url_key)
        store.add_event(run_id, "page_done", {"url": site_pages(1)[0].url})
        shown = [repr(store), str(store)]
    assert caplog.records, "the store logs where it opened"
    logged = [record.getMessage() for record in caplog.records]
    assert not [line for line in shown + logged if SECRET in line]
    assert "***" in repr(store)


def test_an_unreachable_database_fails_without_showing_the_password(unused_port, caplog):
    caplog.set_level(logging.DEBUG)
    with pytest.raises(StoreError) as failed:
        open_store(f"postgresql+psycopg://postgres:{SECRET}@127.0.0.1:{unused_port}/a11y")
    assert SECRET not in str(failed.value)
    assert "***" in str(failed.value)
    assert not [record for record in caplog.records if SECRET in record.getMessage()]


def test_secret_query_parameters_are_hidden_too():
    url = database_url(f"postgresql://u:{SECRET}@h/db?sslpassword={SECRET}&application_name=a11y")
    shown = redact(url)
    assert SECRET not in shown
    assert shown.startswith("postgresql+psycopg://u:***@h/db?")
    assert "application_name=a11y" in shown


@pytest.fixture
def unused_port():
    """A TCP port of 127.0.0.1 that nothing listens on (bound, never listened)."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        yield holder.getsockname()[1]

