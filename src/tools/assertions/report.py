"""The check log behind test_get_report, and the report's renderings.

Every assertion and verification tool returns through ``reported``, so each run
(passed, failed or errored) is logged exactly once, with the arguments the
agent gave and what was actually seen, until ``test_reset`` clears it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from ..errors import from_exception

if TYPE_CHECKING:
    from ..session import ToolSession


Result = TypeVar("Result", bound=BaseModel)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class CheckLog:
    target: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)

    def add(self, tool_name: str, passed: bool, message: str, duration_ms: float,
            args: dict[str, Any], actual: Any = None) -> None:
        self.steps.append({
            "tool": tool_name, "passed": passed, "message": message,
            "duration_ms": int(round(duration_ms)), "args": args, "actual": actual, "timestamp": _now(),
        })


def check_log(session: ToolSession) -> CheckLog:
    return session.state("test", CheckLog)


async def reported(session: ToolSession, tool_name: str, args: BaseModel, check: Awaitable[Result]) -> Result:
    """Await ``check`` (a check tool's work) and log its run under ``tool_name``; errors are logged
    as failures and raised on."""
    started = time.perf_counter()
    summary = args.model_dump(exclude_defaults=True)
    try:
        result = await check
    except Exception as exc:
        error = from_exception(exc)
        check_log(session).add(tool_name, False, f"{error.code}: {error.message}",
                               (time.perf_counter() - started) * 1000, summary)
        raise
    actual = result.actual if hasattr(result, "actual") else result.model_dump(exclude={"passed", "message"})
    check_log(session).add(tool_name, result.passed, result.message, (time.perf_counter() - started) * 1000,
                           summary, actual)
    return result


def render(format: str, target: str, steps: list[dict[str, Any]], passed: int, failed: int) -> str:
    """The report as text: ``json``, ``diagnostic`` or ``box``."""
    if format == "json":
        return json.dumps({"target": target, "total": len(steps), "passed": passed, "failed": failed,
                           "steps": steps}, indent=2, ensure_ascii=False)
    if format == "diagnostic":
        return render_diagnostic(target, steps, passed, failed)
    return render_box(target, steps, passed, failed)


def render_box(target: str, steps: list[dict[str, Any]], passed: int, failed: int) -> str:
    rows = [f"{'PASS' if s['passed'] else 'FAIL'}  {s['tool']:<24} {s['duration_ms']:>6} ms  {s['message']}"
            for s in steps] or ["(no checks run since test_reset)"]
    title = f"Test report: {target or '(no target set)'}"
    summary = f"{passed} passed, {failed} failed, {passed + failed} total"
    width = min(max(len(line) for line in [title, summary, *rows]), 160)

    def line(text: str) -> str:
        text = text if len(text) <= width else text[: width - 1] + "…"
        return f"│ {text:<{width}} │"

    bar = "─" * (width + 2)
    return "\n".join([f"┌{bar}┐", line(title), f"├{bar}┤", *map(line, rows), f"├{bar}┤", line(summary), f"└{bar}┘"])


def render_diagnostic(target: str, steps: list[dict[str, Any]], passed: int, failed: int) -> str:
    verdict = "FAILED" if failed else "PASSED" if passed else "NO CHECKS"
    out = [f"Target: {target or '(no target set)'}", f"Result: {verdict} ({passed} passed, {failed} failed)"]
    ordered = [(i, s) for i, s in enumerate(steps, 1) if not s["passed"]] + \
              [(i, s) for i, s in enumerate(steps, 1) if s["passed"]]
    for i, step in ordered:
        out.append("")
        out.append(f"#{i} {'FAIL' if not step['passed'] else 'PASS'} {step['tool']} ({step['duration_ms']} ms, {step['timestamp']})")
        out.append(f"   arguments: {json.dumps(step['args'], ensure_ascii=False)}")
        if step["actual"] is not None:
            out.append(f"   actual:    {json.dumps(step['actual'], ensure_ascii=False)}")
        out.append(f"   message:   {step['message']}")
    return "\n".join(out)
