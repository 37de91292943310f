"""``python -m a11y serve`` as a real process: it listens, launches its browser, answers, and
on SIGTERM exits 0 leaving no browser behind."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_serve_process_lifecycle(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "A11Y_API_TOKEN": "proc-token"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "a11y", "serve", "--port", "0", "--concurrency", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env,
    )
    lines: list[str] = []
    found = {"url": threading.Event(), "pid": threading.Event()}
    seen: dict[str, str] = {}

    def pump() -> None:
        for line in proc.stderr:
            lines.append(line)
            if m := re.search(r"listening on (http://\S+)", line):
                seen["url"] = m.group(1).rstrip(",")
                found["url"].set()
            if m := re.search(r"browser ready: .* \(pid (\d+)\)", line):
                seen["pid"] = m.group(1)
                found["pid"].set()

    def wait_for(name: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not found[name].wait(0.05):
            assert proc.poll() is None, "serve exited early:\n" + "".join(lines)
            assert time.monotonic() < deadline, f"no {name} in:\n" + "".join(lines)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        wait_for("url")
        with httpx.Client(base_url=seen["url"], timeout=60, verify=False) as client:
            health = client.get("/health")
            assert health.status_code == 200, health.text
            wait_for("pid")
            # The token came from A11Y_API_TOKEN.
            assert client.post("/audit", json={"url": "http://a.test/"}).status_code == 401
        pid = int(seen["pid"])
        assert _alive(pid)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, "".join(lines)
        reader.join(timeout=5)
        assert proc.stdout.read() == ""  # logs go to stderr only
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid), "the browser outlived the service"
        assert any("audit url=- status=401" in line for line in lines), "".join(lines)
        # Runs were kept in the default data directory, under the working directory.
        assert (tmp_path / "a11y-data" / "a11y.db").is_file()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
