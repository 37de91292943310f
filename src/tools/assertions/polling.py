"""Waiting for a check's condition: poll from Python, one page-side probe per try.

The loop runs in Python, not in the page, so a navigation in the middle of a
wait is survived: a probe that lands while the document is being replaced
counts as "not yet" and the next one runs in the new document.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from cdpdriver import CDPError, JavaScriptError
from cdpdriver.scripts import load_script

from .. import locate
from ..errors import ToolError
from ..session import ToolSession

POLL_FIRST_S = 0.02
POLL_MAX_S = 0.1
ACTUAL_MAX = 500


async def poll(probe: Callable[[], Awaitable[dict[str, Any]]], timeout_ms: int) -> dict[str, Any]:
    """Run ``probe`` until it reports ``ok`` or the time is up; the last result either way.

    A probe that lands in the middle of a navigation (context destroyed) counts as
    "not yet" rather than an error.
    """
    deadline = trio.current_time() + timeout_ms / 1000
    delay = POLL_FIRST_S
    while True:
        try:
            result = await probe()
        except (CDPError, JavaScriptError) as exc:
            if not locate.context_lost(exc):
                raise
            result = {"ok": False, "actual": None, "navigating": True}
        left = deadline - trio.current_time()
        if result.get("ok") or left <= 0:
            return result
        await trio.sleep(min(delay, left))
        delay = min(delay * 2, POLL_MAX_S)


def _probe_expression(loc: dict[str, Any] | None, condition: str, arg: Any) -> str:
    """The probe called with the locator engine, the helpers, and ``condition`` as source.

    ``condition`` is a function's source, not data, so it cannot go through
    ``call_expression``; every other argument is JSON.
    """
    probe, helpers = load_script("tools", "assertion_probe"), load_script("tools", "assertion_helpers")
    engine = load_script("tools", "locate_element")
    return f"({probe})({engine}, {helpers}, {json.dumps(loc)}, {condition}, {json.dumps(arg)})"


async def probe_once(session: ToolSession, selector: str | None, condition: str, arg: Any) -> dict[str, Any]:
    """One run of ``condition(el, arg, H)`` in the current frame; el is null when nothing matches."""
    loc = {"kind": "css", "value": selector, "name": None} if selector else None
    try:
        return await locate.evaluate(session, _probe_expression(loc, condition, arg), timeout=30)
    except JavaScriptError as exc:
        if "invalid selector" in str(exc):
            reason = str(exc).split("bad locator: ")[-1]
            raise ToolError("invalid_arguments", f"selector {selector!r} is not valid CSS: {reason}") from None
        raise


async def wait_for(session: ToolSession, selector: str | None, condition: str, arg: Any,
                   timeout_ms: int) -> dict[str, Any]:
    """Probe until ``condition`` holds or ``timeout_ms`` passes; the last probe's result."""
    return await poll(lambda: probe_once(session, selector, condition, arg), timeout_ms)


def clip(value: Any) -> Any:
    """An actual value short enough for a message and the report."""
    if isinstance(value, str) and len(value) > ACTUAL_MAX:
        return value[:ACTUAL_MAX] + "…"
    return value
