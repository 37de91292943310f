"""Launching, connecting and closing real Chromium; crash detection."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
import trio

from cdpdriver import (
    BrowserClosed,
    BrowserLaunchError,
    BrowserNotFound,
    LaunchOptions,
    connect,
    find_chromium,
    launch,
    workdirs,
)


def _alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("pipe", [True, False], ids=["pipe", "websocket"])
async def test_launch_and_close_leave_nothing_behind(pipe):
    async with launch(pipe=pipe) as browser:
        assert browser.version and browser.version.major >= 100
        pid = browser.pid
        workdir = browser.process.workdir
        assert workdir.exists()
        assert (workdir / "owner").read_text().splitlines() == [  # what a later sweep reads
            "a11y-chromium-owner 1", f"{os.getpid()} {workdirs.start_time(os.getpid())}"]
        assert (await browser.session.send("Browser.getVersion"))["product"]
        # Chromium's single-instance socket, which a killed browser never removes, is made
        # under its TMPDIR: inside the working directory, not loose in /tmp.
        socket = (workdir / "profile" / "SingletonSocket").readlink()
        assert socket.is_relative_to(workdir / "tmp")
    assert not workdir.exists()
    assert not _alive(pid)


async def test_detached_removal_renames_the_profile_away_at_once():
    async with launch() as browser:
        workdir = browser.process.workdir
        await browser.process.terminate(grace=0, detach_removal=True)
        assert not workdir.exists()  # renamed before terminate returns
        remover = workdirs._removers[-1]
        assert remover.args[-1] == str(workdir) + "-stale"
    await trio.to_thread.run_sync(remover.wait, 30)
    assert remover.returncode == 0
    assert not Path(remover.args[-1]).exists()


async def test_exception_inside_block_still_kills_browser():
    pid = workdir = None
    with pytest.raises(RuntimeError, match="boom"):
        async with launch() as browser:
            pid, workdir = browser.pid, browser.process.workdir
            raise RuntimeError("boom")
    assert not _alive(pid)
    assert not workdir.exists()


async def test_killed_browser_fails_pending_command_fast_then_relaunch_works():
    async with launch() as browser:
        page = await browser.new_page()
        failures: list[BaseException] = []
        elapsed: list[float] = []

        async def hang() -> None:
            started = time.monotonic()
            try:
                await page.evaluate("new Promise(() => {})", timeout=30)
            except BrowserClosed as exc:
                failures.append(exc)
            elapsed.append(time.monotonic() - started)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(hang)
            await trio.sleep(0.2)
            killed_at = time.monotonic()
            os.kill(browser.pid, signal.SIGKILL)
        assert failures, "the pending evaluate should fail with BrowserClosed"
        # The evaluate's own timeout is 30 s: ending well before it means the death was noticed.
        assert time.monotonic() - killed_at < 15
        assert not browser.is_connected
        with pytest.raises(BrowserClosed):
            await browser.session.send("Browser.getVersion")
    async with launch() as fresh:
        page = await fresh.new_page()
        assert await page.evaluate("6 * 7") == 42


def test_missing_binary_is_a_clear_error(monkeypatch):
    import cdpdriver.launcher as launcher

    monkeypatch.delenv("CHROME_PATH", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(launcher, "DEBIAN_CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(BrowserNotFound, match="apt-get install chromium"):
        find_chromium()


def test_bad_chrome_path_is_not_silently_ignored(monkeypatch):
    monkeypatch.setenv("CHROME_PATH", "/nonexistent/chrome")
    with pytest.raises(BrowserNotFound, match="CHROME_PATH"):
        find_chromium()
    monkeypatch.delenv("CHROME_PATH")
    assert find_chromium().endswith("chromium")


async def test_failed_start_reports_stderr(tmp_path):
    fake = tmp_path / "broken-chrome"
    fake.write_text("#!/bin/sh\necho 'fatal: cannot open display :99' >&2\nexit 3\n")
    fake.chmod(0o755)
    for pipe in (True, False):
        with pytest.raises(BrowserLaunchError) as info:
            async with launch(LaunchOptions(executable=str(fake), pipe=pipe, timeout=10)):
                pass
        assert "code 3" in str(info.value)
        assert "cannot open display" in str(info.value)


async def test_connect_by_http_url(chromium):
    async with connect(chromium.http_url) as browser:
        assert browser.version.major >= 100
        async with browser.page() as page:
            assert await page.evaluate("'ok'") == "ok"


async def test_connect_to_nothing_is_a_launch_error():
    with pytest.raises(BrowserLaunchError, match="cannot reach"):
        async with connect("http://127.0.0.1:9", timeout=2):
            pass


async def test_cancelling_connect_while_it_opens_does_not_hang(chromium):
    # Many delays, so that some cancellation lands in the moment the reader, cancelled too,
    # fails the pending first command: that must still read as the caller's cancellation.
    with trio.fail_after(20):
        for delay in [step / 4000 for step in range(80)]:
            with trio.move_on_after(delay):
                async with connect(chromium.ws_url) as browser:
                    await browser.session.send("Browser.getVersion")
                    await trio.sleep(1)


def _renderers(root: int) -> set[int]:
    """The renderer processes below ``root``."""
    children: dict[int, list[int]] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if b"--type=renderer" in fh.read():
                    found.add(pid)
        except OSError:
            pass
    return found


async def _renderers_started_by_one_context_tab(options: LaunchOptions, wait: float) -> int:
    """How many renderer processes a fresh context's tab and its navigation start, counted
    within ``wait`` seconds of the page's load."""
    async with launch(options) as browser:
        # The launch's own about:blank tab starts its renderer when the machine gets to it: a
        # script run there proves it is up, so it cannot be counted as the new tab's.
        [initial] = [t for t in await browser.targets() if t.type == "page"]
        first = await browser.attach_page(str(initial.target_id))
        await first.evaluate("1")
        before = _renderers(browser.pid)
        context = await browser.create_context()
        page = await browser.new_page(context_id=context)
        await page.navigate("data:text/html,<p>audited</p>", wait_until="load")
        started = 0
        with trio.move_on_after(wait):
            while (started := len(_renderers(browser.pid) - before)) < 2:
                await trio.sleep(0.05)
        return started


async def test_without_the_spare_renderer_a_context_tab_starts_only_its_own():
    # With the spare (Chromium's default) a second renderer is started for the context that
    # navigated; this proves the count below can see one.
    assert await _renderers_started_by_one_context_tab(LaunchOptions(), wait=30) >= 2
    assert await _renderers_started_by_one_context_tab(LaunchOptions(spare_renderer=False), wait=1) == 1

