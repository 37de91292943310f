"""Many agents, one server: every client of the Streamable HTTP server works in a browser
context of its own (issue #25), through the SDK's own client over real HTTP.

A 2025-era client (``mode="legacy"``) is its MCP session; a 2026-07-28 client (the SDK's
default here) has no session and names its context with the handle ``browser_launch``
returns. The server is a real ``python -m a11y mcp --http`` process on the shared Chromium,
or, where a test needs tiny limits, the same app served in the test's own trio run.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio
from mcp import Client

from a11y.mcp_http import add_context_options, serve_http
from a11y.mcp_server import build_http_app, config_from_args
from tests.support.ports import listening_port
from tests.tools.conftest import ToolClient
from tools.session import ServerConfig

FORM = """<!doctype html><title>Order</title>
<script>
  const who = new URLSearchParams(location.search).get('who');
  document.cookie = 'who=' + who + '; path=/';
  localStorage.setItem('who', who);
</script>
<form onsubmit="event.preventDefault(); document.getElementById('result').textContent =
  [fullname.value, email.value, agree.checked].join('|')">
<label>Name <input id=fullname></label>
<label>Email <input id=email></label>
<label><input type=checkbox id=agree> I agree</label>
<button>Submit</button>
</form>
<output id=result></output>
<a id=file href="/ctx/file.txt" download="file.txt">file</a>"""
FILE = b"one client's file\n"


class Agent(ToolClient):
    """A client that names its browser context on every call once it has a handle."""

    def __init__(self, client: Client, context: str | None = None) -> None:
        super().__init__(client)
        self.context = context

    async def call_with_images(self, name: str, args: dict[str, Any] | None = None) -> Any:
        args = dict(args or {})
        if self.context is not None:
            args.setdefault("context", self.context)
        return await super().call_with_images(name, args)


def _start(output: Path, *extra: str) -> subprocess.Popen[bytes]:
    """A server process on a port of its own choosing (:func:`listening_port` reads it)."""
    return subprocess.Popen([sys.executable, "-m", "a11y", "mcp", "--http", "--port", "0",
                             "--output-dir", str(output), *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def server(chromium, tmp_path_factory):
    """One HTTP server process on the shared Chromium for the module: (URL, output dir)."""
    output = tmp_path_factory.mktemp("http-contexts")
    proc = _start(output, "--browser-url", chromium.ws_url)
    try:
        port = listening_port(proc)
        yield f"http://127.0.0.1:{port}/mcp", output
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@asynccontextmanager
async def served(config: ServerConfig) -> AsyncIterator[str]:
    """The HTTP app, with ``config``'s limits, served in this trio run; yields its URL."""
    stop = trio.Event()
    async with trio.open_nursery() as nursery:
        binds = await nursery.start(partial(serve_http, build_http_app(config, "127.0.0.1"), "127.0.0.1", 0,
                                            shutdown=stop.wait))
        try:
            yield f"{binds[0]}/mcp"
        finally:
            stop.set()


def _find(node: Any, role: str, name: str) -> dict[str, Any]:
    found = _search(node, role, name)
    assert found is not None, f"no {role} {name!r} in the snapshot"
    return found


def _search(node: Any, role: str, name: str) -> dict[str, Any] | None:
    if isinstance(node, dict):
        if node.get("role") == role and node.get("name") == name:
            return node
        for child in node.get("children", []):
            if (found := _search(child, role, name)) is not None:
                return found
    return None


async def order(agent: ToolClient, url: str, who: str) -> str:
    """The task: open the form, snapshot it, fill two fields and tick the box by reference,
    submit, and read what the page made of it."""
    await agent.ok("page_navigate", {"url": f"{url}?who={who}"})
    tree = (await agent.ok("accessibility_snapshot"))["tree"]
    await agent.ok("element_fill", {"selector": _find(tree, "textbox", "Name")["ref"], "value": who})
    await agent.ok("element_fill", {"selector": _find(tree, "textbox", "Email")["ref"], "value": f"{who}@example.test"})
    await agent.ok("element_check", {"selector": _find(tree, "checkbox", "I agree")["ref"]})
    await agent.ok("element_click", {"selector": _find(tree, "button", "Submit")["ref"]})
    return (await agent.ok("element_get_text", {"selector": "#result"}))["text"]


