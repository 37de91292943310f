"""test_: assertions, verifications, locator generation, selector validation and a report.

The declarations only: what each tool takes, returns and promises. Waiting,
verdicts, the report, locator generation and selector validation are in
``tools.assertions``. The handlers are named for what they do (``assert_text``),
not ``test_*``, which would read as tests; the tool names keep the ``test_``
namespace. Every check returns through ``assertions.report.reported`` so each
run is in ``test_get_report`` until ``test_reset``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ..assertions import checks, report
from ..assertions.checks import CheckOutput, Verify, VerifyListOutput
from ..models import NoInput, SelectorInput, TimeoutMs, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession


# -- element verifications: one table ------------------------------------------------------


class CheckedInput(ToolInput):
    selector: str = Field(min_length=1)
    checked: bool = True
    timeout_ms: int = TimeoutMs


class ValueInput(ToolInput):
    selector: str = Field(min_length=1)
    expected: str
    timeout_ms: int = TimeoutMs


class TextInput(ToolInput):
    selector: str = Field(min_length=1)
    expected: str
    exact: bool = False
    timeout_ms: int = TimeoutMs


VERIFY: dict[str, Verify] = {
    "test_assert_element": Verify(
        SelectorInput,
        "(el, a, H) => ({ok: H.visible(el), actual: H.state(el)})",
        lambda a: "exists and is visible",
        """Assert that an element is visible.""",
    ),
    "test_verify_visible": Verify(
        SelectorInput,
        "(el, a, H) => ({ok: H.visible(el), actual: H.state(el)})",
        lambda a: "is visible",
        """Verify that an element is visible.""",
    ),
    "test_verify_hidden": Verify(
        SelectorInput,
        "(el, a, H) => ({ok: !H.visible(el), actual: H.state(el)})",
        lambda a: "is hidden (or absent)",
        """Verify that an element is hidden or absent.""",
    ),
    "test_verify_enabled": Verify(
        SelectorInput,
        "(el, a, H) => ({ok: !!el && H.enabled(el), actual: el ? (H.enabled(el) ? 'enabled' : 'disabled') : null})",
        lambda a: "is enabled",
        """Verify that an element is enabled.""",
    ),
    "test_verify_disabled": Verify(
        SelectorInput,
        "(el, a, H) => ({ok: !!el && !H.enabled(el), actual: el ? (H.enabled(el) ? 'enabled' : 'disabled') : null})",
        lambda a: "is disabled",
        """Verify that an element is disabled.""",
    ),
    "test_verify_checked": Verify(
        CheckedInput,
        "(el, a, H) => { const s = el ? H.checked(el) : null; return {ok: s === a, actual: s}; }",
        lambda a: "is checked" if a.checked else "is unchecked",
        """Verify that a checkbox, radio or option is checked (or not).""",
        arg=lambda a: "checked" if a.checked else "unchecked",
    ),
    "test_verify_value": Verify(
        ValueInput,
        "(el, a, H) => { const v = el ? H.value(el) : null; return {ok: v === a, actual: v}; }",
        lambda a: f"has value {a.expected!r}",
        """Verify that a field's value is expected.""",
        arg=lambda a: a.expected,
    ),
    "test_verify_text": Verify(
        TextInput,
        "(el, a, H) => { if (!el) return {ok: false, actual: null}; const t = H.text(el); const e = H.norm(a.expected);"
        " return {ok: a.exact ? t === e : t.includes(e), actual: t}; }",
        lambda a: f"has text {'equal to' if a.exact else 'containing'} {a.expected!r}",
        """Verify an element's text contains (or equals) expected.""",
        arg=lambda a: {"expected": a.expected, "exact": a.exact},
    ),
}


def _declare_verify(name: str, spec: Verify) -> None:
    async def handler(session: ToolSession, args: Any) -> CheckOutput:
        return await report.reported(session, name, args, checks.verify(session, spec, args))

    tool(name, spec.input, CheckOutput, description=spec.description, effect="acts")(handler)


for _name, _spec in VERIFY.items():
    _declare_verify(_name, _spec)


# -- text on the page ---------------------------------------------------------------------


class AssertTextInput(ToolInput):
    text: str = Field(min_length=1)
    selector: str | None = Field(default=None, min_length=1)
    timeout_ms: int = TimeoutMs


@tool("test_assert_text", AssertTextInput, CheckOutput, effect="acts")
async def assert_text(session: ToolSession, args: AssertTextInput) -> CheckOutput:
    """Assert that text is visible."""
    check = checks.assert_text(session, args.text, args.selector, args.timeout_ms)
    return await report.reported(session, "test_assert_text", args, check)


class VerifyListInput(ToolInput):
    items: list[str] = Field(min_length=1)
    selector: str | None = Field(default=None, min_length=1)
    timeout_ms: int = TimeoutMs


@tool("test_verify_list", VerifyListInput, VerifyListOutput, effect="acts")
async def verify_list(session: ToolSession, args: VerifyListInput) -> VerifyListOutput:
    """Verify that every text of items is visible."""
    check = checks.verify_list(session, args.items, args.selector, args.timeout_ms)
    return await report.reported(session, "test_verify_list", args, check)


# -- URL ----------------------------------------------------------------------------------


class AssertUrlInput(ToolInput):
    pattern: str = Field(min_length=1)
    timeout_ms: int = TimeoutMs


