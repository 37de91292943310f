"""Free TCP ports of 127.0.0.1 for servers a test starts."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port nothing listened on a moment ago; a server started on it may still lose a race
    for it, so callers retry with another."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
