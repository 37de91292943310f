"""The tool-level guard of one session: calls the rules refuse, and errors the rules explain.

Checked in :func:`tools.registry.call` before a handler runs, so ``batch_execute`` steps are
checked like any call:

- ``--no-js-evaluate``: the tools that run the caller's code (``NO_JS_TOOLS``) are refused,
  and so are ``javascript:`` and ``data:`` URLs given to any tool's ``url``;
- any origin rule or ``--block-file-urls``: a tool's ``url`` argument is judged like the
  request it would make (the browser judges it again, with every redirect:
  :mod:`.requests`); tools that load pages or code outside the guarded tabs
  (``OUTSIDE_TOOLS``: extensions, the quality audit's own browser context) are refused.

A navigation the request guard failed (``net::ERR_BLOCKED_BY_CLIENT``, a redirect to a
refused origin, say) is reported as ``blocked_by_policy`` naming the refused origin and rule
rather than as a bare network error.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from ..errors import ToolError
from .confirm import Confirmations, outside_a_call
from .policy import BLOCKED_CODE, GuardConfig, Refusal

if TYPE_CHECKING:
    from ..session import ToolSession

#: Tools that run code the caller wrote: scripts, HTML whose scripts run, responses it makes up
#: (a mocked document or script is code of the caller's in a page of the origin it names).
NO_JS_TOOLS = frozenset({
    "js_evaluate", "js_add_script", "js_init_script", "element_evaluate", "wait_for_function",
    "page_set_content", "cdp_install_extension", "network_route",
})
#: Tools whose pages or code run where the per-tab guard set-up does not reach.
OUTSIDE_TOOLS = frozenset({"cdp_install_extension", "cdp_run_quality_audit"})
_BLOCKED_NETWORK = ("ERR_BLOCKED_BY_CLIENT", "ERR_SOCKS_CONNECTION_FAILED")
REFUSALS_KEPT = 32


def refused(refusal: Refusal, what: str) -> ToolError:
    return ToolError(BLOCKED_CODE, f"{what} refused: {refusal.message}")


class CallGuard:
    """One session's share of the guard rails."""

    def __init__(self, config: GuardConfig) -> None:
        self.config = config
        #: The current call's confirmations (set by the MCP layer for each call).
        self.confirmations: Confirmations = outside_a_call()
        self._documents: deque[Refusal] = deque(maxlen=REFUSALS_KEPT)
        self._proxy_refusals = 0

    def note_refusal(self, refusal: Refusal, *, document: bool) -> None:
        """The request guard refused a request of one of this session's frames."""
        if document:
            self._documents.append(refusal)

    async def check(self, session: ToolSession, name: str, args: dict[str, Any]) -> None:
        """Raise ``blocked_by_policy`` when the rules refuse this call as asked."""
        config = self.config
        if config.no_js_evaluate and name in NO_JS_TOOLS:
            raise ToolError(BLOCKED_CODE, f"{name} refused: --no-js-evaluate turns off running scripts "
                            "the caller writes (js_*, element_evaluate, wait_for_function, page_set_content, "
                            "extensions)")
        if (config.origins_ruled or config.no_js_evaluate) and name in OUTSIDE_TOOLS:
            raise ToolError(BLOCKED_CODE, f"{name} refused: it loads pages or code outside the tabs the "
                            "guard rails (--allowed-origins / --blocked-origins / --no-js-evaluate) cover")
        url = args.get("url")
        if isinstance(url, str) and url:
            verdict = config.navigation_verdict(url.strip())
            if verdict is not None:
                raise refused(verdict, f"{name} to {url[:200]!r}")
        self._documents.clear()
        self._proxy_refusals = _proxy_refusals(session)

    def explain(self, session: ToolSession, error: ToolError) -> ToolError:
        """The rule behind a navigation the guard failed, when it was one."""
        if error.code not in ("navigation_failed", "request_failed") or not any(
                mark in error.message for mark in _BLOCKED_NETWORK):
            return error
        if self._documents:
            refusal = self._documents[-1]
            return ToolError(BLOCKED_CODE, f"{error.message}: {refusal.message} ({refusal.url[:200]})")
        if "ERR_SOCKS_CONNECTION_FAILED" in error.message and _proxy_refusals(session) > self._proxy_refusals:
            return ToolError(BLOCKED_CODE, f"{error.message}: a connection was refused by the origin rules "
                             "(--allowed-origins / --blocked-origins)")
        return error


def _proxy_refusals(session: ToolSession) -> int:
    guard = session.host.browser_guard
    return guard.proxy.refusals if guard is not None and guard.proxy is not None else 0
