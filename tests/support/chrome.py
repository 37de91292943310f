"""One Chromium for a whole test session (with xdist, one per worker: each worker is a
session of its own), started without trio.

pytest-trio runs each test in its own trio run, so the shared browser is a
plain process; each test connects to it over its websocket and works in its
own browser context.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from cdpdriver.launcher import LaunchOptions, chromium_command, chromium_environment, find_chromium
from tests.support.reaper import reaper


class SharedChromium:
    def __init__(self) -> None:
        self.workdir = Path(tempfile.mkdtemp(prefix="a11y-test-chromium-"))
        reaper().clean(self.workdir)  # deleted with this process, even without teardown
        profile = self.workdir / "profile"
        profile.mkdir()
        # Without the spare renderer, as the audit service runs: each test works in a context
        # of its own that is disposed after it, so a spare process started for the context that
        # navigated last is killed unused, one per test (about a tenth of the browser's CPU).
        argv = chromium_command(find_chromium(), LaunchOptions(pipe=False, spare_renderer=False), profile)
        self.stderr = open(self.workdir / "stderr.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.stderr,
            start_new_session=True, env=chromium_environment(self.workdir),
        )
        reaper().watch(self.process.pid)  # gone with this process, even without teardown
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"shared chromium exited: {(self.workdir / 'stderr.log').read_text()[-2000:]}")
            try:
                lines = port_file.read_text().splitlines()
                if len(lines) >= 2:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("shared chromium did not open its port")
            time.sleep(0.01)
        self.port = int(lines[0])
        self.ws_url = f"ws://127.0.0.1:{lines[0]}{lines[1]}"
        self.http_url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except OSError:
            pass
        self.process.wait(timeout=10)
        reaper().forget(self.process.pid)
        self.stderr.close()
        shutil.rmtree(self.workdir, ignore_errors=True)
        reaper().keep(self.workdir)
