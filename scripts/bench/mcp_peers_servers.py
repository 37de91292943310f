"""The MCP servers of the agent task (scripts/bench/mcp_peers.py), each driven as an agent would.

One class per server says how each step of the task is done with its tools; :class:`Server`
runs the task, times each call and counts what it costs an agent in tokens
(:mod:`mcp_peers_tokens`). The task: navigate to the form, take a snapshot, fill two fields
and tick a box by the references the snapshot gave, submit, read the result page (a snapshot
again, until it shows the submitted values) and take a screenshot.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
from mcp import Client, StdioServerParameters
from mcp.client import advertise
from mcp_peers_site import EMAIL, NAME, correct
from mcp_peers_tokens import result_tokens

from a11y.result_budget import READS_STRUCTURED

READ_WAIT = 5.0  # how long the result page may take to show up in a snapshot


def text_of(result: Any) -> str:
    return "".join(block.text for block in result.content if block.type == "text")


def repeats_json(result: Any) -> bool:
    """Whether a text block of the result is its structured content's JSON again."""
    if result.structured_content is None:
        return False
    for block in result.content:
        if block.type == "text":
            try:
                if json.loads(block.text) == result.structured_content:
                    return True
            except ValueError:
                continue
    return False


@dataclass
class Server:
    """One MCP server and how an agent does each step of the task with its tools."""

    label: str
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    client: Any = None
    name: str = NAME
    email: str = EMAIL
    snapshot_chars: int = 0
    screenshot: str = ""
    task_ms: list[float] = field(default_factory=list)
    task_tokens: list[float] = field(default_factory=list)
    listing_tokens: float = 0.0  # the tools/list of the tool set the agent runs with
    step_ms: dict[str, list[float]] = field(default_factory=dict)  # "fill 2" → its times
    counting: bool = False
    _seen: dict[str, int] = field(default_factory=dict)  # calls of each tool in this task
    _tokens: float = 0.0  # the results of this task so far
    spawn_ms: list[float] = field(default_factory=list)
    schema_bytes: int = 0
    failures: int = 0
    results: int = 0  # results of counted tasks
    repeated: int = 0  # ... whose text repeated their structured content's JSON

    def params(self) -> StdioServerParameters:
        return StdioServerParameters(
            command=self.argv[0], args=self.argv[1:], env=self.env, cwd=str(self.cwd)
        )

    def connect(self) -> Client:
        """The agent's client of this server (over stdio)."""
        return Client(self.params())

    async def call(self, tool: str, args: dict[str, Any]) -> Any:
        started = time.perf_counter()
        result = await self.client.call_tool(tool, args)
        if self.counting:
            self._step(tool).append((time.perf_counter() - started) * 1000)
        self._tokens += result_tokens(result)
        if self.counting:
            self.results += 1
            self.repeated += repeats_json(result)
        if result.is_error:
            raise RuntimeError(f"{self.label} {tool}: {text_of(result)[:300]}")
        return result

    def _step(self, tool: str) -> list[float]:
        """The times of this call's step: the n-th call of ``tool`` in the current task."""
        self._seen[tool] = self._seen.get(tool, 0) + 1
        return self.step_ms.setdefault(f"{tool} {self._seen[tool]}", [])

    async def task(self, url: str) -> bool:
        """The agent task; True when the result page showed the submitted values."""
        self._seen, self._tokens = {}, 0.0
        await self.navigate(url)
        snapshot = await self.snapshot()
        self.snapshot_chars = len(snapshot)
        refs = self.refs(snapshot)
        await self.fill(refs["name"], self.name)
        await self.fill(refs["email"], self.email)
        await self.click(refs["agree"])
        await self.click(refs["submit"])
        deadline = time.perf_counter() + READ_WAIT
        while (
            not correct(result := await self.read_page(), self.name, self.email)
            and time.perf_counter() < deadline
        ):
            await trio.sleep(0.02)
        shot = await self.take_screenshot()
        images = [b for b in shot.content if b.type == "image"]
        self.screenshot = (
            f"image block ({images[0].mime_type})"
            if images
            else f"text ({len(text_of(shot)) / 1000:.1f} KB)"
        )
        if self.counting:
            self.task_tokens.append(self.listing_tokens + self._tokens)
        return correct(result, self.name, self.email)

    async def navigate(self, url: str) -> None: ...
    async def snapshot(self) -> str: ...

    async def read_page(self) -> str:
        """The result page as the agent reads it: a snapshot, unless the server's default one
        leaves text out."""
        return await self.snapshot()

    def refs(self, snapshot: str) -> dict[str, str]: ...
    async def fill(self, ref: str, value: str) -> None: ...
    async def click(self, ref: str) -> None: ...
    async def take_screenshot(self) -> Any: ...