async def own_state(agent: ToolClient) -> tuple[str, str | None, list[str]]:
    """What the client's context holds: its cookies, its page's localStorage, its tabs' URLs."""
    cookies = (await agent.ok("storage_get_cookies"))["cookies"]
    stored = (await agent.ok("storage_local_get", {"key": "who"}))["value"]
    tabs = [t["url"] for t in (await agent.ok("tab_list"))["tabs"]]
    return ";".join(sorted(f"{c['name']}={c['value']}" for c in cookies)), stored, tabs


async def test_two_session_clients_see_nothing_of_each_other(server, site):
    url, output = server
    form = site.route("/ctx/form", FORM)
    site.route("/ctx/file.txt", FILE.decode())
    seen: dict[str, Any] = {}

    async def client(who: str) -> None:
        async with Client(url, mode="legacy") as raw:
            assert "context" not in next(t for t in (await raw.list_tools()).tools
                                         if t.name == "page_navigate").input_schema["properties"]
            agent = Agent(raw)
            context = (await agent.ok("browser_launch"))["context"]
            assert await order(agent, form, who) == f"{who}|{who}@example.test|true"
            [download] = (await agent.ok("element_click", {"selector": "#file"}))["downloads"]
            await agent.ok("page_new", {"url": f"{form}?who={who}-tab2"})
            await agent.ok("tab_select", {"index": 0})
            seen[who] = (context, Path(download["path"]), *await own_state(agent))

    with trio.fail_after(120):  # a guard against a hang, not a bound on time
        async with trio.open_nursery() as nursery:
            for who in ("ada", "bob"):
                nursery.start_soon(client, who)
    for who, other in (("ada", "bob"), ("bob", "ada")):
        context, download, cookies, stored, tabs = seen[who]
        assert cookies == f"who={who}-tab2" and stored == f"{who}-tab2"  # its second tab wrote last
        assert tabs == [f"{form}?who={who}", f"{form}?who={who}-tab2"]
        folder = output / "contexts" / context / "downloads"
        assert download.parent == folder.resolve() and download.read_bytes() == FILE
        assert context != seen[other][0] and download.parent != seen[other][1].parent


async def test_eight_clients_sixteen_tasks(server, site):
    url, _ = server
    form = site.route("/ctx/form", FORM)
    timings: dict[int, list[float]] = {1: [], 8: []}
    correct: list[bool] = []

    async def client(number: int, clients: int) -> None:
        async with Client(url, mode="legacy") as raw:
            agent = Agent(raw)
            for task in range(2):
                who = f"c{number}t{task}"
                started = time.perf_counter()
                try:
                    ok = await order(agent, form, who) == f"{who}|{who}@example.test|true"
                    cookies, stored, tabs = await own_state(agent)
                    ok = ok and cookies == f"who={who}" and stored == who and tabs == [f"{form}?who={who}"]
                except AssertionError:
                    ok = False
                timings[clients].append(time.perf_counter() - started)
                if clients == 8:
                    correct.append(ok)

    with trio.fail_after(300):  # a guard against a hang, not a bound on time
        await client(0, 1)  # one client alone: the baseline
        async with trio.open_nursery() as nursery:
            for number in range(1, 9):
                nursery.start_soon(client, number, 8)
    one, eight = statistics.median(timings[1]), statistics.median(timings[8])
    print(f"\n8 clients: {sum(correct)}/16 tasks correct; p50 {eight * 1000:.0f} ms "
          f"vs one client {one * 1000:.0f} ms ({eight / one:.1f}x)")
    assert sum(correct) == 16


