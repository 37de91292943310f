"""test_: assertions, verifications, locator generation, selector validation and a report.

The declarations only: what each tool takes, returns and promises. Waiting,
verdicts, the report, locator generation and selector validation are in
``tools.assertions``. The handlers are named for what they do (``assert_text``),
not ``test_*``, which would read as tests; the tool names keep the ``test_``
namespace. Every check returns through ``assertions.report.reported`` so each
run is in ``test_get_report`` until ``test_reset``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ..assertions import checks, locators, report, selectors
from ..assertions.checks import CheckOutput, Verify, VerifyListOutput
from ..models import NoInput, SelectorInput, TimeoutMs, ToolInput, ToolOutput
from ..registry import tool
from ..session import ToolSession

# -- element verifications: one table ------------------------------------------------------


class CheckedInput(ToolInput):
    selector: str = Field(min_length=1, description="CSS selector of the checkbox, radio, option or aria-checked element")
    checked: bool = Field(default=True, description="Expected state: true = checked, false = unchecked")
    timeout_ms: int = TimeoutMs


class ValueInput(ToolInput):
    selector: str = Field(min_length=1, description="CSS selector of the input, textarea, select or contenteditable")
    expected: str = Field(description="Exact value expected")
    timeout_ms: int = TimeoutMs


class TextInput(ToolInput):
    selector: str = Field(min_length=1, description="CSS selector of the element")
    expected: str = Field(description="Text expected (whitespace is normalized)")
    exact: bool = Field(default=False, description="True: the whole text must equal expected; false: contain it")
    timeout_ms: int = TimeoutMs


VERIFY: dict[str, Verify] = {
    "test_assert_element": Verify(
        SelectorInput,
        "(el, a, H) => ({ok: H.visible(el), actual: H.state(el)})",
        lambda a: "exists and is visible",
        """Assert that an element matching the CSS selector exists and is visible, waiting up to
        timeout_ms. Returns passed (false is a normal result, not an error), actual (visible, hidden
        or null when nothing matched) and a message; the check goes into test_get_report.""",
    ),
    "test_verify_visible": Verify(
        SelectorInput,
        "(el, a, H) => ({ok: H.visible(el), actual: H.state(el)})",
        lambda a: "is visible",
        """Verify that the element is visible (rendered with a non-empty box), waiting up to timeout_ms.
        Returns passed, actual (visible, hidden or null when nothing matched) and a message.""",
    ),
    "test_verify_hidden": Verify(
        SelectorInput,
        "(el, a, H) => ({ok: !H.visible(el), actual: H.state(el)})",
        lambda a: "is hidden (or absent)",
        """Verify that the element is hidden or absent, waiting up to timeout_ms for it to disappear.
        Returns passed, actual (visible, hidden or null when nothing matched) and a message.""",
    ),
    "test_verify_enabled": Verify(
        SelectorInput,
        "(el, a, H) => ({ok: !!el && H.enabled(el), actual: el ? (H.enabled(el) ? 'enabled' : 'disabled') : null})",
        lambda a: "is enabled",
        """Verify that the element is enabled (not :disabled, not inside aria-disabled=true), waiting up
        to timeout_ms. Returns passed, actual (enabled, disabled or null) and a message.""",
    ),
    "test_verify_disabled": Verify(
        SelectorInput,
        "(el, a, H) => ({ok: !!el && !H.enabled(el), actual: el ? (H.enabled(el) ? 'enabled' : 'disabled') : null})",
        lambda a: "is disabled",
        """Verify that the element is disabled (:disabled, e.g. inside a disabled fieldset, or
        aria-disabled=true), waiting up to timeout_ms. Returns passed, actual and a message.""",
    ),
    "test_verify_checked": Verify(
        CheckedInput,
        "(el, a, H) => { const s = el ? H.checked(el) : null; return {ok: s === a, actual: s}; }",
        lambda a: "is checked" if a.checked else "is unchecked",
        """Verify that a checkbox, radio, option or aria-checked/pressed/selected element is checked
        (checked=true, default) or unchecked (checked=false), waiting up to timeout_ms. Returns passed,
        actual (checked, unchecked, mixed or null) and a message.""",
        arg=lambda a: "checked" if a.checked else "unchecked",
    ),
    "test_verify_value": Verify(
        ValueInput,
        "(el, a, H) => { const v = el ? H.value(el) : null; return {ok: v === a, actual: v}; }",
        lambda a: f"has value {a.expected!r}",
        """Verify that an input, textarea, select or contenteditable has exactly the expected value,
        waiting up to timeout_ms. Returns passed, actual (the current value, null when nothing
        matched) and a message; a mismatch is passed=false, not an error.""",
        arg=lambda a: a.expected,
    ),
    "test_verify_text": Verify(
        TextInput,
        "(el, a, H) => { if (!el) return {ok: false, actual: null}; const t = H.text(el); const e = H.norm(a.expected);"
        " return {ok: a.exact ? t === e : t.includes(e), actual: t}; }",
        lambda a: f"has text {'equal to' if a.exact else 'containing'} {a.expected!r}",
        """Verify the element's visible text (an input's value): exact=false (default) passes when it
        contains expected, exact=true when it equals it; whitespace is normalized, case counts. Waits up
        to timeout_ms. Returns passed, actual (the text) and a message.""",
        arg=lambda a: {"expected": a.expected, "exact": a.exact},
    ),
}


def _declare_verify(name: str, spec: Verify) -> None:
    async def handler(session: ToolSession, args: Any) -> CheckOutput:
        return await report.reported(session, name, args, checks.verify(session, spec, args))

    tool(name, spec.input, CheckOutput, description=spec.description)(handler)


for _name, _spec in VERIFY.items():
    _declare_verify(_name, _spec)


# -- text on the page ---------------------------------------------------------------------


class AssertTextInput(ToolInput):
    text: str = Field(min_length=1, description="Text that must be visible (whitespace is normalized, case counts)")
    selector: str | None = Field(default=None, min_length=1, description="CSS selector to limit the search to")
    timeout_ms: int = TimeoutMs


@tool("test_assert_text", AssertTextInput, CheckOutput)
async def assert_text(session: ToolSession, args: AssertTextInput) -> CheckOutput:
    """Assert that text is visible on the page, or inside the element given by selector (open shadow
    roots included, hidden text excluded), waiting up to timeout_ms. Returns passed, actual (the
    start of the visible text when it fails) and a message; it goes into test_get_report."""
    check = checks.assert_text(session, args.text, args.selector, args.timeout_ms)
    return await report.reported(session, "test_assert_text", args, check)


class VerifyListInput(ToolInput):
    items: list[str] = Field(min_length=1, description="Texts that must all be visible")
    selector: str | None = Field(default=None, min_length=1, description="CSS selector of the container to search in")
    timeout_ms: int = TimeoutMs


@tool("test_verify_list", VerifyListInput, VerifyListOutput)
async def verify_list(session: ToolSession, args: VerifyListInput) -> VerifyListOutput:
    """Verify that every text in items is visible on the page or inside the selector's element,
    waiting up to timeout_ms for the missing ones. Returns passed, found, missing and a message;
    missing items are a normal passed=false result."""
    check = checks.verify_list(session, args.items, args.selector, args.timeout_ms)
    return await report.reported(session, "test_verify_list", args, check)


# -- URL ----------------------------------------------------------------------------------


class AssertUrlInput(ToolInput):
    pattern: str = Field(min_length=1, description=(
        "URL pattern: /regex/flags (or starting with ^ / ending with $) is a regex; with * or ? a glob "
        "over the whole URL; otherwise a substring"))
    timeout_ms: int = TimeoutMs


@tool("test_assert_url", AssertUrlInput, CheckOutput)
async def assert_url(session: ToolSession, args: AssertUrlInput) -> CheckOutput:
    """Assert that the current tab's URL matches a glob, regex or substring, waiting up to
    timeout_ms (for a redirect or client-side route change). Returns passed, actual (the URL) and a
    message."""
    check = checks.assert_url(session, args.pattern, args.timeout_ms)
    return await report.reported(session, "test_assert_url", args, check)


# -- locator generation -------------------------------------------------------------------

Strategy = Literal["css", "xpath", "testid", "role", "text"]


class GenerateLocatorInput(ToolInput):
    selector: str = Field(min_length=1, description="CSS selector of the element to build a locator for")
    strategy: Strategy = Field(default="css", description="css, xpath, testid (data-testid), role (ARIA role + name) or text")
    timeout_ms: int = TimeoutMs


class GenerateLocatorOutput(ToolOutput):
    locator: str = Field(description=(
        "css: a CSS selector; xpath: an XPath; testid/role/text: Playwright-style getByTestId/getByRole/getByText"))
    strategy: str
    metadata: dict[str, Any] = Field(description=(
        "role, name (accessible name), label, text, tag, id, testid, arguments (the locator fields our "
        "element tools take), alternatives (the other strategies that also resolve uniquely)"))


@tool("test_generate_locator", GenerateLocatorInput, GenerateLocatorOutput)
async def generate_locator(session: ToolSession, args: GenerateLocatorInput) -> GenerateLocatorOutput:
    """Build a robust locator for the element the CSS selector points at, by strategy: css (id,
    attributes, classes, then a short path), xpath, testid (data-testid), role (ARIA role + accessible
    name, from Chrome's accessibility tree) or text. The locator is checked in the page to resolve to
    exactly this one element; when the strategy cannot do that (no data-testid, shared text…) the
    error says why and lists the strategies that work. metadata.arguments are the fields to pass to
    element_* tools."""
    generated = await locators.generate(session, args.selector, args.strategy, args.timeout_ms)
    return GenerateLocatorOutput(locator=generated.locator, strategy=args.strategy, metadata=generated.metadata)


# -- selector validation ------------------------------------------------------------------


class ValidateSelectorsInput(ToolInput):
    selectors: list[str] = Field(min_length=1, max_length=200, description="CSS selectors to check (>>> pierces shadow roots)")


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


@tool("test_validate_selectors", ValidateSelectorsInput, ValidateSelectorsOutput)
async def validate_selectors(session: ToolSession, args: ValidateSelectorsInput) -> ValidateSelectorsOutput:
    """Check a list of CSS selectors against the current page without waiting: for each, whether it is
    valid, how many elements it matches and how many are visible. A selector that matches nothing
    gets suggestions: similar ids, classes, data-testid or name values in the page, already
    substituted into the selector and checked to match."""
    raw = await selectors.validate(session, args.selectors)
    results = [SelectorReport(**item) for item in raw]
    matched = sum(1 for r in results if r.exists)
    broken = [r.selector for r in results if not r.exists]
    message = f"{matched} of {len(results)} selectors match" + (f"; no match: {broken}" if broken else "")
    return ValidateSelectorsOutput(results=results, matched=matched, total=len(results), message=message)


# -- target, report, reset ----------------------------------------------------------------


class SetTargetInput(ToolInput):
    target: str = Field(min_length=1, max_length=2000, description="The system under test, e.g. 'shop checkout, staging'")


class SetTargetOutput(ToolOutput):
    message: str
    target: str


@tool("test_set_target", SetTargetInput, SetTargetOutput)
async def set_target(session: ToolSession, args: SetTargetInput) -> SetTargetOutput:
    """Name the system under test; test_get_report shows it in its header. Results recorded so far
    are kept (call test_reset to start afresh)."""
    report.check_log(session).target = args.target
    return SetTargetOutput(message=f"target set to {args.target!r}", target=args.target)


class ReportInput(ToolInput):
    format: Literal["box", "diagnostic", "json"] = Field(default="box", description=(
        "box: a compact table; diagnostic: every step with its arguments and actual value, failures "
        "first; json: the report as JSON text"))


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


@tool("test_get_report", ReportInput, ReportOutput)
async def get_report(session: ToolSession, args: ReportInput) -> ReportOutput:
    """Report every assertion and verification (test_assert_*, test_verify_*) run since test_reset, for
    the target set with test_set_target: pass/fail counts and each step's tool, verdict, message and
    duration. format: box (compact table, default), diagnostic (arguments and actual values, failures
    first) or json."""
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


@tool("test_reset", NoInput, ResetOutput)
async def reset_report(session: ToolSession, args: NoInput) -> ResetOutput:
    """Clear the recorded assertion and verification results so the next test_get_report starts
    from zero. The target set with test_set_target is kept."""
    log = report.check_log(session)
    cleared = len(log.steps)
    log.steps.clear()
    return ResetOutput(message=f"cleared {cleared} results", cleared=cleared)
