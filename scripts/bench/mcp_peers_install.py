"""The peers of the MCP agent task (scripts/bench/mcp_peers.py): installed, started and stopped.

@playwright/mcp, chrome-devtools-mcp and agent-browser are installed with ``npm`` into a
temporary directory that is deleted afterwards (never part of the project), with every
package's install scripts ignored and no browser download. agent-browser's package ships its
native binary (``bin/agent-browser-linux-x64``) without the run bit its install script would
set, so it is set here. Every server launches the same Chromium, headless, in a throwaway
profile, and runs with a directory of the temporary one as its working directory (and, for
agent-browser, as its home and its socket directory: one of its own per server), so nothing
they write lands in the project or the user's home. agent-browser's MCP server hands its
commands to a background daemon that outlives it; :func:`stop_daemons` stops each one by the
PID it wrote in its socket directory.
"""

from __future__ import annotations

import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mcp_peers_servers import A11y, AgentBrowser, ChromeDevtoolsMcp, PlaywrightMcp, Server

PEERS = ("@playwright/mcp@0.0.83", "chrome-devtools-mcp@1.11.0", "agent-browser@0.41.2")
#: The tool set an agent runs our server with for the task (the tools/list it pays for).
A11Y_PROFILE = "core"


def base_env(chromium: str) -> dict[str, str]:
    """No browser download, no usage statistics; the same Chromium for everyone."""
    keep = {
        k: v for k, v in os.environ.items() if k in ("HOME", "PATH", "LANG", "TMPDIR", "PYTHONPATH")
    }
    return {
        **keep,
        "CHROME_PATH": chromium,
        "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1",
        "PUPPETEER_SKIP_DOWNLOAD": "1",
        "CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS": "1",
    }


@contextmanager
def installed_peers(chromium: str) -> Iterator[Path]:
    """A temporary directory with the peers' node_modules, deleted after the block (after the
    agent-browser daemons started under it are stopped)."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            raise SystemExit(
                f"{tool} is not installed (apt-get install nodejs npm); the peers cannot run"
            )
    with tempfile.TemporaryDirectory(prefix="a11y-mcp-peers-") as tmp:
        root = Path(tmp)
        (root / "package.json").write_text('{"private": true}')
        print(
            f"npm install {' '.join(PEERS)} into {root} (temporary, install scripts ignored, no browser download)"
        )
        subprocess.run(
            [
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--ignore-scripts",
                "--loglevel=error",
                *PEERS,
            ],
            cwd=root,
            env=base_env(chromium),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        native = _agent_browser_binary(root)
        native.chmod(native.stat().st_mode | 0o111)
        try:
            yield root
        finally:
            stop_daemons(root)


def _agent_browser_binary(root: Path) -> Path:
    machine = {"x86_64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(
        platform.machine(), platform.machine()
    )
    return (
        root / "node_modules" / "agent-browser" / "bin" / f"agent-browser-{sys.platform}-{machine}"
    )


def agent_browser_env(root: Path, chromium: str, name: str) -> dict[str, str]:
    """agent-browser's environment for one server: Debian's Chromium, no version check (it
    fetches a web page), and a home and a socket directory of its own under ``root``."""
    home, sockets = root / "ab" / name / "home", root / "ab" / name / "sockets"
    home.mkdir(parents=True, exist_ok=True)
    sockets.mkdir(parents=True, exist_ok=True)
    return {
        **base_env(chromium),
        "HOME": str(home),
        "AGENT_BROWSER_EXECUTABLE_PATH": chromium,
        "AGENT_BROWSER_NO_VERSION_CHECK": "1",
        "AGENT_BROWSER_SOCKET_DIR": str(sockets),
    }


def stop_daemons(root: Path) -> list[int]:
    """Stop every agent-browser daemon started under ``root`` by the PID it wrote, and wait
    (up to 10 s each) for it to go; returns the PIDs signalled."""
    stopped = []
    for pid_file in (root / "ab").glob("*/sockets/*.pid"):
        try:
            pid = int(pid_file.read_text().strip())
        except (OSError, ValueError):
            continue
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
        stopped.append(pid)
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    return stopped


def _alive(pid: int) -> bool:
    """Running, and not a zombie waiting for a parent to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def servers(root: Path, chromium: str) -> list[Server]:
    """Ours and the three peers, each as the task drives it, ours first."""
    env, modules = base_env(chromium), root / "node_modules"
    work = root / "work"
    work.mkdir(exist_ok=True)
    return [
        A11y(
            "a11y",
            [
                sys.executable,
                "-m",
                "a11y",
                "mcp",
                "--headless",
                "--profile",
                A11Y_PROFILE,
                "--output-dir",
                str(work / "a11y"),
            ],
            env,
            work,
        ),
        PlaywrightMcp(
            "playwright-mcp",
            [
                "node",
                str(modules / "@playwright/mcp/cli.js"),
                "--headless",
                "--isolated",
                "--no-sandbox",
                "--browser",
                "chromium",
                "--executable-path",
                chromium,
                "--output-dir",
                str(work / "pw"),
            ],
            env,
            work,
        ),
        ChromeDevtoolsMcp(
            "chrome-devtools-mcp",
            [
                "node",
                str(modules / "chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js"),
                "--headless",
                "--isolated",
                "--executablePath",
                chromium,
                "--chromeArg=--no-sandbox",
                "--no-usage-statistics",
                "--no-performance-crux",
            ],
            env,
            work,
        ),
        AgentBrowser(
            "agent-browser",
            [str(_agent_browser_binary(root)), "mcp"],
            agent_browser_env(root, chromium, "task"),
            work,
        ),
    ]
