"""CPU seconds of a process tree, read from ``/proc/<pid>/stat``.

A tree's CPU is, over its live processes, user + system time plus the time of the children
each has reaped (``cutime``/``cstime``): a renderer that exited during a measurement has been
reaped by its parent (Chromium's zygote), so its time is still counted, once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def descendants(root: int) -> list[int]:
    """``root`` and every live process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry))  # field 4: ppid
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def tree_cpu(root: int | None) -> float:
    """CPU seconds of ``root`` and its descendants (0 for None)."""
    if root is None:
        return 0.0
    total = 0
    for pid in descendants(root):
        fields = _stat(pid)
        if fields is not None:  # fields 14-17: utime stime cutime cstime
            total += sum(int(v) for v in fields[11:15])
    return total / TICKS


def own_cpu() -> float:
    """CPU seconds of this process (all threads), without its children."""
    times = os.times()
    return times.user + times.system


@dataclass
class CpuMeter:
    """CPU spent by this process and by the tree under ``root`` between start and stop."""

    root: int | None

    def __post_init__(self) -> None:
        self._python = own_cpu()
        self._tree = tree_cpu(self.root)

    def read(self) -> tuple[float, float]:
        """(python seconds, browser tree seconds) since the meter was made."""
        return own_cpu() - self._python, tree_cpu(self.root) - self._tree
