"""cdp_ performance and memory: Web Vitals measured in the page, heap usage, heap snapshots."""

from __future__ import annotations

import time
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import Field

from ..errors import ToolError
from ..models import NoInput, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from cdpdriver import Batch

    from ..session import ToolSession
    from ..tab import Tab


RECORDER_KEY = "cdp.perf_recorder"
RUNTIME_KEY = "cdp.performance_enabled"
HEAP_SNAPSHOT_TIMEOUT = 300.0

# Performance.getMetrics durations (seconds) → output names (ms).
_RUNTIME_DURATIONS = {
    "TaskDuration": "task_ms", "ScriptDuration": "script_ms", "LayoutDuration": "layout_ms",
    "RecalcStyleDuration": "recalc_style_ms", "V8CompileDuration": "compile_ms",
}
_RUNTIME_COUNTS = {"LayoutCount": "layout_count", "RecalcStyleCount": "recalc_style_count"}


def _applied_to_describe(function_source: str) -> str:
    """The script calling ``function_source`` with the element describer, a function (not JSON).

    The recorder and the measure both get the same describer, so they name elements alike.
    """
    from cdpdriver.scripts import load_script

    return f"({function_source})({load_script('tools', 'describe_element_path')})"


@cache
def _recorder() -> str:
    from cdpdriver.scripts import load_script

    return _applied_to_describe(load_script("tools", "perf_interaction_recorder"))


@cache
def _measure() -> str:
    from cdpdriver.scripts import load_script

    return _applied_to_describe(load_script("tools", "perf_measure"))


async def _install_recorder(tab: Tab) -> None:
    """Keep every interaction of 16 ms or more in this tab, now and after each navigation."""
    import trio

    from cdpdriver import CDPError, JavaScriptError

    from ..recording import evaluate_main

    if tab.extras.get(RECORDER_KEY):
        return
    tab.extras[RECORDER_KEY] = True
    try:  # a tab that cannot take it now (dialog, crash) must not fail the tool
        await tab.session.send("Page.addScriptToEvaluateOnNewDocument", {"source": _recorder()}, timeout=10)
        await evaluate_main(tab, _recorder(), timeout=5)
    except (ToolError, CDPError, JavaScriptError, trio.TooSlowError):
        pass  # a page that cannot run it now (dialog, crash) still gets it on its next document


def _queue_recorder(tab: Tab, batch: Batch) -> None:
    """A new tab's recorder: the init script alone, since its first document has not run yet."""
    if not tab.extras.get(RECORDER_KEY):
        tab.extras[RECORDER_KEY] = True
        batch.send("Page.addScriptToEvaluateOnNewDocument", {"source": _recorder()})


async def _recorder_everywhere(session: ToolSession, tab: Tab) -> None:
    registered = session.state(RECORDER_KEY, dict)
    if not registered:
        registered["setup"] = _queue_recorder
        session.tab_setups.append(_queue_recorder)
        for other in list(session.tabs):
            if other is not tab and not other.page.is_closed:
                await _install_recorder(other)
    await _install_recorder(tab)


async def _runtime(tab: Tab) -> dict[str, Any]:
    """Renderer work (script, layout, style) since the first metrics call on this tab."""
    since = tab.extras.get(RUNTIME_KEY)
    if since is None:
        await tab.session.send("Performance.enable", {"timeDomain": "timeTicks"}, timeout=10)
        tab.extras[RUNTIME_KEY] = since = time.monotonic()
    reply = await tab.session.send("Performance.getMetrics", timeout=10)
    metrics = {m["name"]: m["value"] for m in reply.get("metrics", [])}
    runtime: dict[str, Any] = {"measured_since_s": round(time.monotonic() - since, 3)}
    runtime.update({out: round(metrics[name] * 1000, 1) for name, out in _RUNTIME_DURATIONS.items() if name in metrics})
    runtime.update({out: int(metrics[name]) for name, out in _RUNTIME_COUNTS.items() if name in metrics})
    return runtime


class PerformanceMetricsOutput(ToolOutput):
    url: str
    lcp: dict[str, Any] | None = Field(description="Largest Contentful Paint: time_ms, element (CSS path), size (px²), url (for images); null before any paint")
    cls: float = Field(description="Cumulative Layout Shift (largest session window, shifts after input excluded)")
    cls_elements: list[dict[str, Any]] = Field(description="Elements that shifted in the worst window, biggest share first")
    layout_shifts: list[dict[str, Any]] = Field(description="The largest shifts (up to 20): value, time, sources with rects")
    inp: dict[str, Any] | None = Field(description=(
        "Interaction to Next Paint: value_ms, event, element, input delay / processing / presentation; "
        "null when there were no interactions (see inp_reason)"))
    inp_reason: str | None = Field(default=None, description="Why inp is null")
    navigation: dict[str, Any] | None = Field(description=(
        "Navigation timing in ms from navigation start: ttfb, dns, connect, dom_content_loaded, load, "
        "first (contentful) paint, transfer and body sizes"))
    long_tasks: dict[str, Any] = Field(description="Long tasks: count, total_blocking_time_ms (after FCP), longest_ms")
    runtime: dict[str, Any] = Field(description="Renderer time spent in tasks, script, layout, style since the first call on this tab")


