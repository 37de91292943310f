"""How an audit fails: one exception type and the one mapping onto it.

Everything the engine's public entries raise (cancellation aside) is an :class:`AuditFailed`
carrying one of the service's 500 codes, so the HTTP service, the CLI and the tools read
``code`` and never look at driver errors themselves. :func:`classify` is that mapping, and
:func:`failures_classified` applies it at the engine's boundary. A failure leaves a nursery
as a group, often next to the errors it caused, so the mapping reads every leaf and picks the
one that explains the rest: a dead browser explains everything, then the page's own failure
(a net error, a load timeout, an HTTP error, a ``login_failed`` of :mod:`audit.auth`, which
makes it itself because only it knows which values of the request to cut from the message),
then a deadline, then anything else.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import trio

from cdpdriver import (
    Browser,
    CommandTimeout,
    ConnectionClosed,
    NavigationFailed,
    NavigationTimeout,
    TargetClosed,
    TargetCrashed,
    exception_leaves,
)

from .models import AUDIT_ERROR_CODES, ErrorInfo
from .urls import scrub_credentials

ERROR_CODES = AUDIT_ERROR_CODES


class AuditFailed(Exception):
    """The audit could not be completed; ``code`` is one of :data:`ERROR_CODES`.

    Message and details never carry a URL's ``user:password@``: they are logged, returned and
    stored, so credentials are cut here, where every failure is made.
    """

    def __init__(self, code: str, message: str, details: list | None = None) -> None:
        message = scrub_credentials(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.details: list[Any] = scrub_credentials(list(details or []))

    def error_info(self) -> ErrorInfo:
        return ErrorInfo(code=self.code, message=self.message)


def _page_failure(leaf: BaseException) -> AuditFailed | None:
    """The failure of the page itself that ``leaf`` reports, if it reports one."""
    if isinstance(leaf, AuditFailed):
        return leaf
    if isinstance(leaf, NavigationFailed):
        return AuditFailed(
            "navigation_failed",
            f"Could not load {leaf.url}: {leaf.error_text}",
            [{"url": leaf.url, "netError": leaf.error_text}],
        )
    if isinstance(leaf, NavigationTimeout):
        return AuditFailed(
            "timeout",
            f"{leaf.url} did not finish loading within {leaf.timeout:g} s",
            [{"url": leaf.url, "timeoutSeconds": leaf.timeout}],
        )
    return None


def classify(exc: BaseException, browser: Browser) -> AuditFailed | None:
    """The AuditFailed an exception (or exception group) stands for; None for cancellation
    and interrupts, which must propagate unchanged."""
    leaves = exception_leaves(exc)
    if any(not isinstance(leaf, Exception) for leaf in leaves):
        return None
    failures = [f for f in map(_page_failure, leaves) if f is not None]
    crashed = [f for f in failures if f.code == "browser_crashed"]
    if crashed:
        return crashed[0]
    lost = next((leaf for leaf in leaves if isinstance(leaf, ConnectionClosed)), None)
    if lost is not None or not browser.is_connected:
        reason = str(lost) if lost is not None else "connection to the browser lost"
        return AuditFailed(
            "browser_crashed", "The browser crashed or closed during the audit.", [{"reason": reason}]
        )
    renderer = next((leaf for leaf in leaves if isinstance(leaf, TargetCrashed)), None)
    if renderer is not None:
        return AuditFailed(
            "browser_crashed", "The page's renderer crashed during the audit.", [{"reason": str(renderer)}]
        )
    if failures:
        return failures[0]
    slow = next((leaf for leaf in leaves if isinstance(leaf, (trio.TooSlowError, CommandTimeout))), None)
    if slow is not None:
        return AuditFailed("timeout", f"The audit took too long: {str(slow) or 'deadline reached'}.")
    closed = next((leaf for leaf in leaves if isinstance(leaf, TargetClosed)), None)
    if closed is not None:
        return AuditFailed("audit_failed", "The page was closed during the audit.", [{"reason": str(closed)}])
    return AuditFailed("audit_failed", f"The audit failed: {leaves[0]}", [{"reason": repr(leaves[0])}])


@contextmanager
def failures_classified(
    browser: Browser, *, deadline: float = math.inf, overrun: AuditFailed | None = None
) -> Iterator[None]:
    """Whatever escapes the block leaves as the one :class:`AuditFailed` it stands for.

    Cancellation and interrupts propagate unchanged. Once ``deadline`` (trio time) has
    passed, any failure but a crashed browser is reported as ``overrun``: whatever the
    deadline cut short is a symptom, the deadline is the cause.
    """
    try:
        yield
    except BaseException as exc:
        failure = classify(exc, browser)
        if failure is None:
            raise
        if overrun is not None and failure.code != "browser_crashed" and trio.current_time() >= deadline:
            failure = overrun
        if failure is exc:
            raise
        raise failure from exc
