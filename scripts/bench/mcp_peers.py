"""The same agent task through a11y, playwright-mcp and chrome-devtools-mcp, over MCP.

Run: .venv/bin/python scripts/bench/mcp_peers.py [--iterations 20] [--spawns 5] [--steps]

@playwright/mcp 0.0.83 and chrome-devtools-mcp 1.11.0 are installed with ``npm`` into a
temporary directory that is deleted afterwards (never part of the project), without any
browser download; all three servers launch the same Chromium (``CHROME_PATH`` or Debian's),
headless, each in a throwaway profile, and run with that directory as their working
directory, so nothing they write lands in the project. Each is driven by the official MCP
Python client over stdio, as an agent would: navigate to a local form, take a snapshot,
fill two fields and tick a box by the references the snapshot gave, submit, read the result
page (a snapshot again) and take a screenshot. The iterations go round robin over the three
(one warm-up each, not counted, launches the browsers), and every iteration must be correct:
the result page shows the submitted values. Prints the table of the issue (and, with
``--steps``, each step's median per server: where a task's time goes); the machine is
shared, so mind the load average it prints.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import trio
from mcp import Client, StdioServerParameters

from cdpdriver import find_chromium

PEERS = ("@playwright/mcp@0.0.83", "chrome-devtools-mcp@1.11.0")
NAME, EMAIL = "Ada Lovelace", "ada@example.org"
READ_WAIT = 5.0  # how long the result page may take to show up in a snapshot

# A sign-up page with the usual chrome around the form (navigation, text, footer), so the
# snapshots have something besides the four controls to carry.
_NAV = "".join(f"<li><a href='/section/{n.lower()}'>{n}</a></li>" for n in
               ("Home", "Products", "Pricing", "Documentation", "Blog", "Support", "About us", "Contact"))
_FOOTER = "".join(f"<li><a href='/legal/{n.lower().replace(' ', '-')}'>{n}</a></li>" for n in
                  ("Privacy", "Terms of service", "Cookies", "Accessibility statement", "Careers", "Press"))
_CHROME = ("<header><a href='/'>Example shop</a><nav aria-label=Main><ul>" + _NAV + "</ul></nav></header>"
           "{body}<footer><nav aria-label=Footer><ul>" + _FOOTER + "</ul></nav><p>© 2026 Example shop</p></footer>")
FORM = ("<!doctype html><html lang=en><title>Sign up</title>" + _CHROME.format(body="""<main><h1>Sign up</h1>
<p>Create an account to follow your orders, keep a wish list and hear about offers first.
It takes a minute, and you can delete the account at any time from your settings.</p>
<form action=/result><fieldset><legend>Your details</legend>
<p><label>Name <input name=name autocomplete=name></label></p>
<p><label>Email <input name=email type=email autocomplete=email></label></p>
<p><label><input type=checkbox name=agree> I agree to the terms</label></p></fieldset>
<button>Submit</button></form>
<aside><h2>Why sign up?</h2><ul><li>Free delivery on your first order</li><li>Order tracking</li>
<li>Early access to sales</li></ul></aside></main>""") + "</html>").encode()


def _result_page(query: str) -> bytes:
    values = parse_qs(query)
    shown = {k: values.get(k, ["(none)"])[0] for k in ("name", "email", "agree")}
    body = (f"<main><h1>Thanks</h1><p>Received name {shown['name']}, email {shown['email']}, "
            f"agree {shown['agree']}</p><p><a href='/'>Back to the shop</a></p></main>")
    return ("<!doctype html><html lang=en><title>Thanks</title>" + _CHROME.format(body=body) + "</html>").encode()


def _serve() -> tuple[ThreadingHTTPServer, str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            parts = urlsplit(self.path)
            body = _result_page(parts.query) if parts.path == "/result" else FORM
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/form"


def _correct(text: str) -> bool:
    return f"Received name {NAME}, email {EMAIL}, agree on" in text


# -- the three servers, each as an agent drives it --------------------------------------------------


def _text(result: Any) -> str:
    return "".join(block.text for block in result.content if block.type == "text")


@dataclass
class Server:
    """One MCP server and how an agent does each step of the task with its tools."""

    label: str
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    client: Any = None
    snapshot_chars: int = 0
    screenshot: str = ""
    task_ms: list[float] = field(default_factory=list)
    step_ms: dict[str, list[float]] = field(default_factory=dict)  # "fill 2" → its times
    counting: bool = False
    _seen: dict[str, int] = field(default_factory=dict)  # calls of each tool in this task
    spawn_ms: list[float] = field(default_factory=list)
    schema_bytes: int = 0
    failures: int = 0

    def params(self) -> StdioServerParameters:
        return StdioServerParameters(command=self.argv[0], args=self.argv[1:], env=self.env, cwd=str(self.cwd))

    async def call(self, tool: str, args: dict[str, Any]) -> Any:
        started = time.perf_counter()
        result = await self.client.call_tool(tool, args)
        if self.counting:
            self._step(tool).append((time.perf_counter() - started) * 1000)
        if result.is_error:
            raise RuntimeError(f"{self.label} {tool}: {_text(result)[:300]}")
        return result

    def _step(self, tool: str) -> list[float]:
        """The times of this call's step: the n-th call of ``tool`` in the current task."""
        self._seen[tool] = self._seen.get(tool, 0) + 1
        return self.step_ms.setdefault(f"{tool} {self._seen[tool]}", [])

    async def task(self, url: str) -> bool:
        """The agent task; True when the result page showed the submitted values."""
        self._seen = {}
        await self.navigate(url)
        snapshot = await self.snapshot()
        self.snapshot_chars = len(snapshot)
        refs = self.refs(snapshot)
        await self.fill(refs["name"], NAME)
        await self.fill(refs["email"], EMAIL)
        await self.click(refs["agree"])
        await self.click(refs["submit"])
        deadline = time.perf_counter() + READ_WAIT
        while not _correct(result := await self.snapshot()) and time.perf_counter() < deadline:
            await trio.sleep(0.02)
        shot = await self.take_screenshot()
        images = [b for b in shot.content if b.type == "image"]
        self.screenshot = (f"image block ({images[0].mime_type})" if images
                           else f"text ({len(_text(shot)) / 1000:.0f} KB)")
        return _correct(result)

    async def navigate(self, url: str) -> None: ...
    async def snapshot(self) -> str: ...
    def refs(self, snapshot: str) -> dict[str, str]: ...
    async def fill(self, ref: str, value: str) -> None: ...
    async def click(self, ref: str) -> None: ...
    async def take_screenshot(self) -> Any: ...


