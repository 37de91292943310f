"""The command line: --help, --version and doctor, as a user runs them."""

from __future__ import annotations

import os
import subprocess
import sys


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "a11y", *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})


def test_help_and_version():
    out = _run("--help")
    assert out.returncode == 0
    for command in ("serve", "audit", "mcp", "doctor"):
        assert command in out.stdout
    version = _run("--version")
    assert version.returncode == 0
    assert version.stdout.strip().startswith("a11y ")


def test_doctor_reports_both_versions():
    out = _run("doctor")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "browser: Chrome/" in out.stdout
    assert "axe-core: 4." in out.stdout


def test_doctor_fails_with_a_remedy():
    out = _run("doctor", env={"CHROME_PATH": "/nonexistent/chrome", "A11Y_AXE_PATH": "/nonexistent/axe.js"})
    assert out.returncode == 1
    assert "CHROME_PATH" in out.stdout
    assert "remedy" in out.stdout or "install" in out.stdout
