"""The sweep of browser working directories left by killed processes (cdpdriver.workdirs):
a directory whose recorded owner is gone is removed; one whose owner runs, one without our
owner record and anything else in the temporary directory are kept."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from cdpdriver import workdirs


def _workdir(root: Path, name: str, owner: str | None) -> Path:
    path = root / f"{workdirs.PREFIX}{name}"
    (path / "profile").mkdir(parents=True)
    (path / "profile" / "Cookies").write_bytes(b"x" * 100)
    if owner is not None:
        (path / workdirs.OWNER_FILE).write_text(owner)
    return path


def _ended_process() -> tuple[int, str]:
    """The pid and start time of a process that ran and has been reaped."""
    child = subprocess.Popen(["sleep", "60"])
    started = workdirs.start_time(child.pid)
    child.kill()
    child.wait(timeout=30)
    assert started is not None and workdirs.start_time(child.pid) is None
    return child.pid, started


def test_a_dead_owners_directory_is_removed_and_a_live_ones_kept(tmp_path):
    pid, started = _ended_process()
    dead = _workdir(tmp_path, "dead0001", f"{workdirs.MARKER}\n{pid} {started}\n")
    me = os.getpid()
    alive = _workdir(tmp_path, "live0001", f"{workdirs.MARKER}\n{me} {workdirs.start_time(me)}\n")

    removed = workdirs.sweep(str(tmp_path))

    assert removed == [dead]
    assert not dead.exists() and not Path(f"{dead}{workdirs.STALE_SUFFIX}").exists()
    assert (alive / "profile" / "Cookies").exists()


def test_a_reused_pid_is_not_its_owner(tmp_path):
    """The pid runs, but started at another time: a different process, so the owner is gone."""
    me = os.getpid()
    reused = _workdir(tmp_path, "reused01", f"{workdirs.MARKER}\n{me} 1\n")
    assert workdirs.sweep(str(tmp_path)) == [reused]
    assert not reused.exists()


def test_directories_without_our_owner_record_are_kept(tmp_path):
    pid, started = _ended_process()
    unmarked = _workdir(tmp_path, "nomark01", None)  # an older version's, or one being made
    foreign = _workdir(tmp_path, "foreign1", f"someone else\n{pid} {started}\n")
    garbled = _workdir(tmp_path, "garbled1", f"{workdirs.MARKER}\nnot a pid\n")
    other = tmp_path / "other-dir"
    other.mkdir()
    (other / workdirs.OWNER_FILE).write_text(f"{workdirs.MARKER}\n{pid} {started}\n")
    a_file = tmp_path / f"{workdirs.PREFIX}file"
    a_file.write_text("")

    assert workdirs.sweep(str(tmp_path)) == []
    assert all(p.exists() for p in (unmarked, foreign, garbled, other, a_file))


def test_an_interrupted_sweeps_leftover_is_finished(tmp_path):
    leftover = _workdir(tmp_path, f"half0001{workdirs.STALE_SUFFIX}", None)
    assert workdirs.sweep(str(tmp_path)) == [leftover]
    assert not leftover.exists()


def test_make_workdir_records_this_process(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    made = workdirs.make_workdir()
    assert made.parent == tmp_path and made.name.startswith(workdirs.PREFIX)
    assert not workdirs.owner_gone(made)
    assert workdirs.sweep(str(tmp_path)) == []
    assert made.exists()


def test_detached_discard_removes_in_a_process_of_its_own(tmp_path):
    doomed = _workdir(tmp_path, "doomed01", None)
    workdirs.discard(doomed, detached=True)
    assert not doomed.exists()
    remover = workdirs._removers[-1]
    assert remover.wait(timeout=30) == 0
    assert list(tmp_path.iterdir()) == []


def test_the_detached_removal_takes_its_path_as_an_argument_never_as_script(tmp_path, monkeypatch):
    """The remover is a fixed shell loop and the path its argument: a name full of shell
    syntax is removed as a name, and none of it runs (it would leave files in the remover's
    working directory, here ``tmp_path``)."""
    monkeypatch.chdir(tmp_path)
    doomed = tmp_path / 'doomed $(touch ran) `touch ran2`; touch ran3 "'
    (doomed / "profile").mkdir(parents=True)
    (doomed / "profile" / "file").write_text("x")
    workdirs.discard(doomed, detached=True)
    assert workdirs._removers[-1].wait(timeout=30) == 0
    assert list(tmp_path.iterdir()) == []


def test_discard_of_a_missing_directory_is_quiet(tmp_path):
    workdirs.discard(tmp_path / "never-made", detached=True)
    workdirs.discard(tmp_path / "never-made")


_LAUNCH_AND_JOIN_SWEEP = """
import threading, trio
from cdpdriver import launch

async def main():
    async with launch():
        for thread in threading.enumerate():
            if thread.name == "a11y-workdir-sweep":
                thread.join(60)

trio.run(main)
"""


def test_a_launch_sweeps_its_temporary_directory():
    """A fresh process's first launch removes a dead owner's directory and keeps the rest.
    The temporary directory is a short one of its own: Chromium puts its singleton socket
    there, and a Unix socket's path has at most 107 bytes (pytest's tmp_path under xdist is
    longer)."""
    tmp_path = Path(tempfile.mkdtemp(prefix="a11y-sweep-", dir="/tmp"))
    try:
        _sweeps_its_temporary_directory(tmp_path)
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def _sweeps_its_temporary_directory(tmp_path: Path) -> None:
    pid, started = _ended_process()
    dead = _workdir(tmp_path, "dead0002", f"{workdirs.MARKER}\n{pid} {started}\n")
    unmarked = _workdir(tmp_path, "nomark02", None)
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _LAUNCH_AND_JOIN_SWEEP], env=env, timeout=120,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert not dead.exists()
    assert unmarked.exists()
    ours = sorted(p.name for p in tmp_path.glob(f"{workdirs.PREFIX}*"))
    assert ours == [unmarked.name]  # its own one is gone too