class A11y(Server):
    async def navigate(self, url: str) -> None:
        await self.call("page_navigate", {"url": url})

    async def snapshot(self) -> str:
        return _text(await self.call("accessibility_snapshot", {}))

    def refs(self, snapshot: str) -> dict[str, str]:
        found: dict[str, str] = {}

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                key = {("textbox", "Name"): "name", ("textbox", "Email"): "email", ("button", "Submit"): "submit",
                       ("checkbox", "I agree to the terms"): "agree"}.get((node.get("role"), node.get("name")))
                if key and "ref" in node:
                    found[key] = node["ref"]
                for child in node.get("children", []):
                    walk(child)

        walk(json.loads(snapshot)["tree"])
        return found

    async def fill(self, ref: str, value: str) -> None:
        await self.call("element_fill", {"selector": ref, "value": value})

    async def click(self, ref: str) -> None:
        await self.call("element_click", {"selector": ref})

    async def take_screenshot(self) -> Any:
        return await self.call("page_screenshot", {})


def _yaml_ref(snapshot: str, role: str, name: str) -> str:
    return re.search(rf'{role} "{re.escape(name)}"[^\n]*\[ref=(\w+)\]', snapshot).group(1)  # type: ignore[union-attr]


class PlaywrightMcp(Server):
    async def navigate(self, url: str) -> None:
        await self.call("browser_navigate", {"url": url})

    async def snapshot(self) -> str:
        return _text(await self.call("browser_snapshot", {}))

    def refs(self, snapshot: str) -> dict[str, str]:
        return {"name": _yaml_ref(snapshot, "textbox", "Name"), "email": _yaml_ref(snapshot, "textbox", "Email"),
                "agree": _yaml_ref(snapshot, "checkbox", "I agree to the terms"),
                "submit": _yaml_ref(snapshot, "button", "Submit")}

    async def fill(self, ref: str, value: str) -> None:
        await self.call("browser_type", {"element": "field", "target": ref, "text": value})

    async def click(self, ref: str) -> None:
        await self.call("browser_click", {"element": "control", "target": ref})

    async def take_screenshot(self) -> Any:
        return await self.call("browser_take_screenshot", {})