@tool("test_assert_url", AssertUrlInput, CheckOutput, effect="acts")
async def assert_url(session: ToolSession, args: AssertUrlInput) -> CheckOutput:
    """Assert that the URL matches pattern."""
    check = checks.assert_url(session, args.pattern, args.timeout_ms)
    return await report.reported(session, "test_assert_url", args, check)


# -- locator generation -------------------------------------------------------------------

Strategy = Literal["css", "xpath", "testid", "role", "text"]


class GenerateLocatorInput(ToolInput):
    selector: str = Field(min_length=1)
    strategy: Strategy = "css"
    timeout_ms: int = TimeoutMs


class GenerateLocatorOutput(ToolOutput):
    locator: str = Field(description="css: a CSS selector; xpath: an XPath; testid/role/text: Playwright-style getByTestId/getByRole/getByText")
    strategy: str
    metadata: dict[str, Any] = Field(description=(
        "role, name (accessible name), label, text, tag, id, testid, arguments (the locator fields our "
        "element tools take), alternatives (the other strategies that also resolve uniquely)"))


@tool("test_generate_locator", GenerateLocatorInput, GenerateLocatorOutput, effect="reads")
async def generate_locator(session: ToolSession, args: GenerateLocatorInput) -> GenerateLocatorOutput:
    """Build a robust locator for an element."""
    from ..assertions import locators

    generated = await locators.generate(session, args.selector, args.strategy, args.timeout_ms)
    return GenerateLocatorOutput(locator=generated.locator, strategy=args.strategy, metadata=generated.metadata)


# -- selector validation ------------------------------------------------------------------


class ValidateSelectorsInput(ToolInput):
    selectors: list[str] = Field(min_length=1, max_length=200)


class Suggestion(ToolOutput):
    selector: str = Field(description="An alternative selector that matches in this page")
    count: int = Field(description="Elements it matches")
    reason: str


class SelectorReport(ToolOutput):
    selector: str
    valid: bool = Field(description="False when the selector is not valid CSS")
    exists: bool = Field(description="At least one element matches")
    visible: bool = Field(description="At least one match is visible")
    count: int = Field(description="Elements matched")
    visible_count: int
    error: str | None = Field(description="Syntax error, when invalid")
    suggestions: list[Suggestion] = Field(description="Similar ids, classes, test ids or names, when nothing matched")


class ValidateSelectorsOutput(ToolOutput):
    results: list[SelectorReport]
    matched: int = Field(description="Selectors that match at least one element")
    total: int
    message: str


@tool("test_validate_selectors", ValidateSelectorsInput, ValidateSelectorsOutput, effect="reads")
async def validate_selectors(session: ToolSession, args: ValidateSelectorsInput) -> ValidateSelectorsOutput:
    """Check CSS selectors: valid, matching, visible; suggests fixes."""
    from ..assertions import selectors

    raw = await selectors.validate(session, args.selectors)
    results = [SelectorReport(**item) for item in raw]
    matched = sum(1 for r in results if r.exists)
    broken = [r.selector for r in results if not r.exists]
    message = f"{matched} of {len(results)} selectors match" + (f"; no match: {broken}" if broken else "")
    return ValidateSelectorsOutput(results=results, matched=matched, total=len(results), message=message)


# -- target, report, reset ----------------------------------------------------------------


class SetTargetInput(ToolInput):
    target: str = Field(min_length=1, max_length=2000)


class SetTargetOutput(ToolOutput):
    message: str
    target: str


@tool("test_set_target", SetTargetInput, SetTargetOutput, effect="sets")
async def set_target(session: ToolSession, args: SetTargetInput) -> SetTargetOutput:
    """Name the system under test in the report."""
    report.check_log(session).target = args.target
    return SetTargetOutput(message=f"target set to {args.target!r}", target=args.target)


class ReportInput(ToolInput):
    format: Literal["box", "diagnostic", "json"] = "box"


class ReportStep(ToolOutput):
    tool: str
    passed: bool
    message: str
    duration_ms: int
    args: dict[str, Any] = Field(description="The check's arguments (defaults left out)")
    actual: Any = Field(description="What was found, when the check reports it")
    timestamp: str


class ReportOutput(ToolOutput):
    target: str = Field(description="The system under test, from test_set_target")
    total: int
    passed: int
    failed: int
    steps: list[ReportStep] = Field(description="Every assertion and verification since test_reset, in order")
    format: str
    report: str = Field(description="The report rendered in the requested format")


@tool("test_get_report", ReportInput, ReportOutput, effect="reads")
async def get_report(session: ToolSession, args: ReportInput) -> ReportOutput:
    """Report the checks since test_reset."""
    log = report.check_log(session)
    steps = list(log.steps)
    passed = sum(1 for s in steps if s["passed"])
    failed = len(steps) - passed
    text = report.render(args.format, log.target, steps, passed, failed)
    return ReportOutput(target=log.target, total=len(steps), passed=passed, failed=failed,
                        steps=[ReportStep(**s) for s in steps], format=args.format, report=text)


class ResetOutput(ToolOutput):
    message: str
    cleared: int = Field(description="Results removed")


@tool("test_reset", NoInput, ResetOutput, effect="deletes")
async def reset_report(session: ToolSession, args: NoInput) -> ResetOutput:
    """Clear the recorded checks."""
    log = report.check_log(session)
    cleared = len(log.steps)
    log.steps.clear()
    return ResetOutput(message=f"cleared {cleared} results", cleared=cleared)
