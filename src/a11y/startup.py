"""What ``a11y serve`` and ``a11y worker`` share when they start: the browser they open
(``--browser-url`` or a launch of their own), and the refusal of a store or a queue that
cannot be used, told in one line (and exit status 2), never as a traceback.

The queue connects lazily, so without a look at start a wrong ``--queue`` would only show
as errors in the log once the first page is due; ``check_queue`` asks the server at once.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

from audit.launch import audit_launch_options
from cdpdriver import Browser, LaunchOptions, connect, launch
from jobs.queue import QueueError, open_queue
from jobs.store import StoreError

#: Failures of the set-up (a database or a queue that cannot be reached or opened, a URL
#: of the wrong kind), as opposed to bugs.
SETUP_ERRORS = (StoreError, QueueError, ValueError)


class StartupFailed(Exception):
    """The process cannot start; the message says why in one line, without a password."""

    def __init__(self, reason: str | BaseException) -> None:
        super().__init__(one_line(str(reason)))


def one_line(text: str) -> str:
    """``text`` on one line (drivers' messages often carry a second line of hints)."""
    return " ".join(text.split())


async def check_queue(url: str | None, prefix: str) -> None:
    """Ask the queue at ``url`` for its length; ``StartupFailed`` when it cannot answer
    (None, the in-process queue, always can)."""
    if url is None:
        return
    try:
        queue = open_queue(url, prefix)
        try:
            await queue.length()
        finally:
            await queue.close()
    except SETUP_ERRORS as exc:
        raise StartupFailed(f"the queue cannot be used: {exc}") from exc


def open_browser_at(
    browser_url: str | None, launch_options: LaunchOptions | None = None
) -> AbstractAsyncContextManager[Browser]:
    """A browser for the life of the ``async with``: an attach to the Chrome at
    ``browser_url`` (``--browser-url``) when given, else a launch of our own (by default
    as :mod:`audit.launch` launches audit browsers)."""
    if browser_url:
        return connect(browser_url)
    return launch(launch_options or audit_launch_options())
