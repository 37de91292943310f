"""A test run killed with SIGTERM or SIGKILL leaves no Chromium, Redis or PostgreSQL running
(issue #26, item 3), nor their working directories: tests/support/reaper.py's watchdog kills
them when the run's process ends and then deletes their folders.

A child pytest run starts the three servers the session fixtures use (the same classes), writes
their process IDs down and waits to be killed; this test kills it and waits for every one of
them to be gone.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

HOLDER = textwrap.dedent('''
    import json, os, signal
    from pathlib import Path

    from tests.support.chrome import SharedChromium
    from tests.support.postgres import PostgresServer
    from tests.support.redis_server import RedisServer


    def test_hold_the_servers():
        chromium = SharedChromium()
        redis_server = RedisServer().start()
        postgres = PostgresServer().start()
        pids = {"chromium": chromium.process.pid, "redis": redis_server.process.pid, "postgres": postgres.pid,
                "postgres_data": str(postgres.data),
                "folders": [str(server.workdir) for server in (chromium, redis_server, postgres)]}
        # Written whole under a temporary name, then renamed: the test polls for the file and
        # must never read it half-written.
        target = Path(os.environ["A11Y_HOLDER_PIDS"])
        partial = target.with_suffix(".partial")
        partial.write_text(json.dumps(pids))
        os.replace(partial, target)
        signal.pause()  # until the test that started this run kills it
''')

#: Bounds against a hang only: starting PostgreSQL (initdb) takes seconds on a loaded machine.
STARTED_WITHIN = 180.0
GONE_WITHIN = 60.0


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its parent has ended: it runs no more)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != b"Z"


def _group_members(pgid: int) -> list[int]:
    members = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[3]) == pgid and fields[0] != b"Z":
                members.append(int(name))
    return members


def _postgres_processes(data_dir: str) -> list[int]:
    """Processes whose command line names the cluster's data directory (the postmaster), or
    whose parent is one of those (its workers)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                command = Path(f"/proc/{name}/cmdline").read_bytes()
            except OSError:
                continue
            if data_dir.encode() in command and _alive(int(name)):
                found.append(int(name))
    return found


@pytest.mark.parametrize("workers", [[], ["-n", "1"]], ids=["one-process", "xdist-worker"])
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_killed_test_run_leaves_no_server_behind(tmp_path, how, workers):
    (tmp_path / "test_holder.py").write_text(HOLDER)
    pids_file = tmp_path / "pids.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "A11Y_HOLDER_PIDS": str(pids_file)}
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:a11y", *workers, str(tmp_path)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + STARTED_WITHIN
        while not pids_file.exists():
            assert run.poll() is None, f"the holding run ended early:\n{run.stdout.read().decode()[-3000:]}"
            assert time.monotonic() < deadline, "the holding run did not start its servers"
            time.sleep(0.05)
        pids = json.loads(pids_file.read_text())
        assert all(_alive(pids[name]) for name in ("chromium", "redis", "postgres"))
        run.send_signal(how)
        run.wait(timeout=30)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(timeout=30)
    deadline = time.monotonic() + GONE_WITHIN
    while True:
        left = {
            "chromium": _group_members(pids["chromium"]),
            "redis": [pid for pid in (pids["redis"],) if _alive(pid)],
            "postgres": _postgres_processes(pids["postgres_data"]),
        }
        folders = [folder for folder in pids["folders"] if Path(folder).exists()]
        if not (any(left.values()) or folders) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not any(left.values()), f"still running after the test run was killed with {how.name}: {left}"
    assert not folders, f"left on disk after the test run was killed with {how.name}: {folders}"
