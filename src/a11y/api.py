"""The Python API: ``await audit(url)`` and ``Auditor`` for many pages on one browser.

It is the service's audit without HTTP: the same request model (``AuditRequest``, the body
of ``POST /audit``), the same engine entry (:func:`audit.engine.run_audit`) and the same
result (``AuditResult``, with ``to_sarif()``, ``to_junit()`` and ``diff()``). A request is
given as keyword arguments, as a JSON body (a mapping) or as an ``AuditRequest``; keyword
names may be the Python ones (``best_practices``) or the JSON ones (``bestPractices``), and
nested options are given as their JSON objects (``crawl={"enabled": True, "maxPages": 5}``).
A bad request raises :class:`AuditRequestError` naming each field before any browser starts.

The browser is launched (as the CLI and the service launch audit browsers) or, with
``browser_url``, an existing Chromium started with ``--remote-debugging-port`` is attached
to: the audit then works in browser contexts of its own, which Chromium disposes when the
connection closes, and leaves the browser's own tabs alone. :mod:`a11y.api_sync` wraps all of
this for code that is not async.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from audit.engine import EngineLimits
    from audit.models import AuditRequest, AuditResult
    from cdpdriver import Browser, LaunchOptions


class AuditRequestError(ValueError):
    """The request is not one ``POST /audit`` would take; ``problems`` holds one
    ``{"field", "message"}`` per problem, fields as dotted JSON paths (``crawl.maxPages``)."""

    def __init__(self, problems: list[dict[str, str]]) -> None:
        self.problems = problems
        listed = "; ".join(f"{p['field']}: {p['message']}" for p in problems)
        super().__init__(f"invalid audit request: {listed}")

    @property
    def fields(self) -> list[str]:
        """The fields named, in the order the problems were found."""
        return [problem["field"] for problem in self.problems]


def make_request(target: Any = None, /, **fields: Any) -> AuditRequest:
    """The validated ``AuditRequest`` for a URL, a JSON body or a request, plus keyword
    fields (see the module docstring); raises :class:`AuditRequestError`."""
    from pydantic import ValidationError

    from audit.models import AuditRequest, request_errors

    if isinstance(target, AuditRequest):
        if fields:
            raise TypeError(
                f"give either an AuditRequest or keyword fields, not both (got {sorted(fields)})"
            )
        return target
    if isinstance(target, Mapping):
        body = dict(target)
    elif target is None:
        body = {}
    elif isinstance(target, str):
        body = {"url": target}
    else:
        raise TypeError(
            f"the audit target must be a URL, a mapping or an AuditRequest, not {type(target).__name__}"
        )
    for name, value in fields.items():
        json_name = _json_name(name)
        if json_name in body:
            raise AuditRequestError([{"field": json_name, "message": "Given twice."}])
        body[json_name] = value
    try:
        return AuditRequest.model_validate(body)
    except ValidationError as exc:
        raise AuditRequestError(request_errors(exc)) from None


def _json_name(name: str) -> str:
    """``best_practices`` → ``bestPractices``; any other name is kept for the model to judge."""
    from audit.models import AuditRequest

    field = AuditRequest.model_fields.get(name)
    return field.alias if field is not None and field.alias else name


class Auditor:
    """Audits many pages on one browser, each in a fresh browser context of its own.

    ``async with Auditor() as auditor: result = await auditor.audit(url)``. The browser is
    launched on entry and killed on exit (on every path), or attached to at ``browser_url``
    and only disconnected from. ``limits`` are the engine's (:class:`audit.engine.EngineLimits`);
    by default those of the service, with ``auth.login`` steps run by the tools.
    """

    def __init__(
        self,
        *,
        browser_url: str | None = None,
        launch_options: LaunchOptions | None = None,
        limits: EngineLimits | None = None,
    ) -> None:
        if browser_url is not None and launch_options is not None:
            raise TypeError("give either browser_url (attach) or launch_options (launch), not both")
        self.browser_url = browser_url
        self.launch_options = launch_options
        self.limits = limits
        self._browser: Browser | None = None
        self._stack: AsyncExitStack | None = None

    @property
    def browser(self) -> Browser:
        """The browser the audits run on; only inside ``async with``."""
        if self._browser is None:
            raise RuntimeError(
                "the Auditor has no browser: use it as `async with Auditor() as auditor:`"
            )
        return self._browser

    async def __aenter__(self) -> Auditor:
        from .startup import open_browser_at

        if self._stack is not None:
            raise RuntimeError("this Auditor is already open")
        stack = AsyncExitStack()
        try:
            self._browser = await stack.enter_async_context(
                open_browser_at(self.browser_url, self.launch_options)
            )
        except BaseException:
            await stack.aclose()
            raise
        self._stack = stack
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        stack, self._stack, self._browser = self._stack, None, None
        if stack is not None:
            await stack.__aexit__(*exc_info)

    async def audit(self, target: Any = None, /, **fields: Any) -> AuditResult:
        """Audit one request (a URL, a JSON body or an ``AuditRequest``, plus keyword fields).

        Raises :class:`AuditRequestError` for a bad request and
        :class:`audit.failures.AuditFailed` (with its ``code``) when the audit fails."""
        from audit.engine import run_audit

        request = make_request(target, **fields)
        return await run_audit(self.browser, request, self.engine_limits())

    def engine_limits(self) -> EngineLimits:
        """The limits given, or the service's defaults; on an attached browser nothing is
        prepared ahead for audits that may never come."""
        from audit.engine import EngineLimits

        from .login_runner import run_login_steps

        limits = self.limits or EngineLimits(login_runner=run_login_steps)
        if self.browser_url is not None:
            limits = replace(limits, prepare_ahead=False)
        return limits


async def audit(
    target: Any = None,
    /,
    *,
    browser_url: str | None = None,
    launch_options: LaunchOptions | None = None,
    limits: EngineLimits | None = None,
    **fields: Any,
) -> AuditResult:
    """Audit one request on a browser launched for it (killed after it) or attached to at
    ``browser_url``. The request is checked before the browser starts; see :class:`Auditor`."""
    from audit.engine import EngineLimits

    from .login_runner import run_login_steps

    request = make_request(target, **fields)
    if limits is None and browser_url is None:  # the browser serves this one audit (the CLI's way)
        limits = EngineLimits(private_browser=True, login_runner=run_login_steps)
    async with Auditor(
        browser_url=browser_url, launch_options=launch_options, limits=limits
    ) as auditor:
        return await auditor.audit(request)