def _find_refs(tree: Any) -> dict[str, str]:
    found: dict[str, str] = {}
    keys = {
        ("textbox", "Name"): "name",
        ("textbox", "Email"): "email",
        ("button", "Submit"): "submit",
        ("checkbox", "I agree to the terms"): "agree",
    }

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            key = keys.get((node.get("role"), node.get("name")))
            if key and "ref" in node:
                found[key] = node["ref"]
            for child in node.get("children", []):
                walk(child)

    walk(tree)
    return found


@dataclass
class A11y(Server):
    """Ours, as a client that reads structured content (it advertises so: the JSON comes once),
    run with the tool profile the task needs (``--profile core``)."""

    reads_structured: bool = True

    def connect(self) -> Client:
        return self.client_for(self.params())

    def client_for(self, target: Any, **options: Any) -> Client:
        extensions = [advertise(READS_STRUCTURED)] if self.reads_structured else None
        return Client(target, extensions=extensions, **options)

    async def navigate(self, url: str) -> None:
        await self.call("page_navigate", {"url": url})

    async def snapshot(self) -> str:
        result = await self.call("accessibility_snapshot", {})
        return json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))

    def refs(self, snapshot: str) -> dict[str, str]:
        return _find_refs(json.loads(snapshot)["tree"])

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
        return text_of(await self.call("browser_snapshot", {}))

    def refs(self, snapshot: str) -> dict[str, str]:
        return {
            "name": _yaml_ref(snapshot, "textbox", "Name"),
            "email": _yaml_ref(snapshot, "textbox", "Email"),
            "agree": _yaml_ref(snapshot, "checkbox", "I agree to the terms"),
            "submit": _yaml_ref(snapshot, "button", "Submit"),
        }

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
        return text_of(await self.call("take_snapshot", {"pageId": self.page_id}))

    def refs(self, snapshot: str) -> dict[str, str]:
        return {
            "name": _uid(snapshot, "textbox", "Name"),
            "email": _uid(snapshot, "textbox", "Email"),
            "agree": _uid(snapshot, "checkbox", "I agree to the terms"),
            "submit": _uid(snapshot, "button", "Submit"),
        }

    async def fill(self, ref: str, value: str) -> None:
        await self.call("fill", {"pageId": self.page_id, "uid": ref, "value": value})

    async def click(self, ref: str) -> None:
        await self.call("click", {"pageId": self.page_id, "uid": ref})

    async def take_screenshot(self) -> Any:
        return await self.call("take_screenshot", {"pageId": self.page_id})


def _ab_ref(snapshot: str, role: str, name: str) -> str:
    return re.search(rf'{role} "{re.escape(name)}"[^\n]*?ref=(\w+)\]', snapshot).group(1)  # type: ignore[union-attr]


class AgentBrowser(Server):
    """agent-browser's MCP mode (its default ``core`` tools). Its snapshot lists interactive
    elements only unless told otherwise, so the result page is read with ``interactive: false``
    (the text the agent must see is not interactive)."""

    async def navigate(self, url: str) -> None:
        await self.call("agent_browser_open", {"url": url})

    async def snapshot(self) -> str:
        return text_of(await self.call("agent_browser_snapshot", {}))

    async def read_page(self) -> str:
        return text_of(await self.call("agent_browser_snapshot", {"interactive": False}))

    def refs(self, snapshot: str) -> dict[str, str]:
        return {
            "name": "@" + _ab_ref(snapshot, "textbox", "Name"),
            "email": "@" + _ab_ref(snapshot, "textbox", "Email"),
            "agree": "@" + _ab_ref(snapshot, "checkbox", "I agree to the terms"),
            "submit": "@" + _ab_ref(snapshot, "button", "Submit"),
        }

    async def fill(self, ref: str, value: str) -> None:
        await self.call("agent_browser_fill", {"selector": ref, "text": value})

    async def click(self, ref: str) -> None:
        await self.call("agent_browser_click", {"selector": ref})

    async def take_screenshot(self) -> Any:
        return await self.call("agent_browser_screenshot", {})
