"""cdp_ console and logs: console entries with stack traces, and the browser's own log.

cdp_enable_console_debugger deepens what every tab records: async call stacks
(the setTimeout / promise / event chain that led to a console call), and the
browser's violation reports (long tasks, slow handlers, forced layout,
document.write…). cdp_get_browser_logs adds the page's current browser issues
(deprecations such as synchronous XHR, which Chromium reports as issues, not
log lines) to what the Log domain recorded.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ..errors import ToolError
from ..models import MessageOutput, NoInput, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from cdpdriver import Batch

    from ..session import ToolSession
    from ..tab import Tab


log = logging.getLogger(__name__)

STATE_KEY = "cdp.console_debugger"
TRACES_KEY = "cdp.console_traces"  # tab.extras: console timestamp -> full CDP stackTrace
LISTENER_KEY = "cdp.console_listener"
TRACES_KEPT = 2000
ASYNC_DEPTH = 32
VIOLATIONS = [  # thresholds in ms; -1 reports every occurrence
    {"name": "longTask", "threshold": 50}, {"name": "longLayout", "threshold": 30},
    {"name": "blockedEvent", "threshold": 100}, {"name": "blockedParser", "threshold": -1},
    {"name": "handler", "threshold": 150}, {"name": "recurringHandler", "threshold": 50},
    {"name": "discouragedAPIUse", "threshold": -1},
]
ConsoleType = Literal["log", "info", "warn", "error", "debug"]
LogSource = Literal["xml", "javascript", "network", "storage", "appcache", "rendering", "security", "deprecation",
                    "worker", "violation", "intervention", "recommendation", "issue", "other"]
LogLevel = Literal["verbose", "info", "warning", "error"]


# -- the enhanced console, per tab --------------------------------------------------------


async def _keep_traces(tab: Tab, events: Any) -> None:
    traces: OrderedDict[float, dict[str, Any]] = tab.extras.setdefault(TRACES_KEY, OrderedDict())
    with events:
        async for event in events:
            params = event.params
            trace = params.get("stackTrace") or (params.get("exceptionDetails") or {}).get("stackTrace")
            if trace and params.get("timestamp") is not None:
                traces[params["timestamp"]] = trace
                while len(traces) > TRACES_KEPT:
                    traces.popitem(last=False)


def _queue_debugging(tab: Tab, batch: Batch) -> None:
    """Queue what deepens a tab's console (a tab setup, so popups get it from their first line)."""
    from ..recording import start_background, tab_alive

    if tab.extras.get(LISTENER_KEY) is not None or not tab_alive(tab):
        return
    events = tab.session.listen(["Runtime.consoleAPICalled", "Runtime.exceptionThrown"], raw=True)
    tab.extras[LISTENER_KEY] = start_background(tab, _keep_traces, tab, events)
    batch.send("Debugger.enable")  # needed to resolve the async parents of console.log
    batch.send("Debugger.setSkipAllPauses", {"skip": True})  # a `debugger;` statement must not stop the page
    batch.send("Debugger.setAsyncCallStackDepth", {"maxDepth": ASYNC_DEPTH})
    batch.send("Runtime.setAsyncCallStackDepth", {"maxDepth": ASYNC_DEPTH})
    batch.send("Log.startViolationsReport", {"config": VIOLATIONS})


async def _debug_tab(tab: Tab) -> None:
    async with tab.session.batch(timeout=10) as batch:
        _queue_debugging(tab, batch)
    for reply in batch.replies:  # one odd tab (a crashed popup) must not fail the others
        if reply.error is not None:
            log.debug("console debugger: %s failed on %s: %s", reply.method, tab.id, reply.error)


async def _undebug_tab(tab: Tab) -> None:
    from cdpdriver import CDPError

    from ..recording import tab_alive

    listener = tab.extras.pop(LISTENER_KEY, None)
    if listener is not None:
        listener.cancel()
    if not tab_alive(tab):
        return
    for method, params in (("Log.stopViolationsReport", None), ("Runtime.setAsyncCallStackDepth", {"maxDepth": 0}),
                           ("Debugger.disable", None)):
        try:
            await tab.session.send(method, params, timeout=10)
        except CDPError:
            pass


