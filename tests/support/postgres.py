"""A throwaway PostgreSQL server for the test session, and a fresh database per test.

``initdb`` makes a cluster in a temporary directory under ``/tmp`` (owned by the ``postgres``
user, and run as that user through ``runuser`` when the tests run as root: the server
refuses to run as root), tuned for speed over durability (``fsync``, ``synchronous_commit``
and ``full_page_writes`` off: a crash loses nothing a test needs), listening on a free port
of 127.0.0.1 and on a Unix socket in the same directory, with ``trust`` authentication.
``pg_ctl -w start`` starts it; teardown is ``pg_ctl stop -m immediate`` and then SIGKILL to
the postmaster's PID if it is still alive. Missing binaries fail the tests rather than skip
them: CI must never pass by not testing PostgreSQL.

Use from a ``conftest.py``: ``from tests.support.postgres import postgres_server,
postgres_url  # noqa: F401``.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import uuid
from pathlib import Path

import psycopg
import pytest

from tests.support.ports import free_port
from tests.support.reaper import reaper

_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), reverse=True)
_START_ATTEMPTS = 3
_START_TIMEOUT_S = 30
_SPEED_OVER_DURABILITY = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")
_USER = "postgres"


def find_pg_bin() -> Path:
    """The directory of ``initdb`` and ``pg_ctl`` (the newest Debian version, else PATH);
    fails the test session with the fix when there is none."""
    for directory in _BIN_DIRS:
        if os.access(directory / "pg_ctl", os.X_OK) and os.access(directory / "initdb", os.X_OK):
            return directory
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).parent
    pytest.fail(
        "PostgreSQL server binaries (initdb, pg_ctl) are not installed; the store tests need "
        "a real server. Run `bash scripts/install.sh`.",
        pytrace=False,
    )


class PostgresServer:
    """One running cluster; ``create_database()`` gives each test a database of its own."""

    def __init__(self, *, durable: bool = False) -> None:
        """``durable``: every commit is in the WAL before it is acknowledged, so a crash of the
        server (:meth:`halt`) loses none; the default trades that for speed."""
        self.settings = [s for s in _SPEED_OVER_DURABILITY if not (durable and s.startswith("synchronous_commit"))]
        self.bin = find_pg_bin()
        self.as_root = os.geteuid() == 0
        self.workdir = Path(tempfile.mkdtemp(prefix="a11y-test-pg-", dir="/tmp"))
        reaper().clean(self.workdir)  # deleted with this process, even without teardown
        if self.as_root:
            account = pwd.getpwnam(_USER)
            os.chown(self.workdir, account.pw_uid, account.pw_gid)
        self.data = self.workdir / "data"
        self.log_path = self.workdir / "server.log"
        self.port = 0
        self.pid: int | None = None

    def _run(self, *argv: str) -> None:
        """Run a server binary, as the ``postgres`` user when we are root."""
        command = [str(self.bin / argv[0]), *argv[1:]]
        if self.as_root:
            command = [shutil.which("runuser") or "/usr/sbin/runuser", "-u", _USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=self.workdir)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr or done.stdout}")

    def start(self) -> PostgresServer:
        self._run("initdb", "-D", str(self.data), "-U", _USER, "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync", "--no-instructions")
        return self._launch(None)

    def halt(self) -> None:
        """Stop the server as a crash would (immediate shutdown), keeping its data and port:
        an outage, which :meth:`resume` ends."""
        if self.pid is not None:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            reaper().forget(self.pid)
            self.pid = None

    def resume(self) -> PostgresServer:
        """Start the halted server again on the same port, with its data."""
        return self._launch(self.port)

    def _launch(self, port: int | None) -> PostgresServer:
        for _ in range(_START_ATTEMPTS if port is None else 1):
            self.port = port or free_port()
            options = " ".join(
                ["-c listen_addresses=127.0.0.1", f"-p {self.port}", f"-k {self.workdir}"]
                + [f"-c {setting}" for setting in self.settings]
            )
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log_path), "-w",
                          "-t", str(_START_TIMEOUT_S), "-o", options, "start")
            except RuntimeError:
                continue  # most likely the port was taken between probe and bind
            self.pid = int((self.data / "postmaster.pid").read_text().split()[0])
            reaper().watch(self.pid)  # gone with this process, even without teardown
            return self
        log = self.log_path.read_text(errors="replace")[-2000:] if self.log_path.exists() else ""
        self.stop()
        raise RuntimeError(f"PostgreSQL did not start; its log:\n{log}")

    def stop(self) -> None:
        if self.pid is not None:
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            if self._postmaster_alive():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)
            reaper().forget(self.pid)
            self.pid = None
        shutil.rmtree(self.workdir, ignore_errors=True)
        reaper().keep(self.workdir)

    def _postmaster_alive(self) -> bool:
        """Whether our postmaster still runs (its command line names our data directory, so
        a PID the system has since given to another process is left alone)."""
        try:
            command_line = Path(f"/proc/{self.pid}/cmdline").read_bytes()
        except OSError:
            return False
        return str(self.data).encode() in command_line

    def url(self, database: str = "postgres", *, password: str | None = None) -> str:
        """A SQLAlchemy URL for one database (``trust`` ignores any password given)."""
        secret = f":{password}" if password is not None else ""
        return f"postgresql+psycopg://{_USER}{secret}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database (``t_<hex>``); returns its name."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        conninfo = f"host=127.0.0.1 port={self.port} user={_USER} dbname=postgres"
        with psycopg.connect(conninfo, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return name


@pytest.fixture(scope="session")
def postgres_server():
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The ``postgresql+psycopg://`` URL of a database no other test uses."""
    return postgres_server.url(postgres_server.create_database())