def _uid(snapshot: str, role: str, name: str) -> str:
    return re.search(rf'uid=(\S+) {role} "{re.escape(name)}"', snapshot).group(1)  # type: ignore[union-attr]


class ChromeDevtoolsMcp(Server):
    page_id = 1

    async def navigate(self, url: str) -> None:
        await self.call("navigate_page", {"pageId": self.page_id, "type": "url", "url": url})

    async def snapshot(self) -> str:
        return _text(await self.call("take_snapshot", {"pageId": self.page_id}))

    def refs(self, snapshot: str) -> dict[str, str]:
        return {"name": _uid(snapshot, "textbox", "Name"), "email": _uid(snapshot, "textbox", "Email"),
                "agree": _uid(snapshot, "checkbox", "I agree to the terms"),
                "submit": _uid(snapshot, "button", "Submit")}

    async def fill(self, ref: str, value: str) -> None:
        await self.call("fill", {"pageId": self.page_id, "uid": ref, "value": value})

    async def click(self, ref: str) -> None:
        await self.call("click", {"pageId": self.page_id, "uid": ref})

    async def take_screenshot(self) -> Any:
        return await self.call("take_screenshot", {"pageId": self.page_id})


# -- installing the peers and starting the servers ----------------------------------------------------


def _env(chromium: str) -> dict[str, str]:
    """No browser download, no usage statistics; the same Chromium for everyone."""
    keep = {k: v for k, v in os.environ.items() if k in ("HOME", "PATH", "LANG", "TMPDIR", "PYTHONPATH")}
    return {**keep, "CHROME_PATH": chromium, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1", "PUPPETEER_SKIP_DOWNLOAD": "1",
            "CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS": "1"}


@contextmanager
def installed_peers(chromium: str) -> Iterator[Path]:
    """A temporary directory with the peers' node_modules, deleted after the block."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (apt-get install nodejs npm); the peers cannot run")
    with tempfile.TemporaryDirectory(prefix="a11y-mcp-peers-") as tmp:
        root = Path(tmp)
        (root / "package.json").write_text('{"private": true}')
        print(f"npm install {' '.join(PEERS)} into {root} (temporary, no browser download)")
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", *PEERS],
                       cwd=root, env=_env(chromium), check=True, stdout=subprocess.DEVNULL)
        yield root


def servers(root: Path, chromium: str) -> list[Server]:
    env, modules = _env(chromium), root / "node_modules"
    work = root / "work"
    work.mkdir()
    return [
        A11y("a11y", [sys.executable, "-m", "a11y", "mcp", "--headless", "--output-dir", str(work / "a11y")],
             env, work),
        PlaywrightMcp("playwright-mcp", ["node", str(modules / "@playwright/mcp/cli.js"), "--headless",
                                         "--isolated", "--no-sandbox", "--browser", "chromium",
                                         "--executable-path", chromium, "--output-dir", str(work / "pw")], env, work),
        ChromeDevtoolsMcp("chrome-devtools-mcp", ["node", str(modules / "chrome-devtools-mcp/build/src/bin/"
                                                               "chrome-devtools-mcp.js"),
                                                  "--headless", "--isolated", "--executablePath", chromium,
                                                  "--chromeArg=--no-sandbox", "--no-usage-statistics",
                                                  "--no-performance-crux"], env, work),
    ]


def _sent_bytes(tools: list[Any]) -> int:
    """What an agent is sent to know the tools: name, description, input schema, compact JSON."""
    entries = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    sent = [{k: e[k] for k in ("name", "description", "inputSchema") if k in e} for e in entries]
    return len(json.dumps(sent, ensure_ascii=False, separators=(",", ":")).encode())


async def _spawn(server: Server) -> None:
    """Time spawn → initialized once, and read the tool list then."""
    started = time.perf_counter()
    async with Client(server.params()) as client:
        server.spawn_ms.append((time.perf_counter() - started) * 1000)
        server.schema_bytes = _sent_bytes((await client.list_tools()).tools)


async def _core_bytes(server: Server) -> int:
    params = server.params()
    params.args = [*params.args, "--profile", "core"]
    async with Client(params) as client:
        return _sent_bytes((await client.list_tools()).tools)


async def run(iterations: int, spawns: int, steps: bool = False) -> None:
    chromium = find_chromium()
    http, url = _serve()
    try:
        with installed_peers(chromium) as root:
            group = servers(root, chromium)
            for _ in range(spawns):
                for server in group:
                    await _spawn(server)
            core = await _core_bytes(group[0])
            async with AsyncExitStack() as stack:
                for server in group:
                    server.client = await stack.enter_async_context(Client(server.params()))
                    if not await server.task(url):  # warm-up: launches the browser, not counted
                        server.failures += 1
                for server in group:
                    server.counting = True
                for _ in range(iterations):
                    for server in group:
                        started = time.perf_counter()
                        correct = await server.task(url)
                        server.task_ms.append((time.perf_counter() - started) * 1000)
                        server.failures += not correct
            _report(group, iterations, core, chromium)
            if steps:
                _report_steps(group)
    finally:
        http.shutdown()


def _report_steps(group: list[Server]) -> None:
    """Each step's median per server, in task order (a step is the n-th call of a tool; the
    result page's snapshot may take several calls)."""
    print("\nSteps, median ms (a step is the n-th call of a tool in one task)\n")
    for server in group:
        cells = [f"{step} {statistics.median(times):,.0f}" + (f" (in {len(times)}/{len(server.task_ms)})"
                                                             if len(times) != len(server.task_ms) else "")
                 for step, times in server.step_ms.items()]
        print(f"- {server.label}: " + "; ".join(cells))


