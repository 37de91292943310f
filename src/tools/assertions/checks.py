"""From what a check saw to its verdict: passed or not, the actual value, a message that says why.

Every element check is a page-side condition ``(el, arg, H) => {ok, actual}``
waited for by ``polling``; the verdict's wording is built here once, so all
checks phrase success and failure the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import Field

from ..models import ToolInput, ToolOutput
from .urls import url_matches

if TYPE_CHECKING:
    from ..session import ToolSession


class CheckOutput(ToolOutput):
    passed: bool = Field(description="True when the condition held within timeout_ms")
    actual: str | None = Field(description="What was actually found (state, value or text); null when nothing matched")
    message: str = Field(description="The verdict in words, with the actual value on failure")


class VerifyListOutput(ToolOutput):
    passed: bool = Field(description="True when every item was found")
    found: list[str]
    missing: list[str]
    message: str


@dataclass(frozen=True)
class Verify:
    """One element check: its input, the page-side condition, and how to say what was expected."""

    input: type[ToolInput]
    condition: str  # JS (el, arg, H) => {ok, actual}
    expected: Callable[[Any], str]  # "is visible", "has value 'x'"
    description: str
    arg: Callable[[Any], Any] = lambda args: None


async def verify(session: ToolSession, spec: Verify, args: Any) -> CheckOutput:
    """Wait for ``spec``'s condition on the element of ``args.selector`` and judge the outcome."""
    from .polling import wait_for

    result = await wait_for(session, args.selector, spec.condition, spec.arg(args), args.timeout_ms)
    return _verdict(args.selector, spec.expected(args), result, args.timeout_ms)


def _verdict(selector: str, expected: str, result: dict[str, Any], timeout_ms: int) -> CheckOutput:
    from .polling import clip

    actual = clip(result.get("actual"))
    subject = f"{selector!r}"
    if result.get("ok"):
        return CheckOutput(passed=True, actual=actual, message=f"passed: {subject} {expected}")
    seen = "it matched no element" if actual is None else f"actual: {actual!r}"
    return CheckOutput(passed=False, actual=actual,
                       message=f"failed: {subject} should {_infinitive(expected)} (waited {timeout_ms} ms); {seen}")


def _infinitive(phrase: str) -> str:
    """'is visible' -> 'be visible', 'has value …' -> 'have value …', 'exists and is …' -> 'exist and be …'."""
    verbs = {"is": "be", "has": "have", "exists and is": "exist and be"}
    return re.sub(r"^(exists and is|is|has)\b", lambda m: verbs[m.group(1)], phrase)


# -- text on the page -----------------------------------------------------------------------


async def _text_in_scope(session: ToolSession, selector: str | None, items: list[str],
                         timeout_ms: int) -> dict[str, Any]:
    """Wait until every text of ``items`` is visible in the selector's element (the page when None).

    The result has ``found``, ``missing``, ``otherCase`` (missing only by letter case)
    and ``actual``, the visible text (None when the selector matched nothing).
    """
    from cdpdriver.scripts import load_script

    from .polling import wait_for

    return await wait_for(session, selector, load_script("tools", "text_in_scope"), items, timeout_ms)


def _scope(selector: str | None) -> str:
    return f"element {selector!r}" if selector else "the page"


async def assert_text(session: ToolSession, text: str, selector: str | None, timeout_ms: int) -> CheckOutput:
    """``text`` is visible in the selector's element (or the page) within ``timeout_ms``."""
    from .polling import clip

    result = await _text_in_scope(session, selector, [text], timeout_ms)
    where = _scope(selector)
    if result.get("ok"):
        return CheckOutput(passed=True, actual=None, message=f"passed: {text!r} is visible in {where}")
    actual = clip(result.get("actual"))
    if actual is None:
        return CheckOutput(passed=False, actual=None, message=f"failed: {where} matched no element")
    hint = " (it appears with different letter case)" if result.get("otherCase") else ""
    return CheckOutput(passed=False, actual=actual, message=(
        f"failed: {text!r} is not visible in {where} within {timeout_ms} ms{hint}"))


async def verify_list(session: ToolSession, items: list[str], selector: str | None,
                      timeout_ms: int) -> VerifyListOutput:
    """Every text of ``items`` is visible in the selector's element (or the page) within ``timeout_ms``."""
    result = await _text_in_scope(session, selector, items, timeout_ms)
    found = list(result.get("found") or [])
    missing = list(result["missing"]) if "missing" in result else list(items)
    where = _scope(selector)
    if result.get("actual") is None:
        message = f"failed: {where} matched no element"
    elif not missing:
        message = f"passed: all {len(found)} items are visible in {where}"
    else:
        message = f"failed: {len(missing)} of {len(items)} items missing from {where}: {missing}"
        if result.get("otherCase"):
            message += f" ({result['otherCase']} appear with different letter case)"
    return VerifyListOutput(passed=not missing and result.get("actual") is not None, found=found,
                            missing=missing, message=message)


# -- URL --------------------------------------------------------------------------------------


async def assert_url(session: ToolSession, pattern: str, timeout_ms: int) -> CheckOutput:
    """The current tab's URL matches ``pattern`` within ``timeout_ms`` (redirects, client routes)."""
    from .polling import poll

    url_matches(pattern, "")  # a bad regex is invalid_arguments before any waiting
    tab = await session.tab()

    async def probe() -> dict[str, Any]:
        url = await tab.url()
        return {"ok": url_matches(pattern, url), "actual": url}

    result = await poll(probe, timeout_ms)
    if result["ok"]:
        return CheckOutput(passed=True, actual=result["actual"], message=f"passed: URL matches {pattern!r}")
    return CheckOutput(passed=False, actual=result["actual"], message=(
        f"failed: URL {result['actual']!r} does not match {pattern!r} after {timeout_ms} ms"))
