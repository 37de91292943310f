"""cdp_ coverage: which JavaScript and CSS the page actually used.

Coverage runs on a helper session attached to the tab (its Profiler, DOM and
CSS domains are its own), so it never changes what the tab's other tools see.
JavaScript comes from V8 precise coverage, CSS from rule usage tracking.
The full report (every range and rule) is written to the output directory;
the reply carries the totals and the first unused ranges and rules.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import Field

from .. import coverage
from ..models import MessageOutput, NoInput, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..recording import HelperSession, Switch
    from ..session import ToolSession
    from ..tab import Tab


INLINE_RANGES = 50
INLINE_RULES = 50
INLINE_FUNCTIONS = 200


@dataclass
class CoverageRecord:
    tab: Tab
    helper: HelperSession
    js: bool
    css: bool
    call_count: bool
    detailed: bool
    sheets: dict[str, dict[str, Any]] = field(default_factory=dict)
    scripts: dict[str, dict[str, Any]] = field(default_factory=dict)
    generation: int = 0  # bumped when the page's documents are replaced (navigation)
    listener: Any = None
    started: float = field(default_factory=time.monotonic)

    def discard(self) -> None:
        from ..recording import run_soon

        if self.listener is not None:
            self.listener.cancel()
        run_soon(self.tab, self.helper.detach)


@cache
def _coverage() -> Switch[CoverageRecord]:
    """Built on first use: ``recording`` loads the driver, which declaring tools must not."""
    from ..recording import Switch

    return Switch("cdp.coverage", "coverage", "cdp_start_coverage", "cdp_stop_coverage")


class StartCoverageInput(ToolInput):
    js: bool = True
    css: bool = True
    call_count: bool = False
    detailed: bool = False


_EVENTS = ["CSS.styleSheetAdded", "Debugger.scriptParsed", "Runtime.executionContextsCleared"]


async def _follow_page(record: CoverageRecord, events: Any) -> None:
    """Know each script's and stylesheet's length, and which document generation it belongs to."""
    with events:
        async for event in events:
            params = event.params
            if event.method == "Runtime.executionContextsCleared":
                record.generation += 1
            elif event.method == "Debugger.scriptParsed":
                record.scripts[params["scriptId"]] = {"length": params.get("length"), "generation": record.generation}
            else:
                header = dict(params.get("header") or {})
                if header.get("styleSheetId"):
                    header["generation"] = record.generation
                    record.sheets[header["styleSheetId"]] = header


async def _enable(record: CoverageRecord) -> None:
    send = record.helper.session.send
    await send("Runtime.enable", timeout=10)
    if record.js:
        await send("Debugger.enable", timeout=10)
        await send("Debugger.setSkipAllPauses", {"skip": True}, timeout=10)  # a `debugger;` must not hang the page
        await send("Profiler.enable", timeout=10)
        await send("Profiler.startPreciseCoverage", {
            "callCount": record.call_count, "detailed": record.detailed, "allowTriggeredUpdates": False,
        }, timeout=10)
    if record.css:
        await send("DOM.enable", timeout=10)
        await send("CSS.enable", timeout=10)
        await send("CSS.startRuleUsageTracking", timeout=10)


@tool("cdp_start_coverage", StartCoverageInput, MessageOutput, effect="sets")
async def cdp_start_coverage(session: ToolSession, args: StartCoverageInput) -> MessageOutput:
    """Record which JS and CSS is used; start before navigating."""
    from ..recording import attach_helper, start_background

    if not args.js and not args.css:
        raise ValueError("js and css are both false: nothing to collect")
    _coverage().ensure_off(session)
    tab = await session.tab()
    helper = await attach_helper(tab)
    record = CoverageRecord(tab, helper, args.js, args.css, args.call_count, args.detailed)
    record.listener = start_background(tab, _follow_page, record, helper.session.listen(_EVENTS, raw=True))
    try:
        await _enable(record)
    except BaseException:
        record.listener.cancel()
        await helper.detach()
        raise
    _coverage().set(session, record)
    kinds = " and ".join(k for k, on in (("JavaScript", args.js), ("CSS", args.css)) if on)
    return MessageOutput(message=f"{kinds} coverage started; navigate or interact, then call cdp_stop_coverage")


class StopCoverageOutput(ToolOutput):
    js: dict[str, Any] | None = Field(description=(
        "JavaScript: used_bytes, total_bytes, used_percent, scripts [{url, used_bytes, total_bytes, "
        "unused_ranges, unused_functions, functions (when detailed)}]"))
    css: dict[str, Any] | None = Field(description=(
        "CSS: used_bytes, total_bytes, used_percent, stylesheets [{url, stylesheet_id, used_bytes, "
        "total_bytes, unused_rules [{start, end, rule}]}]"))
    scripts: list[dict[str, Any]] = Field(description="Per script summary, most unused bytes first: url, used/total bytes, percent")
    report_path: str = Field(description="JSON file in the output directory with every range and rule")
    duration: float = Field(description="Seconds coverage ran")


def _ran(item: dict[str, Any]) -> bool:
    return any(r.get("count", 0) > 0 for f in item.get("functions") or [] for r in f.get("ranges") or [])


def _current_or_used(record: CoverageRecord, known: dict[str, Any], used: bool) -> bool:
    """Scripts and sheets of a page navigated away from count only if they ran while covered."""
    return used or known.get("generation", record.generation) >= record.generation


def _script_entry(item: dict[str, Any], detailed: bool, length: int | None) -> dict[str, Any]:
    functions = item.get("functions") or []
    usage = coverage.script_usage(functions, length)
    unused_functions = sorted({f.get("functionName") for f in functions
                               if f.get("functionName") and (f.get("ranges") or [{}])[0].get("count", 0) == 0})
    entry = {"url": item.get("url", ""), "script_id": item.get("scriptId"), **usage,
             "used_percent": coverage.percent(usage["used_bytes"], usage["total_bytes"]),
             "unused_functions": unused_functions}
    if detailed:
        entry["functions"] = [coverage.function_view(f, True) for f in functions]
    return entry


async def _js_report(record: CoverageRecord) -> dict[str, Any]:
    from cdpdriver import CDPError

    send = record.helper.session.send
    taken = await send("Profiler.takePreciseCoverage", timeout=60)
    for method in ("Profiler.stopPreciseCoverage", "Profiler.disable", "Debugger.disable"):
        try:
            await send(method, timeout=10)
        except CDPError:
            pass
    scripts = []
    for item in taken.get("result", []):
        known = record.scripts.get(item.get("scriptId"), {})
        if not item.get("url") or not _current_or_used(record, known, _ran(item)):
            continue
        scripts.append(_script_entry(item, record.detailed, known.get("length")))
    used = sum(s["used_bytes"] for s in scripts)
    total = sum(s["total_bytes"] for s in scripts)
    return {"used_bytes": used, "total_bytes": total, "used_percent": coverage.percent(used, total), "scripts": scripts}


async def _css_report(record: CoverageRecord) -> dict[str, Any]:
    from cdpdriver import CDPError

    send = record.helper.session.send
    usage = (await send("CSS.stopRuleUsageTracking", timeout=30)).get("ruleUsage", [])
    by_sheet: dict[str, list[dict[str, Any]]] = {}
    for rule in usage:
        by_sheet.setdefault(rule["styleSheetId"], []).append(rule)
    sheets = []
    for sheet_id in dict.fromkeys([*record.sheets, *by_sheet]):
        header = record.sheets.get(sheet_id, {})
        if header.get("origin") in ("user-agent", "injected", "inspector"):
            continue
        if not _current_or_used(record, header, bool(by_sheet.get(sheet_id))):
            continue
        try:
            text = (await send("CSS.getStyleSheetText", {"styleSheetId": sheet_id}, timeout=10)).get("text")
        except CDPError:
            text = None  # the sheet went away with its document
        result = coverage.stylesheet_usage(by_sheet.get(sheet_id, []), text, header.get("length"))
        sheets.append({"url": header.get("sourceURL", ""), "stylesheet_id": sheet_id,
                       "inline": bool(header.get("isInline")), **result,
                       "used_percent": coverage.percent(result["used_bytes"], result["used_bytes"] + result["unused_bytes"])})
    used = sum(s["used_bytes"] for s in sheets)
    total = sum(s["used_bytes"] + s["unused_bytes"] for s in sheets)
    return {"used_bytes": used, "total_bytes": total, "used_percent": coverage.percent(used, total), "stylesheets": sheets}


def _trimmed(report: dict[str, Any] | None, items: str, lists: dict[str, int]) -> dict[str, Any] | None:
    """The reply keeps the first entries of long lists (the report file has them all)."""
    if report is None:
        return None
    out = dict(report)
    trimmed = []
    for item in report[items]:
        copy = dict(item)
        for key, limit in lists.items():
            if key in copy and len(copy[key]) > limit:
                copy[f"{key}_total"] = len(copy[key])
                copy[key] = copy[key][:limit]
        trimmed.append(copy)
    out[items] = trimmed
    return out


@tool("cdp_stop_coverage", NoInput, StopCoverageOutput, effect="sets")
async def cdp_stop_coverage(session: ToolSession, args: NoInput) -> StopCoverageOutput:
    """Stop coverage: used and unused bytes, functions and CSS rules per file, saved as JSON too."""
    from ..recording import stamp

    record = _coverage().take(session)
    try:
        js = await _js_report(record) if record.js else None
        css = await _css_report(record) if record.css else None
    finally:
        if record.listener is not None:
            record.listener.cancel()
        await record.helper.detach()
    duration = round(time.monotonic() - record.started, 3)
    out = session.output_path(None, f"coverage-{stamp()}.json")
    out.write_text(json.dumps({"js": js, "css": css, "duration": duration}, indent=1), encoding="utf-8")
    summary = sorted(
        ({"url": s["url"], "used_bytes": s["used_bytes"], "total_bytes": s["total_bytes"],
          "used_percent": s["used_percent"]} for s in (js or {}).get("scripts", [])),
        key=lambda s: s["total_bytes"] - s["used_bytes"], reverse=True)
    return StopCoverageOutput(
        js=_trimmed(js, "scripts", {"unused_ranges": INLINE_RANGES, "functions": INLINE_FUNCTIONS}),
        css=_trimmed(css, "stylesheets", {"unused_rules": INLINE_RULES}),
        scripts=summary, report_path=str(out), duration=duration,
    )
