"""One exception hierarchy for everything the driver can raise.

Callers catch ``CDPError`` for any driver failure, or a subclass when the
remedy differs (relaunch on ``BrowserClosed``, retry on ``CommandTimeout``).
"""

from __future__ import annotations


class CDPError(Exception):
    """Base of every driver error."""


class BrowserLaunchError(CDPError):
    """The browser could not be started; the message carries its stderr tail."""


class BrowserNotFound(BrowserLaunchError):
    """No Chromium binary was found on any of the searched paths."""


class ConnectionClosed(CDPError):
    """The transport to the browser is gone; no command can be sent any more."""


class BrowserClosed(ConnectionClosed):
    """The browser process exited or closed its end of the connection."""


class TargetClosed(CDPError):
    """The target (tab, frame, worker) behind a session was detached or closed."""


class TargetCrashed(TargetClosed):
    """The renderer of the target crashed."""


class CommandTimeout(CDPError, TimeoutError):
    """A command got no reply within its timeout; a late reply is ignored."""

    def __init__(self, method: str, timeout: float) -> None:
        super().__init__(f"{method} got no reply within {timeout:g} s")
        self.method = method
        self.timeout = timeout


class ProtocolError(CDPError):
    """The browser answered a command with an error object."""

    def __init__(self, method: str, code: int | None, message: str, data: str | None = None):
        detail = f" ({data})" if data else ""
        super().__init__(f"{method}: {message}{detail}")
        self.method = method
        self.code = code
        self.message = message
        self.data = data


class JavaScriptError(CDPError):
    """Script evaluated in a page threw; carries the message and where it was thrown."""

    def __init__(
        self,
        message: str,
        *,
        url: str | None = None,
        line: int | None = None,
        column: int | None = None,
        stack: str | None = None,
    ) -> None:
        where = f" at {url or '<anonymous>'}:{line}:{column}" if line is not None else ""
        super().__init__(f"{message}{where}")
        self.message = message
        self.url = url
        self.line = line
        self.column = column
        self.stack = stack


class NavigationFailed(CDPError):
    """A navigation did not reach a document (net error, aborted, blocked)."""

    def __init__(self, url: str, error_text: str) -> None:
        super().__init__(f"navigation to {url} failed: {error_text}")
        self.url = url
        self.error_text = error_text


class NavigationTimeout(CDPError, TimeoutError):
    """The page did not reach the awaited lifecycle state in time."""

    def __init__(self, url: str, state: str, timeout: float) -> None:
        super().__init__(f"{url} did not reach '{state}' within {timeout:g} s")
        self.url = url
        self.state = state
        self.timeout = timeout
