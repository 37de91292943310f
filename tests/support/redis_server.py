"""A throwaway ``redis-server`` for the test session, and a key prefix of its own per test.

The server is a plain child process (pytest-trio gives every test its own Trio run), on a
free 127.0.0.1 port and a Unix socket in a temporary directory, without persistence (or, with
``durable=True``, with an append-only file synced before every reply), and is stopped by its
PID. The fault tests crash it (:meth:`RedisServer.halt`) and start it again on the same port
and data (:meth:`RedisServer.resume`), or freeze it (:meth:`RedisServer.freeze`: a server that
accepts connections and answers nothing) and let it go on (:meth:`RedisServer.thaw`). A missing binary fails the tests rather than skipping them: CI must
never pass by not testing the queue.

Use from a ``conftest.py``: ``from tests.support.redis_server import redis_prefix,
redis_server  # noqa: F401``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest
import redis

from tests.support.ports import free_port, port_of
from tests.support.reaper import reaper

_START_ATTEMPTS = 3
_START_TIMEOUT_S = 10.0


def find_redis_server() -> str:
    """The ``redis-server`` binary; fails the test session with the fix when absent."""
    found = shutil.which("redis-server") or next(
        (p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if os.access(p, os.X_OK)),
        None,
    )
    if found is None:
        pytest.fail(
            "redis-server is not installed; the queue tests need a real one. "
            "Run `bash scripts/install.sh`.",
            pytrace=False,
        )
    return found


class RedisServer:
    """One running ``redis-server``; ``url`` (TCP) and ``unix_url`` (socket) reach it."""

    def __init__(self, *, durable: bool = False) -> None:
        """``durable``: ``appendonly yes`` with ``appendfsync always``, so every write is in
        the append-only file before it is acknowledged and a crash (:meth:`halt`) loses none;
        the default keeps nothing on disk."""
        self.durable = durable
        self.workdir = Path(tempfile.mkdtemp(prefix="a11y-test-redis-"))
        reaper().clean(self.workdir)  # deleted with this process, even without teardown
        self.socket_path = self.workdir / "redis.sock"
        self.log_path = self.workdir / "redis.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def unix_url(self) -> str:
        return f"unix://{self.socket_path}?db=0"

    def start(self) -> RedisServer:
        return self._launch(None)

    def halt(self) -> None:
        """Kill the server as a crash would (SIGKILL), keeping its data directory and port:
        an outage, which :meth:`resume` ends."""
        process, self.process = self.process, None
        if process is not None:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
            reaper().forget(process.pid)

    def resume(self) -> RedisServer:
        """Start the halted server again on the same port, with its data (its append-only
        file, when durable)."""
        return self._launch(self.port)

    def freeze(self) -> None:
        """Stop the server's process (SIGSTOP): connections are still accepted by the kernel,
        and nothing is answered, as with a server that hangs. :meth:`thaw` lets it go on."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)

    def _launch(self, port: int | None) -> RedisServer:
        binary = find_redis_server()
        for _ in range(_START_ATTEMPTS if port is None else 1):
            self.port = port or free_port()
            options = {
                "port": str(self.port),
                "bind": "127.0.0.1",
                "unixsocket": str(self.socket_path),
                "unixsocketperm": "700",
                "save": "",
                "appendonly": "yes" if self.durable else "no",
                "appendfsync": "always",
                "dir": str(self.workdir),
                "logfile": str(self.log_path),
                "daemonize": "no",
            }
            self.process = subprocess.Popen(
                [binary, *(arg for name, value in options.items() for arg in (f"--{name}", value))],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            reaper().watch(self.process.pid)  # gone with this process, even without teardown
            if self._wait_for_ping():
                return self
            self._terminate()  # most likely the port was taken between probe and bind
        log = self.log_path.read_text(errors="replace")[-2000:] if self.log_path.exists() else ""
        self.stop()
        raise RuntimeError(f"redis-server did not answer PING; its log:\n{log}")

    def _wait_for_ping(self) -> bool:
        assert self.process is not None
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1.0)
        deadline = time.monotonic() + _START_TIMEOUT_S
        try:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    return False
                try:  # an answer is ours only if our process holds the port
                    if client.ping() and port_of(self.process.pid) == self.port:
                        return True
                except (redis.ConnectionError, redis.TimeoutError):  # not up yet, or loading
                    pass
                time.sleep(0.02)
            return False
        finally:
            client.close()

    def _terminate(self) -> None:
        """SIGTERM, then SIGKILL if the server has not exited within five seconds."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGCONT)  # a frozen server acts on SIGTERM only then
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        reaper().forget(process.pid)

    def stop(self) -> None:
        self._terminate()
        shutil.rmtree(self.workdir, ignore_errors=True)
        reaper().keep(self.workdir)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def client(self) -> redis.Redis:
        """A plain sync client, for a test's own look at the server."""
        return redis.Redis(
            host="127.0.0.1", port=self.port, socket_timeout=5.0, decode_responses=True
        )


@pytest.fixture(scope="session")
def redis_server():
    with RedisServer() as server:
        yield server


@pytest.fixture
def redis_prefix(redis_server):
    """A key prefix no other test uses; its keys are deleted afterwards."""
    prefix = f"t{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis_server.client()
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()
