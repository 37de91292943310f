"""cdpdriver: a Trio client for the Chrome DevTools Protocol.

One connection per browser, flat sessions, typed commands generated from the
protocol (``cdpdriver.protocol``), and one error hierarchy (``cdpdriver.errors``).
"""

from .browser import Browser, BrowserContext, BrowserVersion, connect, launch
from .connection import Connection, RawEvent, Subscription
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
from .launcher import LaunchOptions, find_chromium
from .page import Page
from .session import Session

__all__ = [
    "Browser", "BrowserClosed", "BrowserContext", "BrowserLaunchError", "BrowserNotFound",
    "BrowserVersion", "CDPError", "CommandTimeout", "Connection", "ConnectionClosed",
    "JavaScriptError", "LaunchOptions", "NavigationFailed", "NavigationTimeout", "Page",
    "ProtocolError", "RawEvent", "Session", "Subscription", "TargetClosed", "TargetCrashed",
    "connect", "find_chromium", "launch",
]
