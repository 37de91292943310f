"""Long tools as MCP tasks (a11y.mcp_tasks), through the SDK's own client against real Chromium.

A 2026-07-28 client that declares the tasks extension gets a task for a long tool
(cdp_run_quality_audit), polls tasks/get to its result, or cancels it and sees the browser
work stop; a client without the extension, in either era, gets the ordinary result, with
progress notifications when it asks for them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

import mcp_types as types
import trio
from mcp import Client
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from pydantic import TypeAdapter

from a11y import mcp_early
from a11y.mcp_server import build_server
from tests.support.site import Response
from tools.session import ServerConfig

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<meta name="description" content="A small shop."></head><body><main><h1>Shop</h1></main></body></html>"""
# Keeps the network busy for a long time, so an audit of it stays in its first phase.
STALLED = PAGE.replace("</main>", "<script>fetch('/tasks/stall')</script></main>")
AUDIT = {"categories": ["seo", "accessibility"]}
TERMINAL = {"completed", "failed", "cancelled"}
ANY = TypeAdapter(dict[str, Any])


class TaskHandle(types.Result):
    """tools/call answered with a task (the extension's resultType "task")."""

    result_type: Literal["task"] = "task"
    task_id: str
    status: str
    status_message: str | None = None
    poll_interval_ms: int | None = None


async def get_task(session: Any, task_id: str) -> dict[str, Any]:
    request = types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=task_id))
    return await session.send_request(request, ANY)


async def until_done(session: Any, task_id: str) -> dict[str, Any]:
    """Poll tasks/get, at the interval the server asks, until the task ends."""
    while (task := await get_task(session, task_id))["status"] not in TERMINAL:
        await trio.sleep(task["pollIntervalMs"] / 1000)
    return task


class Tasks(ClientExtension):
    """The client half of io.modelcontextprotocol/tasks, as the SDK lets a client add it."""

    identifier = "io.modelcontextprotocol/tasks"

    def __init__(self) -> None:
        self.resolved = 0  # tools/call answers that were tasks

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=TaskHandle, resolve=self._resolve)]

    async def _resolve(self, handle: TaskHandle, ctx: ClaimContext) -> types.CallToolResult:
        task = await until_done(ctx.session, handle.task_id)
        assert task["status"] == "completed", task
        self.resolved += 1
        return types.CallToolResult.model_validate(task["result"])


@asynccontextmanager
async def client(chromium: Any, tmp_path: Any, *, mode: str = "auto", tasks: Tasks | None = None,
                 ) -> AsyncIterator[Client]:
    config = ServerConfig(browser_url=chromium.ws_url, isolated=True, output_dir=tmp_path / "out")
    async with Client(build_server(config), mode=mode, extensions=[tasks] if tasks else []) as connected:
        yield connected


def scores(result: types.CallToolResult) -> dict[str, float]:
    assert not result.is_error, result.content[0]
    data = result.structured_content or json.loads(result.content[0].text)
    return data["scores"]


def test_early_handshake_announces_what_the_sdk_serves(tmp_path):
    """The stdio handshake answered before the SDK loads says what the SDK would."""
    sdk = build_server(ServerConfig(output_dir=tmp_path)).get_capabilities(protocol_version="2026-07-28")
    assert sdk.model_dump(by_alias=True, mode="json", exclude_none=True) == mcp_early._MODERN_CAPABILITIES


async def test_audit_runs_as_a_task_polled_to_its_result(chromium, site, tmp_path):
    url = site.route("/tasks/shop", PAGE)
    tasks = Tasks()
    async with client(chromium, tmp_path, tasks=tasks) as connected:
        assert connected.protocol_version == "2026-07-28"
        assert "io.modelcontextprotocol/tasks" in connected.server_capabilities.extensions
        handle = await connected.session.call_tool("cdp_run_quality_audit", {"url": url, **AUDIT},
                                                   allow_claimed=True)
        assert isinstance(handle, TaskHandle) and handle.status == "working"
        with trio.fail_after(120):
            task = await until_done(connected.session, handle.task_id)
        assert task["status"] == "completed"
        result = types.CallToolResult.model_validate(task["result"])
        assert set(scores(result)) == {"seo", "accessibility"}
        links = [block for block in result.content if block.type == "resource_link"]
        assert sorted(link.mime_type for link in links) == ["application/json", "text/html"]
        # The SDK's client resolves the task by itself through the extension's claim.
        with trio.fail_after(120):
            again = await connected.call_tool("cdp_run_quality_audit", {"url": url, **AUDIT})
        assert set(scores(again)) == {"seo", "accessibility"} and tasks.resolved == 1
        # A short tool is an ordinary call even for this client.
        assert not (await connected.call_tool("page_navigate", {"url": url})).is_error


