"""TCP ports of 127.0.0.1 for the tests: where nothing listens, and where a server started
with ``--port 0`` does.

A port found free and then handed to a server can be taken by someone else in between: an
outgoing connection of any process on the machine gets its local port from the same range.
So a server a test starts binds port 0 itself, and the test reads the port it got from the
kernel's socket table (:func:`listening_port`), never by connecting, which could reach
another test's server. The Redis and PostgreSQL fixtures, whose servers cannot bind port 0,
start again on another port when theirs was taken (Redis's answer counts only once the
kernel shows the port is its own: :func:`port_of`).
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

#: The kernel's state code of a listening TCP socket in /proc/net/tcp.
_LISTEN = "0A"


def free_port() -> int:
    """A port nothing listened on a moment ago: for an address that must refuse connections,
    or for a server that retries with another when it loses the port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening_port(process: subprocess.Popen[bytes], timeout: float = 60.0) -> int:
    """The TCP port ``process`` (a server started on port 0) listens on, as soon as it does.

    Raises AssertionError when the process exits first or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode} before it listened")
        port = port_of(process.pid)
        if port is not None:
            return port
        if time.monotonic() > deadline:
            raise AssertionError(f"the server did not listen within {timeout:g} s")
        time.sleep(0.05)


def port_of(pid: int) -> int | None:
    """The port of a listening TCP socket the process ``pid`` holds, if any."""
    sockets = set()
    fds = Path(f"/proc/{pid}/fd")
    try:
        names = os.listdir(fds)
    except OSError:
        return None
    for name in names:
        try:
            target = os.readlink(fds / name)
        except OSError:
            continue
        if target.startswith("socket:["):
            sockets.add(target[len("socket:["):-1])
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == _LISTEN and fields[9] in sockets:
                return int(fields[1].rsplit(":", 1)[1], 16)
    return None