class ConsoleDebuggerOutput(MessageOutput):
    tabs: int = Field(description="Tabs it applies to now (tabs opened later are included too)")


@tool("cdp_enable_console_debugger", NoInput, ConsoleDebuggerOutput, effect="sets")
async def cdp_enable_console_debugger(session: ToolSession, args: NoInput) -> ConsoleDebuggerOutput:
    """Record async stacks of console entries and report violations (long tasks) in every tab."""
    from ..recording import tab_alive

    state = session.state(STATE_KEY, dict)
    if state.get("on"):
        raise ToolError("already_started", "the console debugger is already on; call cdp_disable_console_debugger first")
    await session.tab()
    state["on"] = True
    session.tab_setups.append(_queue_debugging)
    tabs = [t for t in session.tabs if tab_alive(t)]
    for tab in tabs:
        await _debug_tab(tab)
    return ConsoleDebuggerOutput(message="console debugger on: async stacks and violation reports", tabs=len(tabs))


@tool("cdp_disable_console_debugger", NoInput, ConsoleDebuggerOutput, effect="sets")
async def cdp_disable_console_debugger(session: ToolSession, args: NoInput) -> ConsoleDebuggerOutput:
    """Undo cdp_enable_console_debugger."""
    from ..recording import tab_alive

    state = session.state(STATE_KEY, dict)
    if not state.get("on"):
        raise ToolError("not_started", "the console debugger is off; call cdp_enable_console_debugger first")
    state["on"] = False
    if _queue_debugging in session.tab_setups:
        session.tab_setups.remove(_queue_debugging)
    tabs = [t for t in session.tabs if tab_alive(t)]
    for tab in tabs:
        await _undebug_tab(tab)
    return ConsoleDebuggerOutput(message="console debugger off", tabs=len(tabs))


# -- reading the console ------------------------------------------------------------------


def _frames(call_frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"function": f.get("functionName") or "(anonymous)", "url": f.get("url", ""),
             "line": int(f.get("lineNumber", 0)) + 1, "column": int(f.get("columnNumber", 0)) + 1}
            for f in call_frames]


async def _async_chain(tab: Tab, trace: dict[str, Any], depth: int = ASYNC_DEPTH) -> list[dict[str, Any]]:
    """The async parents of a stack: given inline (errors, warnings) or fetched by id (console.log)."""
    from cdpdriver import CDPError

    from ..recording import tab_alive

    chain: list[dict[str, Any]] = []
    parent = trace.get("parent")
    parent_id = trace.get("parentId")
    while len(chain) < depth:
        if parent is None and parent_id is not None and tab_alive(tab):
            try:
                parent = (await tab.session.send("Debugger.getStackTrace", {"stackTraceId": parent_id},
                                                 timeout=5)).get("stackTrace")
            except CDPError:
                parent = None
            parent_id = None
        if not parent:
            break
        chain.append({"description": parent.get("description", "async"), "frames": _frames(parent.get("callFrames") or [])})
        parent_id = parent.get("parentId")
        parent = parent.get("parent")
    return chain


class ConsoleEntriesInput(ToolInput):
    type: ConsoleType | None = None
    limit: int = Field(default=100, ge=1, le=2000)


class ConsoleEntriesOutput(ToolOutput):
    entries: list[dict[str, Any]] = Field(description=(
        "Oldest first: type, text, args, url, line, column, timestamp (ms since epoch), stack [{function, url, "
        "line, column}] and, with the console debugger on, async_stack [{description, frames}]"))
    count: int
    total: int = Field(description="Matching entries before the limit")
    dropped: int = Field(description="Older entries the tab no longer keeps (0 when none)")


