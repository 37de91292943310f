"""Long tool calls as MCP tasks, and their progress.

A tool whose declaration says ``long`` (``tools.registry.tool``: the quality audit, trace and
video export, heap snapshots, PDFs, batches) can run past a few seconds. For a client that
declared the tasks extension (``io.modelcontextprotocol/tasks``, in the request's capabilities;
the 2026-07-28 protocol) the server answers such a ``tools/call`` at once with a task
(``resultType: "task"``) and runs the call in the background: the client polls ``tasks/get``
(the final ``CallToolResult`` is its ``result`` once ``completed``), and ``tasks/cancel`` stops
the call and its browser work. Every other client gets the ordinary result, as for any tool.
The SDK carries the 2025-11-25 in-core task design as types only and its client cannot read a
task in answer to ``tools/call`` on that wire, so a 2025-era client always gets ordinary calls.

Progress: a long call says how far it got (``ToolSession.report``: a phase of the audit, with
the number of phases). For an ordinary call whose request has a ``progressToken`` that goes out
as ``notifications/progress``; for a task it is the task's ``statusMessage``.

Tasks live in the server's memory for :data:`TTL_MS` after they were created (the last
:data:`KEPT` at most); a task made over an MCP session is that session's alone, one made
without a session is anyone's who holds its id (a random token, like a context handle).
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import trio

if TYPE_CHECKING:
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from tools.session import ProgressSink

EXTENSION = "io.modelcontextprotocol/tasks"
TTL_MS = 3_600_000
POLL_MS = 500
KEPT = 200
TERMINAL = frozenset({"completed", "failed", "cancelled"})

Run = Callable[["ProgressSink"], Awaitable["types.CallToolResult"]]


def declared(ctx: Any) -> bool:
    """Whether the client of this request declared the tasks extension (2026-07-28)."""
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    if getattr(ctx, "protocol_version", None) not in MODERN_PROTOCOL_VERSIONS:
        return False
    capabilities = getattr(getattr(ctx, "session", None), "client_capabilities", None)
    extensions = getattr(capabilities, "extensions", None)
    return isinstance(extensions, dict) and EXTENSION in extensions


def progress_sender(ctx: Any) -> ProgressSink:
    """Reports progress on this request: ``notifications/progress`` if it asked for them (a
    ``progressToken``, or the in-memory transport's callback), else nothing (the SDK decides)."""

    async def send(done: float, total: float | None, message: str) -> None:
        await ctx.session.report_progress(done, total, message)

    return send


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(eq=False)
class _Task:
    id: str
    owner: str | None
    created: str
    deadline: float
    status: str = "working"
    message: str | None = None
    updated: str = ""
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)

    def wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {"taskId": self.id, "status": self.status, "createdAt": self.created,
                                "lastUpdatedAt": self.updated or self.created, "ttlMs": TTL_MS,
                                "pollIntervalMs": POLL_MS}
        if self.message is not None:
            body["statusMessage"] = self.message
        return body

    def set(self, status: str, message: str | None) -> None:
        self.status, self.message, self.updated = status, message, _now()


class Tasks:
    """The server's tasks: started from ``tools/call``, answered on ``tasks/*``."""

    def __init__(self) -> None:
        self._tasks: OrderedDict[str, _Task] = OrderedDict()
        self._nursery: trio.Nursery | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[Tasks]:
        """For the server's lifespan: tasks run in its nursery and end with it."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            try:
                yield self
            finally:
                nursery.cancel_scope.cancel()

    def serve(self, server: Server[Any]) -> None:
        """Advertise the extension and answer its methods."""
        import mcp_types as types

        server.extensions[EXTENSION] = {}
        server.add_request_handler("tasks/get", types.GetTaskRequestParams, self._get)
        server.add_request_handler("tasks/cancel", types.CancelTaskRequestParams, self._cancel)
        server.add_request_handler("tasks/update", types.GetTaskRequestParams, self._update)

    def start(self, owner: str | None, run: Run) -> dict[str, Any]:
        """Run the call in the background; the ``tools/call`` answer that names its task."""
        if self._nursery is None:
            raise RuntimeError("the server is not running")
        self._forget_old()
        task = _Task(secrets.token_urlsafe(16), owner, _now(), trio.current_time() + TTL_MS / 1000)
        self._tasks[task.id] = task
        self._nursery.start_soon(self._run, task, run)
        return {"resultType": "task", **task.wire()}

    async def _run(self, task: _Task, run: Run) -> None:
        async def progress(done: float, total: float | None, message: str) -> None:
            if task.status == "working":
                task.set("working", f"{message} ({done:g}/{total:g})" if total else message)

        with task.scope:
            try:
                result = await run(progress)
            except Exception as exc:  # the tools answer their own errors; this is the server's
                task.error = {"code": -32603, "message": f"the call failed: {exc}"}
                task.set("failed", str(exc))
                return
            task.result = result.model_dump(by_alias=True, mode="json", exclude_none=True)
            task.set("completed", None)
        if task.scope.cancelled_caught and task.status == "working":
            task.set("cancelled", "cancelled by tasks/cancel")

    def _find(self, ctx: Any, task_id: str) -> _Task:
        from mcp.shared.exceptions import MCPError
        from mcp_types.jsonrpc import INVALID_PARAMS

        from .mcp_http import client_of

        self._forget_old()
        task = self._tasks.get(task_id)
        if task is None or (task.owner is not None and task.owner != client_of(ctx)):
            raise MCPError(code=INVALID_PARAMS, message=f"no task {task_id!r} (finished tasks are kept "
                           f"{TTL_MS // 60_000} min)", data={"code": "not_found"})
        return task

    async def _get(self, ctx: Any, params: types.GetTaskRequestParams) -> dict[str, Any]:
        task = self._find(ctx, params.task_id)
        body = task.wire()
        if task.result is not None:
            body["result"] = task.result
        if task.error is not None:
            body["error"] = task.error
        return body

    async def _cancel(self, ctx: Any, params: types.CancelTaskRequestParams) -> dict[str, Any]:
        task = self._find(ctx, params.task_id)
        if task.status not in TERMINAL:
            task.set("cancelled", "cancelled by tasks/cancel")
            task.scope.cancel()
        return {}

    async def _update(self, ctx: Any, params: types.GetTaskRequestParams) -> dict[str, Any]:
        """No task of this server asks for input, so there is nothing to update; the task must exist."""
        self._find(ctx, params.task_id)
        return {}

    def _forget_old(self) -> None:
        now = trio.current_time()
        for task_id, task in list(self._tasks.items()):
            if task.deadline < now and task.status in TERMINAL:
                del self._tasks[task_id]
        while len(self._tasks) > KEPT:
            oldest = next(iter(self._tasks.values()))
            oldest.scope.cancel()
            del self._tasks[oldest.id]
