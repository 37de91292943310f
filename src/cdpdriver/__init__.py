"""cdpdriver: a Trio client for the Chrome DevTools Protocol.

One connection per browser, flat sessions, typed commands generated from the
protocol (``cdpdriver.protocol``), and one error hierarchy (``cdpdriver.errors``).
Page-side script runs through ``cdpdriver.evaluation`` (one rule for results and
thrown exceptions, isolated worlds, large strings in chunks); events reach
subscribers through bounded buffers (``cdpdriver.event_buffer``).
"""

from .browser import Browser, BrowserContext, BrowserVersion, connect, launch
from .connection import Batch, Connection, RawEvent, Reply, Subscription
from .errors import (
    BrowserClosed,
    BrowserLaunchError,
    BrowserNotFound,
    CDPError,
    CommandTimeout,
    ConnectionClosed,
    JavaScriptError,
    NavigationFailed,
    NavigationTimeout,
    ProtocolError,
    TargetClosed,
    TargetCrashed,
)
from .evaluation import (
    call_function,
    call_function_remote,
    evaluate,
    evaluate_remote,
    isolated_world,
    read_string,
    remote_value,
    script_error,
    unwrap_evaluation,
    write_string,
)
from .event_buffer import EventBuffer
from .groups import exception_leaves, first_of, single_exception
from .launcher import LaunchOptions, find_chromium
from .page import Page
from .session import Session

__all__ = [
    "Batch", "Browser", "BrowserClosed", "BrowserContext", "BrowserLaunchError", "BrowserNotFound",
    "BrowserVersion", "CDPError", "CommandTimeout", "Connection", "ConnectionClosed",
    "EventBuffer", "JavaScriptError", "LaunchOptions", "NavigationFailed", "NavigationTimeout",
    "Page", "ProtocolError", "RawEvent", "Reply", "Session", "Subscription", "TargetClosed",
    "TargetCrashed", "call_function", "call_function_remote", "connect", "evaluate",
    "evaluate_remote", "exception_leaves", "find_chromium", "first_of", "isolated_world", "launch",
    "read_string", "remote_value", "script_error", "single_exception", "unwrap_evaluation",
    "write_string",
]