def _report(group: list[Server], iterations: int, core_bytes: int, chromium: str) -> None:
    ours, peers = group[0], group[1:]
    median = {s.label: statistics.median(s.task_ms) for s in group}
    spawn = {s.label: statistics.median(s.spawn_ms) for s in group}
    faster = min(peers, key=lambda s: median[s.label])
    print(f"\nThe agent task, {iterations} iterations round robin, {chromium} "
          f"(load average {os.getloadavg()[0]:.1f}; faster peer: {faster.label})\n")
    print("| | " + " | ".join(s.label for s in group) + f" | a11y / {faster.label} |")
    print("|---|" + "---:|" * (len(group) + 1))
    rows = [
        ("task, median", [f"{median[s.label]:,.0f} ms" for s in group], median[ours.label] / median[faster.label]),
        ("page snapshot text", [f"{s.snapshot_chars / 1000:.1f} KB" for s in group],
         ours.snapshot_chars / faster.snapshot_chars),
        ("tool schemas per session", [f"{s.schema_bytes / 1000:.1f} KB (~{s.schema_bytes // 4:,} tokens)"
                                      for s in group], ours.schema_bytes / faster.schema_bytes),
        ("spawn → initialized, median", [f"{spawn[s.label]:,.0f} ms" for s in group], spawn[ours.label] / spawn[faster.label]),
        ("screenshot", [s.screenshot for s in group], None),
        ("iterations correct", [f"{iterations + 1 - s.failures}/{iterations + 1}" for s in group], None),
    ]
    for label, cells, ratio in rows:
        print(f"| {label} | " + " | ".join(cells) + f" | {f'{ratio:.2f}x' if ratio is not None else ''} |")
    smaller = min(s.schema_bytes for s in peers)
    print(f"\na11y --profile core: tool schemas {core_bytes / 1000:.1f} KB "
          f"({'within' if core_bytes <= smaller else 'over'} the smaller peer's whole list, {smaller / 1000:.1f} KB)")
    goals = {
        "task ≤ 1/4 of the faster peer's": median[ours.label] <= median[faster.label] / 4,
        "tool schemas, all 169 tools ≤ 40 KB": ours.schema_bytes <= 40_000,
        "--profile core ≤ the smaller peer's list": core_bytes <= smaller,
        "spawn → initialized ≤ the faster peer's": spawn[ours.label] <= min(spawn[s.label] for s in peers),
        "screenshot as an image block": ours.screenshot.startswith("image block"),
        "every iteration correct": all(s.failures == 0 for s in group),
    }
    print("goals: " + "; ".join(f"{goal}: {'met' if met else 'NOT met'}" for goal, met in goals.items()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--spawns", type=int, default=5, help="spawn → initialized samples per server")
    parser.add_argument("--steps", action="store_true", help="also print each step's median per server")
    options = parser.parse_args()
    trio.run(run, max(1, options.iterations), max(1, options.spawns), options.steps)
