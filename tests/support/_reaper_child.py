"""The watchdog of tests/support/reaper.py: runs as ``python -I _reaper_child.py`` with the
watching test process's pipe as standard input.

Lines ``watch PID`` and ``forget PID`` keep the set of servers to kill, ``clean PATH`` and
``keep PATH`` the set of their working directories to delete; end-of-file means the test process
has ended, and everything still watched is killed with SIGKILL: the process group the PID leads,
and every process descending from the PID (found through /proc). Then, once those processes are
gone (a bounded wait: a dying server may still write), the directories still registered are
deleted. Standard library only, no imports from the project: it must run while the test process
is already gone.
"""

import os
import shutil
import signal
import sys
import time

#: How long the killed servers get to be gone before their directories are deleted anyway.
_GONE_WITHIN_S = 10.0


def _parents() -> dict[int, int]:
    """PID -> parent PID of every process now."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        found[int(name)] = int(fields[1])
    return found


def _descendants(pid: int) -> set[int]:
    parents = _parents()
    found = {pid}
    grew = True
    while grew:
        grew = False
        for child, parent in parents.items():
            if parent in found and child not in found:
                found.add(child)
                grew = True
    return found


def _kill(pid: int) -> set[int]:
    """SIGKILL ``pid``'s group and descendants; the processes signalled."""
    victims = _descendants(pid)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    for victim in victims:
        try:
            os.kill(victim, signal.SIGKILL)
        except OSError:
            pass
    return victims


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended; its parent, gone too, will not reap it soon)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


def main() -> None:
    watched: set[int] = set()
    folders: set[str] = set()
    for line in sys.stdin:
        verb, _, value = line.rstrip("\n").partition(" ")
        if verb == "clean" and value:
            folders.add(value)
        elif verb == "keep":
            folders.discard(value)
        elif value.isdigit() and verb == "watch":
            watched.add(int(value))
        elif value.isdigit() and verb == "forget":
            watched.discard(int(value))
    victims: set[int] = set()
    for pid in watched:
        victims |= _kill(pid)
    deadline = time.monotonic() + _GONE_WITHIN_S
    while any(_running(pid) for pid in victims) and time.monotonic() < deadline:
        time.sleep(0.05)
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # only end-of-file ends it
    main()
