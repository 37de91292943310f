"""Nothing the test session starts outlives it, however the session ends.

The session's shared Chromium, Redis and PostgreSQL run in sessions of their own (so a test
that signals its own process group does not hit them), and their fixtures stop them at the
end. But a test run stopped by SIGTERM or SIGKILL runs no teardown: without more, those
servers would stay up. So the first server started also starts a watchdog (``_reaper_child.py``)
with the read end of a pipe whose write end only this process holds (file descriptors made by
``os.pipe`` are not inherited by children). The kernel closes it when this process ends, in any
way; the watchdog then reads end-of-file and kills what is still registered: each server's
process group, and every descendant of its main process (PostgreSQL's ``pg_ctl`` starts the
postmaster outside our groups), then deletes the working directories still registered (a
browser profile, a data directory: megabytes each, left in /tmp by every killed run otherwise).
A server stopped normally is unregistered first, so a process ID the system has given to
someone else since is never signalled.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
from pathlib import Path

_CHILD = Path(__file__).with_name("_reaper_child.py")


class Reaper:
    """The watchdog of this test process (see the module docstring)."""

    def __init__(self) -> None:
        read_end, self._write_end = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-I", str(_CHILD)],
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C to the test's process group leaves it running
            )
        finally:
            os.close(read_end)
        self._lock = threading.Lock()

    def _say(self, line: str) -> None:
        with self._lock:
            os.write(self._write_end, (line + "\n").encode())

    def watch(self, pid: int) -> None:
        """Kill ``pid``'s process group and descendants if this process dies first."""
        self._say(f"watch {pid}")

    def forget(self, pid: int) -> None:
        """``pid`` was stopped properly: leave it alone."""
        self._say(f"forget {pid}")

    def clean(self, folder: Path) -> None:
        """Delete ``folder`` if this process dies before :meth:`keep` is called for it."""
        self._say(f"clean {folder}")

    def keep(self, folder: Path) -> None:
        """``folder`` was deleted (or handed on) properly: leave it alone."""
        self._say(f"keep {folder}")

    def close(self) -> None:
        """End the watchdog (it kills whatever is still watched: nothing, after a clean run)."""
        with self._lock:
            if self._write_end < 0:
                return
            os.close(self._write_end)
            self._write_end = -1
        self.process.wait(timeout=30)


_reaper: Reaper | None = None
_started = threading.Lock()


def reaper() -> Reaper:
    """This process's watchdog, started on first use and closed at exit."""
    global _reaper
    with _started:
        if _reaper is None:
            _reaper = Reaper()
            atexit.register(_reaper.close)
        return _reaper
