"""Typed tool failures and the mapping from driver errors to tool error codes.

:func:`from_exception` is the one place a driver error becomes a tool error code: the
registry applies it to whatever a handler raises, so handlers raise a ``ToolError`` only
when they can say something more useful than the driver (what to do next).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError


class ToolError(Exception):
    """A failure the agent can act on: a stable ``code`` and a sentence saying what to do."""

    def __init__(self, code: str, message: str, details: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            error["details"] = self.details
        return {"error": error}


SNAPSHOT_AGAIN = "call accessibility_snapshot or page_inspect for fresh references"


def stale_reference(ref: str, why: str) -> ToolError:
    """An element reference (``e12``) that no longer names an element: the agent snapshots again."""
    return ToolError("stale_reference", f"reference {ref} is stale: {why}; {SNAPSHOT_AGAIN}")


def invalid_arguments(exc: ValidationError, tool: str) -> ToolError:
    """One detail per bad field, named by its dotted path."""
    details = []
    for err in exc.errors(include_url=False):
        field = ".".join(str(p) for p in err.get("loc", ())) or "(arguments)"
        message = err.get("msg", "invalid value")
        if err.get("type") == "missing":
            message = "is required"
        elif err.get("type") == "extra_forbidden":
            message = "is not an argument of this tool"
        details.append({"field": field, "message": message})
    summary = "; ".join(f"{d['field']}: {d['message']}" for d in details)
    return ToolError("invalid_arguments", f"{tool}: {summary}", details)


def from_exception(exc: BaseException) -> ToolError:
    """Translate any failure into a ToolError; unknown ones keep their message, never a traceback."""
    import trio  # imported here so that declaring a tool (which names ToolError) loads no driver

    from cdpdriver import (
        BrowserClosed,
        BrowserLaunchError,
        CDPError,
        CommandTimeout,
        JavaScriptError,
        NavigationFailed,
        NavigationTimeout,
        TargetClosed,
    )

    if isinstance(exc, ToolError):
        return exc
    if isinstance(exc, NavigationFailed):
        return ToolError("navigation_failed", f"navigation to {exc.url} failed: {exc.error_text}")
    if isinstance(exc, (NavigationTimeout, CommandTimeout, trio.TooSlowError, TimeoutError)):
        return ToolError("timeout", f"{exc or 'operation timed out'}; retry with a larger timeout_ms")
    if isinstance(exc, JavaScriptError):
        return ToolError("javascript_error", f"the script threw: {exc}")
    if isinstance(exc, BrowserLaunchError):
        return ToolError("no_browser", f"the browser could not be started: {exc}")
    if isinstance(exc, BrowserClosed):
        return ToolError("no_browser", "the browser closed or crashed; the next call relaunches it")
    if isinstance(exc, TargetClosed):
        return ToolError("target_closed", f"{exc}; call tab_list to pick another tab")
    if isinstance(exc, CDPError):  # ProtocolError and the rest of the driver's errors
        return ToolError("cdp_error", str(exc))
    if isinstance(exc, ValueError):
        return ToolError("invalid_arguments", str(exc))
    return ToolError("internal_error", f"{type(exc).__name__}: {exc}")
