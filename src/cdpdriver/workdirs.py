"""The browser's working directories (``a11y-chromium-*`` in the temporary directory): made
with an owner record, removed when their owner is gone.

A process that ends normally removes its browser's directory (:meth:`BrowserProcess.terminate
<cdpdriver.launcher.BrowserProcess.terminate>`); one that is SIGKILLed cannot, and a Chromium
profile is a few megabytes. So each directory records its owner, as the pid and the start time
the kernel gives that pid in ``/proc/<pid>/stat`` (a pid alone may be reused by an unrelated
process), and the first launch in a process removes the directories whose owner is gone
(:func:`sweep`, on a thread after the browser has started, so it costs the launch nothing).
A directory whose owner record is missing or not ours is never touched, nor one whose owner
still runs.

Removal renames a directory to ``<name>-stale`` first: no name ``mkdtemp`` makes ends that
way, so a sweep interrupted half way (its process killed) leaves a name that only a sweep can
have made, and the next sweep finishes it. The same rename lets a short-lived process (the
CLI) hand its own directory to a detached ``rm`` (:func:`discard`) instead of waiting for it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

log = logging.getLogger(__name__)

PREFIX = "a11y-chromium-"
STALE_SUFFIX = "-stale"
OWNER_FILE = "owner"
#: First line of the owner record: what makes a directory one of ours.
MARKER = "a11y-chromium-owner 1"
#: Directories one sweep looks at, at most: a bound on its time, whatever the temp dir holds.
SWEEP_LIMIT = 200

_swept = threading.Lock()
_sweep_started = False
#: Detached removals still running, kept so that they are reaped rather than left as zombies.
_removers: list[subprocess.Popen[bytes]] = []
#: The detached removal: ``rm -rf`` of its one argument, tried again a few times. A browser
#: group killed a moment earlier may still finish a file it was creating in the directory
#: while ``rm`` walks it (the kill takes effect when each process leaves the kernel), and
#: ``rm`` then finds a directory not empty. The path is an argument, never part of the script.
_REMOVE_SCRIPT = 'for try in 1 2 3 4 5 6 7 8 9 10; do rm -rf -- "$1" && exit 0; sleep 0.2; done; exit 1'


def start_time(pid: int) -> str | None:
    """The start time of ``pid`` (clock ticks since boot, field 22 of ``/proc/<pid>/stat``),
    or None when no such process runs."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()  # the name in parentheses may hold spaces
    return fields[19] if len(fields) > 19 else None


def make_workdir() -> Path:
    """A new working directory in the temporary directory, its owner (this process) recorded."""
    workdir = Path(tempfile.mkdtemp(prefix=PREFIX))
    me = os.getpid()
    (workdir / OWNER_FILE).write_text(f"{MARKER}\n{me} {start_time(me)}\n")
    return workdir


def owner_gone(workdir: Path) -> bool:
    """Whether ``workdir`` is ours (its owner record says so) and its owner no longer runs.
    False whenever that cannot be told: no record, someone else's, unreadable."""
    try:
        lines = (workdir / OWNER_FILE).read_text().splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    if len(lines) < 2 or lines[0] != MARKER:
        return False
    parts = lines[1].split()
    if len(parts) != 2 or not parts[0].isdigit():
        return False
    return start_time(int(parts[0])) != parts[1]


def sweep(tempdir: str | None = None, limit: int = SWEEP_LIMIT) -> list[Path]:
    """Remove the stale working directories in ``tempdir`` (the default temporary directory):
    those whose owner is gone, and leftovers of an earlier sweep. Returns what it removed."""
    root = Path(tempdir or tempfile.gettempdir())
    uid = os.geteuid()
    removed: list[Path] = []
    try:
        entries = [e for e in os.scandir(root) if e.name.startswith(PREFIX)][:limit]
    except OSError:
        return removed
    for entry in entries:
        with contextlib.suppress(OSError):
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != uid:
                continue
            path = Path(entry.path)
            if entry.name.endswith(STALE_SUFFIX):  # an interrupted removal: only a sweep names so
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
            elif owner_gone(path):
                stale = path.with_name(path.name + STALE_SUFFIX)
                os.rename(path, stale)  # fails when another sweep took it first
                shutil.rmtree(stale, ignore_errors=True)
                removed.append(path)
    if removed:
        log.info("removed %d browser directories left by ended processes", len(removed))
    return removed


def sweep_once_in_background() -> None:
    """:func:`sweep` on a daemon thread, the first time a process calls this: a killed sweep
    leaves only ``-stale`` names, which the next one removes."""
    global _sweep_started
    with _swept:
        if _sweep_started:
            return
        _sweep_started = True
    threading.Thread(target=sweep, name="a11y-workdir-sweep", daemon=True).start()


def discard(workdir: Path, *, detached: bool = False) -> None:
    """Remove ``workdir``. ``detached``: rename it (it is gone from its name at once) and leave
    the removal to an ``rm`` process of its own that outlives this one, for a process about to
    exit; if that cannot start, remove it here."""
    if detached:
        stale = workdir.with_name(workdir.name + STALE_SUFFIX)
        try:
            os.rename(workdir, stale)
        except OSError:  # already removed, or not renamable: remove what is there here
            shutil.rmtree(workdir, ignore_errors=True)
            return
        try:
            _removers[:] = [p for p in _removers if p.poll() is None]  # reap the finished ones
            _removers.append(subprocess.Popen(  # noqa: S603 - fixed script, the path an argument
                ["sh", "-c", _REMOVE_SCRIPT, "a11y-remove", str(stale)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True,
            ))
            return
        except OSError:
            workdir = stale
    shutil.rmtree(workdir, ignore_errors=True)