@tool("cdp_get_performance_metrics", NoInput, PerformanceMetricsOutput, effect="reads")
async def cdp_get_performance_metrics(session: ToolSession, args: NoInput) -> PerformanceMetricsOutput:
    """Core Web Vitals, navigation timing and long tasks; call once early, interact, call again."""
    from ..recording import evaluate_main

    tab = await session.tab()
    await _recorder_everywhere(session, tab)
    data = await evaluate_main(tab, _measure(), timeout=15)
    return PerformanceMetricsOutput(**data, runtime=await _runtime(tab))


class MemoryStatsOutput(ToolOutput):
    usedJSHeapSize: int = Field(description="Bytes of JavaScript heap in use")
    totalJSHeapSize: int = Field(description="Bytes of JavaScript heap allocated")
    jsHeapSizeLimit: int = Field(description="Largest the JavaScript heap may grow, in bytes")
    embedder_heap_used_size: int | None = Field(default=None, description="Bytes used by the embedder (Blink) heap")
    documents: int | None = Field(default=None, description="Live documents in the renderer")
    nodes: int | None = Field(default=None, description="Live DOM nodes (detached ones included)")
    js_event_listeners: int | None = Field(default=None, description="Registered JavaScript event listeners")


@tool("cdp_get_memory_stats", NoInput, MemoryStatsOutput, effect="reads")
async def cdp_get_memory_stats(session: ToolSession, args: NoInput) -> MemoryStatsOutput:
    """JS heap use and counts of documents, DOM nodes and listeners."""
    from cdpdriver import CDPError

    from ..recording import evaluate_main

    tab = await session.tab()
    heap = await tab.session.send("Runtime.getHeapUsage", timeout=10)
    limit = await evaluate_main(tab, "performance.memory ? performance.memory.jsHeapSizeLimit : 0", timeout=5)
    counters: dict[str, Any] = {}
    try:
        counters = await tab.session.send("Memory.getDOMCounters", timeout=10)
    except CDPError:
        pass
    return MemoryStatsOutput(
        usedJSHeapSize=int(heap["usedSize"]), totalJSHeapSize=int(heap["totalSize"]),
        jsHeapSizeLimit=int(limit or 0), embedder_heap_used_size=heap.get("embedderHeapUsedSize"),
        documents=counters.get("documents"), nodes=counters.get("nodes"),
        js_event_listeners=counters.get("jsEventListeners"),
    )


class HeapSnapshotInput(ToolInput):
    path: str | None = Field(default=None, min_length=1)


class HeapSnapshotOutput(ToolOutput):
    path: str = Field(description="The .heapsnapshot file (load it in DevTools → Memory)")
    size: int = Field(description="File size in bytes")
    node_count: int | None = Field(default=None, description="Heap objects in the snapshot")


def _node_count(path: Any) -> int | None:
    """Read the count from the snapshot's header without loading the whole file."""
    with open(path, encoding="utf-8") as source:
        head = source.read(4096)
    marker = '"node_count":'
    at = head.find(marker)
    if at < 0:
        return None
    digits = head[at + len(marker):].lstrip().split(",", 1)[0].split("}", 1)[0]
    return int(digits) if digits.strip().isdigit() else None


@tool("cdp_take_heap_snapshot", HeapSnapshotInput, HeapSnapshotOutput, effect="acts", long=True)
async def cdp_take_heap_snapshot(session: ToolSession, args: HeapSnapshotInput) -> HeapSnapshotOutput:
    """Write a JS heap snapshot file (open it in DevTools, Memory)."""
    import trio

    from ..recording import attach_helper, stamp

    tab = await session.tab()
    out = session.output_path(args.path, f"heap-{stamp()}.heapsnapshot")
    helper = await attach_helper(tab)
    try:
        await helper.session.send("HeapProfiler.enable", timeout=10)
        with helper.session.listen("HeapProfiler.addHeapSnapshotChunk", raw=True) as chunks:
            async with trio.open_nursery() as nursery:
                async def take() -> None:
                    try:
                        await helper.session.send("HeapProfiler.takeHeapSnapshot", {"reportProgress": False},
                                                  timeout=HEAP_SNAPSHOT_TIMEOUT)
                    finally:
                        chunks.close()  # the chunks all precede the reply; ending the stream ends the writer

                nursery.start_soon(take)
                with open(out, "w", encoding="utf-8") as sink:
                    async for event in chunks:
                        sink.write(event.params.get("chunk", ""))
    finally:
        await helper.detach()
    return HeapSnapshotOutput(path=str(out), size=out.stat().st_size, node_count=_node_count(out))

