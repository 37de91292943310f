"""The watchdog of tests/support/reaper.py: runs as ``python -I _reaper_child.py`` with the
watching test process's pipe as standard input.

Lines ``watch PID`` and ``forget PID`` keep the set of servers to kill; end-of-file means the
test process has ended, and everything still watched is killed with SIGKILL: the process group
the PID leads, and every process descending from the PID (found through /proc). Standard library
only, no imports from the project: it must run while the test process is already gone.
"""

import os
import signal
import sys


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


def _kill(pid: int) -> None:
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


def main() -> None:
    watched: set[int] = set()
    for line in sys.stdin:
        verb, _, value = line.strip().partition(" ")
        if not value.isdigit():
            continue
        if verb == "watch":
            watched.add(int(value))
        elif verb == "forget":
            watched.discard(int(value))
    for pid in watched:
        _kill(pid)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # only end-of-file ends it
    main()