async def test_cancelled_task_stops_its_browser_work(chromium, site, browser, tmp_path):
    site.route("/tasks/stall", Response("late", delay=30))
    url = site.route("/tasks/stalled", STALLED)
    async with client(chromium, tmp_path, tasks=Tasks()) as connected:
        handle = await connected.session.call_tool(
            "cdp_run_quality_audit", {"url": url, "timeout_ms": 120_000, **AUDIT}, allow_claimed=True)
        with trio.fail_after(60):  # the audit's page is loading (it never goes idle)
            while url not in {t["url"] for t in (await browser.session.send("Target.getTargets"))["targetInfos"]}:
                await trio.sleep(0.1)
        task = await get_task(connected.session, handle.task_id)
        assert task["status"] == "working" and task["statusMessage"].startswith(f"loading {url}")
        await connected.session.send_request(
            types.CancelTaskRequest(params=types.CancelTaskRequestParams(task_id=handle.task_id)), ANY)
        assert (await get_task(connected.session, handle.task_id))["status"] == "cancelled"
        with trio.fail_after(60):  # its page closes, long before the stalled load would end
            while url in {t["url"] for t in (await browser.session.send("Target.getTargets"))["targetInfos"]}:
                await trio.sleep(0.1)
        # The context is free again: the cancelled call no longer holds it.
        assert not (await connected.call_tool("page_navigate", {"url": site.route("/tasks/after", PAGE)})).is_error


async def test_unknown_task_is_refused(chromium, tmp_path):
    from mcp.shared.exceptions import MCPError

    async with client(chromium, tmp_path, tasks=Tasks()) as connected:
        try:
            await get_task(connected.session, "no-such-task")
        except MCPError as error:
            assert error.error.data == {"code": "not_found"}
        else:
            raise AssertionError("tasks/get answered for a task that never was")


async def test_without_the_extension_the_audit_is_an_ordinary_call_with_progress(chromium, site, tmp_path):
    url = site.route("/tasks/plain", PAGE)
    for mode, version in (("legacy", "2025-11-25"), ("auto", "2026-07-28")):
        progress: list[tuple[float, float | None, str | None]] = []

        async def note(done: float, total: float | None, message: str | None) -> None:
            progress.append((done, total, message))  # noqa: B023  # read before the next mode

        async with client(chromium, tmp_path, mode=mode) as connected:
            assert connected.protocol_version == version
            with trio.fail_after(120):
                result = await connected.call_tool("cdp_run_quality_audit", {"url": url, **AUDIT},
                                                   progress_callback=note)
            assert set(scores(result)) == {"seo", "accessibility"}
            assert [m for _, _, m in progress] == [f"loading {url} on desktop to measure it",
                                                   "auditing accessibility", "writing the reports"], mode
            assert [(d, t) for d, t, _ in progress] == [(0, 3), (1, 3), (2, 3)]


async def test_over_streamable_http_in_both_eras(chromium, site, tmp_path):
    """The same over real HTTP: a task polled in later requests of a stateless 2026-07-28 client,
    and progress on the call's own response stream for a 2025 client with an MCP session."""
    from tests.tools.test_http_contexts import served

    url = site.route("/tasks/http", PAGE)
    config = ServerConfig(browser_url=chromium.ws_url, output_dir=tmp_path / "out")
    async with served(config) as endpoint:
        tasks = Tasks()
        async with Client(endpoint, extensions=[tasks]) as modern:
            assert modern.protocol_version == "2026-07-28"
            with trio.fail_after(120):
                result = await modern.call_tool("cdp_run_quality_audit", {"url": url, **AUDIT})
            assert set(scores(result)) == {"seo", "accessibility"} and tasks.resolved == 1
        progress: list[str | None] = []

        async def note(done: float, total: float | None, message: str | None) -> None:
            progress.append(message)

        async with Client(endpoint, mode="legacy") as legacy:
            with trio.fail_after(120):
                result = await legacy.call_tool("cdp_run_quality_audit", {"url": url, **AUDIT},
                                                progress_callback=note)
            assert set(scores(result)) == {"seo", "accessibility"}
            assert progress[-1] == "writing the reports" and len(progress) == 3