async def test_stateless_clients_name_their_context(server, site):
    url, _ = server
    form = site.route("/ctx/form", FORM)
    async with Client(url) as first, Client(url) as second:
        assert first.protocol_version == "2026-07-28"  # no MCP session: the handle names the context
        listed = {t.name: t.input_schema for t in (await first.list_tools()).tools}
        assert listed["page_navigate"]["properties"]["context"] == {"type": "string"}
        assert "context" not in listed["page_navigate"].get("required", [])
        a, b = Agent(first), Agent(second)
        a.context = (await a.ok("browser_launch"))["context"]
        b.context = (await b.ok("browser_launch"))["context"]
        assert a.context != b.context
        async with trio.open_nursery() as nursery:
            nursery.start_soon(order, a, form, "ann")
            nursery.start_soon(order, b, form, "ben")
        assert await own_state(a) == ("who=ann", "ann", [f"{form}?who=ann"])
        assert await own_state(b) == ("who=ben", "ben", [f"{form}?who=ben"])

        default = (await Agent(first).ok("storage_get_cookies"))["cookies"]  # no handle: the shared default
        assert not any(c["name"] == "who" for c in default)

        unknown = await Agent(first, "no-such-context").fail("page_get_url")
        assert unknown["code"] == "invalid_context" and "browser_launch" in unknown["message"]
        assert "closed" in (await a.ok("browser_quit"))["message"]
        closed = await a.fail("page_get_url")
        assert closed["code"] == "invalid_context" and "browser_quit" in closed["message"]
        assert await own_state(b) == ("who=ben", "ben", [f"{form}?who=ben"])  # the other one is untouched
        await b.ok("browser_quit")


async def test_stdio_keeps_one_implicit_context(mcp):
    """One client (in process, as on stdio), one context: its handle is ``default``, no other
    exists, and browser_quit closes the browser itself."""
    assert (await mcp.ok("browser_launch"))["context"] == "default"
    assert (await mcp.ok("config_get", {"context": "default"}))["browser_launched"] is True
    assert (await mcp.fail("config_get", {"context": "elsewhere"}))["code"] == "invalid_context"
    assert (await mcp.ok("browser_quit"))["message"] == "browser closed"


async def test_contexts_past_the_limit_are_overloaded(chromium, tmp_path):
    config = ServerConfig(browser_url=chromium.ws_url, output_dir=tmp_path, max_contexts=2)
    async with served(config) as url, Client(url) as raw:
        agent = Agent(raw)
        handles = [(await agent.ok("browser_launch"))["context"] for _ in range(2)]
        error = await agent.fail("browser_launch")
        assert error["code"] == "overloaded" and "--max-contexts" in error["message"]
        await Agent(raw, handles[0]).ok("browser_quit")  # room for one again
        assert (await agent.ok("browser_launch"))["context"] not in handles


def test_the_limits_come_from_the_command_line():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output-dir", default="out")
    add_context_options(parser)
    common = {"init_script": [], "profile": None, "namespaces": None, "tools": None, "headless": True,
              "project": "a11y", "browser_url": None, "timeout": 5000, "max_result_size": None}
    config = config_from_args(argparse.Namespace(
        **common, **vars(parser.parse_args(["--max-contexts", "3", "--context-idle-timeout", "1.5"]))))
    assert (config.max_contexts, config.context_idle_timeout) == (3, 1.5)
    defaults = config_from_args(argparse.Namespace(**common, **vars(parser.parse_args([]))))
    assert (defaults.max_contexts, defaults.context_idle_timeout) == (16, 600.0)
    for wrong in (["--max-contexts", "0"], ["--context-idle-timeout", "-1"], ["--context-idle-timeout", "nan"]):
        with pytest.raises(SystemExit):
            parser.parse_args(wrong)


async def test_an_idle_context_is_closed(chromium, browser, tmp_path):
    config = ServerConfig(browser_url=chromium.ws_url, output_dir=tmp_path, context_idle_timeout=0.3)
    async with served(config) as url, Client(url) as raw:
        before = await _browser_contexts(browser)
        agent = Agent(raw)
        agent.context = (await agent.ok("browser_launch"))["context"]  # opens a browser context
        with trio.fail_after(30):  # watched in the browser, so the context is not touched meanwhile
            while await _browser_contexts(browser) != before:
                await trio.sleep(0.05)
        error = await agent.fail("page_get_url")
        assert error["code"] == "invalid_context" and "idle" in error["message"]


async def _browser_contexts(browser: Any) -> set[str]:
    return set((await browser.session.send("Target.getBrowserContexts"))["browserContextIds"])


