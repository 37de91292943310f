"""Find and start a Chromium process; guarantee it never outlives us.

The process runs in its own process group so one ``killpg`` ends the browser
and all of its helpers, and an ``atexit`` hook kills any group still alive if
the interpreter exits without running our ``finally`` blocks.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import logging
import os
import shutil
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import trio

from . import workdirs
from .errors import BrowserLaunchError, BrowserNotFound

log = logging.getLogger(__name__)

DEBIAN_CHROMIUM = "/usr/lib/chromium/chromium"
_FALLBACK_NAMES = ("chromium-browser", "google-chrome", "google-chrome-stable", "chromium")

#: Features off in every launch. The omnibox popups are web UI pages that every new window
#: preloads, a browser context its own window: two renderer processes per context, more CPU
#: than auditing a small page.
_DISABLED_FEATURES = (
    "Translate", "MediaRouter", "OptimizationHints",
    "WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup",
)
#: Chromium starts a spare renderer process for the browser context that last navigated, for
#: its next tab or cross-site navigation. A browser whose contexts each serve one tab and
#: are then disposed (the audit service's) starts and kills one per context for nothing.
SPARE_RENDERER_FEATURE = "SpareRendererForSitePerProcess"

# Quiet, deterministic headless defaults. Background networking is off because
# the browser's own update and telemetry calls are refused on closed networks.
BASE_FLAGS = (
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-dev-shm-usage",
    "--disable-breakpad",
    "--disable-crash-reporter",
    "--disable-client-side-phishing-detection",
    "--disable-popup-blocking",
    "--disable-prompt-on-repost",
    "--disable-hang-monitor",
    f"--disable-features={','.join(_DISABLED_FEATURES)}",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
    "--mute-audio",
    "--disable-quic",
)

_live_groups: set[int] = set()


def _kill_leftover_groups() -> None:
    for pgid in list(_live_groups):
        with contextlib.suppress(OSError):
            os.killpg(pgid, signal.SIGKILL)


atexit.register(_kill_leftover_groups)


def find_chromium(explicit: str | None = None) -> str:
    """The browser binary: the argument, ``CHROME_PATH``, Debian's real binary, then PATH.

    An explicit choice (argument or ``CHROME_PATH``) that is not an executable
    file is an error rather than a silent fallback to another browser.
    """
    for chosen, origin in ((explicit, "the given path"), (os.environ.get("CHROME_PATH"), "CHROME_PATH")):
        if chosen:
            if os.path.isfile(chosen) and os.access(chosen, os.X_OK):
                return chosen
            raise BrowserNotFound(f"{origin} {chosen!r} is not an executable file; fix it or unset it")
    candidates = [DEBIAN_CHROMIUM, *filter(None, (shutil.which(n) for n in _FALLBACK_NAMES))]
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise BrowserNotFound(
        f"no Chromium found (tried {DEBIAN_CHROMIUM}, {', '.join(_FALLBACK_NAMES)}); "
        "install it with `apt-get install chromium` or set CHROME_PATH"
    )


@dataclass
class LaunchOptions:
    executable: str | None = None
    headless: bool = True
    pipe: bool = True
    args: Sequence[str] = ()
    window_size: tuple[int, int] = (1280, 800)
    timeout: float = 20.0
    extensions: bool = False
    env: dict[str, str] = field(default_factory=dict)
    #: Keep Chromium's spare renderer (see ``SPARE_RENDERER_FEATURE``): right for a browser
    #: whose tabs live long or navigate across sites, wasted where each tab gets a context
    #: of its own that is disposed after it.
    spare_renderer: bool = True


@dataclass
class BrowserProcess:
    """A started Chromium and the files it owns."""

    process: trio.Process
    workdir: Path
    executable: str
    write_fd: int | None = None
    read_fd: int | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def profile_dir(self) -> Path:
        return self.workdir / "profile"

    @property
    def stderr_path(self) -> Path:
        return self.workdir / "stderr.log"

    def stderr_tail(self, lines: int = 15) -> str:
        """The last meaningful stderr lines, without the harmless dbus noise."""
        try:
            text = self.stderr_path.read_text(errors="replace")
        except OSError:
            return ""
        useful = [ln for ln in text.splitlines() if ln.strip() and "dbus" not in ln.lower()]
        return "\n".join(useful[-lines:])

    async def wait_for_port(self, timeout: float) -> str:
        """Websocket URL from DevToolsActivePort; fails fast if the process exits."""
        port_file = self.profile_dir / "DevToolsActivePort"
        with trio.move_on_after(timeout):
            while True:
                if self.process.poll() is not None:
                    raise BrowserLaunchError(self.exit_message())
                with contextlib.suppress(OSError):
                    lines = port_file.read_text().splitlines()
                    if len(lines) >= 2:
                        return f"ws://127.0.0.1:{lines[0].strip()}{lines[1].strip()}"
                await trio.sleep(0.005)
        raise BrowserLaunchError(f"browser did not open its debugging port within {timeout:g} s")

    def exit_message(self) -> str:
        tail = self.stderr_tail()
        return f"browser exited with code {self.process.returncode}" + (f":\n{tail}" if tail else "")

    async def terminate(self, grace: float = 2.0, *, gently: bool = True, detach_removal: bool = False) -> None:
        """End the whole process group: SIGTERM, a grace period, then SIGKILL; only SIGKILL
        when not ``gently`` (Chromium's own shutdown then never runs: the profile it would
        save is this process's temporary one, deleted here). ``detach_removal``: the
        working directory is renamed away at once and removed by a process of its own
        (:func:`.workdirs.discard`), for a caller about to exit that should not wait for it."""
        pgid = self.process.pid
        with trio.CancelScope(shield=True):
            if gently and self.process.poll() is None:
                with contextlib.suppress(OSError):
                    os.killpg(pgid, signal.SIGTERM)
                with trio.move_on_after(grace):
                    await self.process.wait()
            # Helpers may linger after the main process; the group kill is idempotent.
            with contextlib.suppress(OSError):
                os.killpg(pgid, signal.SIGKILL)
            if self.process.poll() is None:
                with trio.move_on_after(grace):
                    await self.process.wait()
            _live_groups.discard(pgid)
            for fd in (self.write_fd, self.read_fd):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self.write_fd = self.read_fd = None
            workdirs.discard(self.workdir, detached=detach_removal)


def chromium_command(executable: str, options: LaunchOptions, profile: Path) -> list[str]:
    """The full argv for ``executable`` with ``options`` and a profile directory."""
    return [executable, *_flags(options, profile)]


def chromium_environment(workdir: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a browser whose files live in ``workdir``: this process's, with
    TMPDIR inside ``workdir`` (made here), then ``extra``.

    Chromium makes its single-instance socket in a directory of its own under TMPDIR and
    removes it only on a clean exit; every browser here ends with a SIGKILL to its group, so
    each launch would leave one ``org.chromium.Chromium.*`` directory in /tmp for good. Inside
    the working directory it is removed with everything else the browser owns."""
    tmp = workdir / "tmp"
    tmp.mkdir(exist_ok=True)
    return {**os.environ, "TMPDIR": str(tmp), **(extra or {})}


def _flags(options: LaunchOptions, profile: Path) -> list[str]:
    flags = [*BASE_FLAGS, f"--user-data-dir={profile}"]
    if not options.spare_renderer:  # Chromium reads one --disable-features: extend it
        flags = [f"{flag},{SPARE_RENDERER_FEATURE}" if flag.startswith("--disable-features=") else flag
                 for flag in flags]
    width, height = options.window_size
    flags.append(f"--window-size={width},{height}")
    if options.headless:
        flags += ["--headless", "--hide-scrollbars"]
    if os.geteuid() == 0:
        log.info("running as root: adding --no-sandbox (Chromium refuses root otherwise)")
        flags.append("--no-sandbox")
    if options.extensions:
        flags.append("--enable-unsafe-extension-debugging")
    else:
        flags.append("--disable-extensions")
    flags.append("--remote-debugging-pipe" if options.pipe else "--remote-debugging-port=0")
    flags += list(options.args)
    flags.append("about:blank")
    return flags


async def start_chromium(options: LaunchOptions) -> BrowserProcess:
    """Spawn Chromium; the caller owns the result and must ``terminate`` it. Once the
    browser runs, the first launch of a process removes, on a thread, the working
    directories that killed processes left behind (:func:`.workdirs.sweep`)."""
    executable = find_chromium(options.executable)
    workdir = workdirs.make_workdir()
    (workdir / "profile").mkdir()
    argv = chromium_command(executable, options, workdir / "profile")
    env = chromium_environment(workdir, options.env)
    stderr_file = open(workdir / "stderr.log", "wb")  # noqa: SIM115 - handed to the child
    parent_fds: list[int] = []
    kwargs: dict = {}
    if options.pipe:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        parent_fds = [to_child_w, from_child_r]
        child_fds = (to_child_r, from_child_w)

        def _remap() -> None:  # runs in the child between fork and exec
            a = fcntl.fcntl(child_fds[0], fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(child_fds[1], fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        kwargs = {"preexec_fn": _remap, "pass_fds": (3, 4, *child_fds)}
    try:
        process = await trio.lowlevel.open_process(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr_file,
            start_new_session=True,
            env=env,
            **kwargs,
        )
    except BaseException:
        for fd in parent_fds:
            os.close(fd)
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    finally:
        stderr_file.close()
        if options.pipe:
            os.close(to_child_r)
            os.close(from_child_w)
    _live_groups.add(process.pid)
    workdirs.sweep_once_in_background()
    log.info("started %s (pid %d, %s)", executable, process.pid, "pipe" if options.pipe else "websocket")
    started = BrowserProcess(process, workdir, executable)
    if options.pipe:
        started.write_fd, started.read_fd = parent_fds
    return started