def _entry(message: dict[str, Any]) -> dict[str, Any]:
    stack = _frames(message.get("stack") or [])
    return {"type": message.get("type", "log"), "text": message.get("text", ""), "args": message.get("args", []),
            "url": message.get("url", ""), "line": message.get("line", 0),
            "column": stack[0]["column"] if stack else 0, "timestamp": message.get("timestamp"), "stack": stack}


@tool("cdp_get_console_entries", ConsoleEntriesInput, ConsoleEntriesOutput, effect="reads")
async def cdp_get_console_entries(session: ToolSession, args: ConsoleEntriesInput) -> ConsoleEntriesOutput:
    """Console calls and uncaught errors with stack traces."""
    tab = await session.tab()
    matching = [m for m in list(tab.console) if args.type is None or m.get("type") == args.type]
    chosen = matching[-args.limit:]
    traces: dict[float, dict[str, Any]] = tab.extras.get(TRACES_KEY) or {}
    entries = []
    for message in chosen:
        entry = _entry(message)
        trace = traces.get(message.get("timestamp"))
        if trace and (trace.get("parent") or trace.get("parentId")):
            entry["async_stack"] = await _async_chain(tab, trace)
        entries.append(entry)
    return ConsoleEntriesOutput(entries=entries, count=len(entries), total=len(matching), dropped=tab.console.dropped)


# -- the browser's log --------------------------------------------------------------------

_ISSUE_SOURCES = {"DeprecationIssue": "deprecation", "HeavyAdIssue": "intervention"}


def _issue_entry(issue: dict[str, Any]) -> dict[str, Any]:
    code = issue.get("code", "Issue")
    details = next(iter((issue.get("details") or {}).values()), {}) or {}
    location = details.get("sourceCodeLocation") or {}
    kind = details.get("type") or details.get("violationType") or details.get("reason") or ""
    text = f"{code.removesuffix('Issue')}: {kind}" if kind else code
    return {"source": _ISSUE_SOURCES.get(code, "issue"), "level": "warning" if code == "DeprecationIssue" else "info",
            "text": text, "url": location.get("url", ""), "line": int(location.get("lineNumber", -1)) + 1,
            "timestamp": None, "code": code}


async def _current_issues(tab: Tab) -> list[dict[str, Any]]:
    """The page's reported issues: enabling Audits on a helper session replays them."""
    import trio

    from cdpdriver import CDPError

    from ..recording import attach_helper

    helper = await attach_helper(tab)
    try:
        with helper.session.listen("Audits.issueAdded", raw=True) as events:
            await helper.session.send("Audits.enable", timeout=10)  # the replayed issues precede its reply
            issues = []
            while True:
                try:
                    issues.append(_issue_entry(events.receive_nowait().params.get("issue") or {}))
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
        return issues
    except CDPError:
        return []
    finally:
        await helper.detach()


class BrowserLogsInput(ToolInput):
    source: LogSource | None = None
    level: LogLevel | None = None


class BrowserLogsOutput(ToolOutput):
    logs: list[dict[str, Any]] = Field(description="source, level, text, url, line, timestamp (ms since epoch)")
    count: int
    dropped: int = Field(description="Older entries the tab no longer keeps (0 when none)")


@tool("cdp_get_browser_logs", BrowserLogsInput, BrowserLogsOutput, effect="reads")
async def cdp_get_browser_logs(session: ToolSession, args: BrowserLogsInput) -> BrowserLogsOutput:
    """The browser's own log (deprecations, interventions, errors, violations), not console.log."""
    tab = await session.tab()
    logs = [dict(entry) for entry in list(tab.browser_logs)]
    seen = {(e.get("source"), e.get("text")) for e in logs}
    for issue in await _current_issues(tab):
        if (issue["source"], issue["text"]) not in seen:
            logs.append(issue)
    chosen = [e for e in logs if (args.source is None or e.get("source") == args.source)
              and (args.level is None or e.get("level") == args.level)]
    return BrowserLogsOutput(logs=chosen, count=len(chosen), dropped=tab.browser_logs.dropped)