async def test_the_server_stops_promptly_with_clients_connected(site, tmp_path):
    """SIGINT to one server, SIGTERM to another, each with its own browser and two clients
    connected (one holding its GET stream open); both stopped at once to save time. The
    browser is killed rather than closed at a stop: none of its processes outlive the
    server, and its temporary profile is gone."""
    page = site.route("/ctx/hold", "<title>Hold</title>")
    stopped: dict[str, float] = {}
    browsers: dict[str, dict[int, bytes]] = {}  # the server's descendants before the stop

    async def stop_with(signum: signal.Signals) -> None:
        proc = _start(tmp_path / signum.name)
        try:
            port = await trio.to_thread.run_sync(listening_port, proc)
            url = f"http://127.0.0.1:{port}/mcp"
            async with trio.open_nursery() as nursery:
                for mode in ("legacy", "auto"):
                    connected = trio.Event()
                    nursery.start_soon(_hold, url, mode, page, connected)
                    with trio.fail_after(60):
                        await connected.wait()
                browsers[signum.name] = _descendants(proc.pid)
                started = time.monotonic()
                os.kill(proc.pid, signum)
                await trio.to_thread.run_sync(proc.wait, 30)
                stopped[signum.name] = time.monotonic() - started
                nursery.cancel_scope.cancel()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)

    async with trio.open_nursery() as nursery:
        for signum in (signal.SIGINT, signal.SIGTERM):
            nursery.start_soon(stop_with, signum)
    print("\nstopped " + ", ".join(f"{seconds:.2f} s after {name}" for name, seconds in stopped.items()))
    assert set(stopped) == {"SIGINT", "SIGTERM"}
    # The bound is 2 s (0.2-0.6 s measured at a load average of 8-10); this machine's load is
    # not ours to bound, so a stop is asserted well inside the 30 s wait, not at 2 s.
    assert max(stopped.values()) < 10
    for processes in browsers.values():
        profiles = {arg.split(b"=", 1)[1] for line in processes.values() for arg in line.split(b"\0")
                    if arg.startswith(b"--user-data-dir=")}
        assert profiles, "no Chromium was running under the server"
        assert not [pid for pid, line in processes.items() if _command_line(pid) == line]
        assert not [profile for profile in profiles if Path(profile.decode()).exists()]


def _command_line(pid: int) -> bytes | None:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes() or None  # a zombie's is empty
    except OSError:
        return None


def _descendants(root: int) -> dict[int, bytes]:
    """The live processes descending from ``root``, with their command lines."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        try:
            if name.isdigit():
                parent = int(Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(name))
        except OSError:  # it ended meanwhile
            continue
    found, stack = {}, list(children.get(root, []))
    while stack:
        pid = stack.pop()
        line = _command_line(pid)
        if line is not None:
            found[pid] = line
        stack.extend(children.get(pid, []))
    return found


async def _hold(url: str, mode: str, page: str, connected: trio.Event) -> None:
    """A client with a page open in its context, connected until cancelled or cut off."""
    try:
        async with Client(url, mode=mode) as raw:
            await ToolClient(raw).ok("page_navigate", {"url": page})
            connected.set()
            await trio.sleep_forever()
    except Exception:
        if not connected.is_set():  # it never connected: that is a failure, not the point
            raise


async def test_an_idle_connection_outlives_the_clients_own_idle_expiry(server):
    """The server keeps an idle keep-alive connection longer than httpx's pool does (5 s):
    otherwise the two close it at the same moment, and a request a client sends on it as the
    server closes is lost (seen as "server disconnected" on a busy machine). Idle for 6 s, the
    connection still answers."""
    url, _ = server
    port = int(url.split(":")[2].split("/")[0])
    request = (f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/plain\r\n\r\n").encode()

    async def exchange(stream: trio.SocketStream) -> bytes:
        """Send the request, read the whole answer (head and body); its status line."""
        await stream.send_all(request)
        answer = b""
        with trio.fail_after(30):  # a guard against a hang, not a bound on time
            while True:
                head, _, body = answer.partition(b"\r\n\r\n")
                if _:
                    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                                  if line.lower().startswith(b"content-length:"))
                    if len(body) >= length:
                        return head.split(b"\r\n", 1)[0]
                chunk = await stream.receive_some(65536)
                assert chunk, f"the server closed the connection; it had sent {answer!r}"
                answer += chunk

    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        first = await exchange(stream)
        await trio.sleep(6.0)  # idle past httpx's expiry: a lower bound, the point of the test
        assert await exchange(stream) == first
