"""test_: assertions, verifications, locator generation, selector validation and a report.

A failed check is a normal result (``passed: false`` with what was actually
seen), never a tool error: an agent testing a page needs the verdict, not an
exception. Every check waits up to ``timeout_ms`` for its condition, polling
from Python so a navigation in the middle of the wait is survived, and every
check is logged for ``test_get_report`` until ``test_reset``.

The element verifications are one table (condition JS plus the phrase that
describes the expected state) driven by one polling helper.
"""

from __future__ import annotations

import fnmatch
import functools
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

import trio
from pydantic import Field

from cdpdriver import CDPError, JavaScriptError

from .. import locate
from ..errors import ToolError, from_exception
from ..locate_js import LOCATE_FUNCTION
from ..models import NoInput, SelectorInput, TimeoutMs, ToolInput, ToolOutput
from ..registry import tool
from ..session import ToolSession

POLL_FIRST_S = 0.02
POLL_MAX_S = 0.1
ACTUAL_MAX = 500

# -- URL patterns (shared with workflow_login) ----------------------------------------------


def url_matches(pattern: str, url: str) -> bool:
    """``/body/flags`` or ``^…``/``…$`` is a regex (searched); ``*`` or ``?`` makes a glob over the
    whole URL (``*`` crosses slashes); anything else matches as a substring."""
    regex = _as_regex(pattern)
    if regex is not None:
        return regex.search(url) is not None
    if "*" in pattern or "?" in pattern:
        return fnmatch.fnmatchcase(url, pattern)
    return pattern in url


def _as_regex(pattern: str) -> re.Pattern[str] | None:
    literal = re.fullmatch(r"/(.+)/([imsx]*)", pattern)
    body, flags = (literal.group(1), literal.group(2)) if literal else (pattern, "")
    if not literal and not pattern.startswith("^") and not pattern.endswith("$"):
        return None
    bits = 0
    for flag in flags:
        bits |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X}[flag]
    try:
        return re.compile(body, bits)
    except re.error as exc:
        raise ToolError("invalid_arguments", f"pattern {pattern!r} is not a valid regex: {exc}") from None


# -- the check log behind test_get_report -----------------------------------------------


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class CheckLog:
    target: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)

    def add(self, tool_name: str, passed: bool, message: str, duration_ms: float,
            args: dict[str, Any], actual: Any = None) -> None:
        self.steps.append({
            "tool": tool_name, "passed": passed, "message": message,
            "duration_ms": int(round(duration_ms)), "args": args, "actual": actual, "timestamp": _now(),
        })


def check_log(session: ToolSession) -> CheckLog:
    return session.state("test", CheckLog)


def checked(name: str, input_model: type[ToolInput], output_model: type[ToolOutput]) -> Callable[[Any], Any]:
    """Declare a check tool whose every run, passed, failed or errored, goes into the report."""

    def register(handler: Any) -> Any:
        @functools.wraps(handler)
        async def logged(session: ToolSession, args: Any) -> Any:
            started = time.perf_counter()
            summary = args.model_dump(exclude_defaults=True)
            try:
                result = await handler(session, args)
            except Exception as exc:
                error = from_exception(exc)
                check_log(session).add(name, False, f"{error.code}: {error.message}",
                                      (time.perf_counter() - started) * 1000, summary)
                raise
            actual = result.actual if hasattr(result, "actual") else result.model_dump(exclude={"passed", "message"})
            check_log(session).add(name, result.passed, result.message, (time.perf_counter() - started) * 1000,
                                  summary, actual)
            return result

        return tool(name, input_model, output_model)(logged)

    return register


# -- polling ------------------------------------------------------------------------------


_context_lost = locate.context_lost


async def poll(probe: Callable[[], Awaitable[dict[str, Any]]], timeout_ms: int) -> dict[str, Any]:
    """Run ``probe`` until it reports ``ok`` or the time is up; the last result either way.

    A probe that lands in the middle of a navigation (context destroyed) counts as
    "not yet" rather than an error.
    """
    deadline = trio.current_time() + timeout_ms / 1000
    delay = POLL_FIRST_S
    while True:
        try:
            result = await probe()
        except (CDPError, JavaScriptError) as exc:
            if not _context_lost(exc):
                raise
            result = {"ok": False, "actual": None, "navigating": True}
        left = deadline - trio.current_time()
        if result.get("ok") or left <= 0:
            return result
        await trio.sleep(min(delay, left))
        delay = min(delay * 2, POLL_MAX_S)


# Helpers shared by every page-side condition, passed to it as ``H``.
HELPERS_JS = r"""
(() => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const visible = (el) => {
    if (!el || !el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const enabled = (el) => !(el.matches(':disabled') || el.closest('[aria-disabled="true"]'));
  const isField = (el) => el.matches('input, textarea, select');
  const deepText = (root) => {
    let text = root.innerText !== undefined ? root.innerText : root.textContent;
    for (const host of root.querySelectorAll('*')) {
      if (host.shadowRoot) for (const child of host.shadowRoot.children) text += '\n' + deepText(child);
    }
    return text || '';
  };
  const text = (el) => norm(isField(el) ? el.value : deepText(el));
  const value = (el) => {
    if (isField(el)) return el.value;
    if (el.isContentEditable) return el.innerText;
    return el.getAttribute('aria-valuenow') ?? el.getAttribute('value') ?? '';
  };
  const checked = (el) => {
    if (el.matches('input[type=checkbox], input[type=radio]')) return el.indeterminate ? 'mixed' : (el.checked ? 'checked' : 'unchecked');
    if (el.localName === 'option') return el.selected ? 'checked' : 'unchecked';
    const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed') ?? el.getAttribute('aria-selected');
    return aria === 'true' ? 'checked' : aria === 'mixed' ? 'mixed' : 'unchecked';
  };
  const state = (el) => !el ? null : visible(el) ? 'visible' : 'hidden';
  return {norm, visible, enabled, text, deepText, value, checked, state};
})()
"""

# The probe: locate (CSS with >>>, first visible match, no waiting), then run the condition.
PROBE_JS = """
(async (loc, condition, arg) => {
  let el = null;
  if (loc) {
    try {
      el = await (__LOCATE__)(loc, 'attached', 0, {scroll: false, visibleFirst: true});
    } catch (e) {
      let info = null;
      try { info = JSON.parse(e.message); } catch (_) { throw e; }
      if (info.code !== 'element_not_found') throw new Error('invalid selector: ' + info.message);
    }
  } else {
    el = document.body || document.documentElement;
  }
  return condition(el, arg, __HELPERS__);
})
""".replace("__LOCATE__", LOCATE_FUNCTION.strip()).replace("__HELPERS__", HELPERS_JS.strip())


async def probe_once(session: ToolSession, selector: str | None, condition: str, arg: Any) -> dict[str, Any]:
    """One run of ``condition(el, arg, H)`` in the current frame; el is null when nothing matches."""
    loc = {"kind": "css", "value": selector, "name": None} if selector else None
    try:
        return await locate.evaluate(
            session, f"{PROBE_JS}({json.dumps(loc)}, {condition}, {json.dumps(arg)})", timeout=30)
    except JavaScriptError as exc:
        if "invalid selector" in str(exc):
            reason = str(exc).split("bad locator: ")[-1]
            raise ToolError("invalid_arguments", f"selector {selector!r} is not valid CSS: {reason}") from None
        raise


async def wait_for(session: ToolSession, selector: str | None, condition: str, arg: Any,
                   timeout_ms: int) -> dict[str, Any]:
    return await poll(lambda: probe_once(session, selector, condition, arg), timeout_ms)


def _clip(value: Any) -> Any:
    if isinstance(value, str) and len(value) > ACTUAL_MAX:
        return value[:ACTUAL_MAX] + "…"
    return value


# -- element verifications: one table ------------------------------------------------------


class CheckOutput(ToolOutput):
    passed: bool = Field(description="True when the condition held within timeout_ms")
    actual: str | None = Field(description="What was actually found (state, value or text); null when nothing matched")
    message: str = Field(description="The verdict in words, with the actual value on failure")


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


@dataclass(frozen=True)
class Verify:
    """One element check: its input, the page-side condition, and how to say what was expected."""

    input: type[ToolInput]
    condition: str  # JS (el, arg, H) => {ok, actual}
    expected: Callable[[Any], str]  # "is visible", "has value 'x'"
    doc: str
    arg: Callable[[Any], Any] = lambda args: None


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


def _verdict(selector: str, expected: str, result: dict[str, Any], timeout_ms: int) -> CheckOutput:
    actual = _clip(result.get("actual"))
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


def _register_verify(name: str, spec: Verify) -> None:
    async def handler(session: ToolSession, args: Any) -> CheckOutput:
        result = await wait_for(session, args.selector, spec.condition, spec.arg(args), args.timeout_ms)
        return _verdict(args.selector, spec.expected(args), result, args.timeout_ms)

    handler.__name__ = name
    handler.__doc__ = spec.doc
    checked(name, spec.input, CheckOutput)(handler)


for _name, _spec in VERIFY.items():
    _register_verify(_name, _spec)


# -- text on the page ---------------------------------------------------------------------


TEXT_IN_SCOPE_JS = """(el, items, H) => {
  if (!el) return {ok: false, actual: null, found: [], missing: items};
  const text = H.norm(H.deepText(el));
  const found = items.filter((t) => text.includes(H.norm(t)));
  const missing = items.filter((t) => !text.includes(H.norm(t)));
  const lower = text.toLowerCase();
  const otherCase = missing.filter((t) => lower.includes(H.norm(t).toLowerCase()));
  return {ok: missing.length === 0, actual: text, found, missing, otherCase};
}"""


async def _text_in_scope(session: ToolSession, selector: str | None, items: list[str],
                         timeout_ms: int) -> dict[str, Any]:
    return await wait_for(session, selector, TEXT_IN_SCOPE_JS, items, timeout_ms)


def _scope(selector: str | None) -> str:
    return f"element {selector!r}" if selector else "the page"


class AssertTextInput(ToolInput):
    text: str = Field(min_length=1, description="Text that must be visible (whitespace is normalized, case counts)")
    selector: str | None = Field(default=None, min_length=1, description="CSS selector to limit the search to")
    timeout_ms: int = TimeoutMs


@checked("test_assert_text", AssertTextInput, CheckOutput)
async def test_assert_text(session: ToolSession, args: AssertTextInput) -> CheckOutput:
    """Assert that text is visible on the page, or inside the element given by selector (open shadow
    roots included, hidden text excluded), waiting up to timeout_ms. Returns passed, actual (the
    start of the visible text when it fails) and a message; it goes into test_get_report."""
    result = await _text_in_scope(session, args.selector, [args.text], args.timeout_ms)
    where = _scope(args.selector)
    if result.get("ok"):
        return CheckOutput(passed=True, actual=None, message=f"passed: {args.text!r} is visible in {where}")
    actual = _clip(result.get("actual"))
    if actual is None:
        return CheckOutput(passed=False, actual=None, message=f"failed: {where} matched no element")
    hint = " (it appears with different letter case)" if result.get("otherCase") else ""
    return CheckOutput(passed=False, actual=actual, message=(
        f"failed: {args.text!r} is not visible in {where} within {args.timeout_ms} ms{hint}"))


class VerifyListInput(ToolInput):
    items: list[str] = Field(min_length=1, description="Texts that must all be visible")
    selector: str | None = Field(default=None, min_length=1, description="CSS selector of the container to search in")
    timeout_ms: int = TimeoutMs


class VerifyListOutput(ToolOutput):
    passed: bool = Field(description="True when every item was found")
    found: list[str]
    missing: list[str]
    message: str


@checked("test_verify_list", VerifyListInput, VerifyListOutput)
async def test_verify_list(session: ToolSession, args: VerifyListInput) -> VerifyListOutput:
    """Verify that every text in items is visible on the page or inside the selector's element,
    waiting up to timeout_ms for the missing ones. Returns passed, found, missing and a message;
    missing items are a normal passed=false result."""
    result = await _text_in_scope(session, args.selector, args.items, args.timeout_ms)
    found = list(result.get("found") or [])
    missing = list(result["missing"]) if "missing" in result else list(args.items)
    where = _scope(args.selector)
    if result.get("actual") is None:
        message = f"failed: {where} matched no element"
    elif not missing:
        message = f"passed: all {len(found)} items are visible in {where}"
    else:
        message = f"failed: {len(missing)} of {len(args.items)} items missing from {where}: {missing}"
        if result.get("otherCase"):
            message += f" ({result['otherCase']} appear with different letter case)"
    return VerifyListOutput(passed=not missing and result.get("actual") is not None, found=found,
                            missing=missing, message=message)


# -- URL ----------------------------------------------------------------------------------


class AssertUrlInput(ToolInput):
    pattern: str = Field(min_length=1, description=(
        "URL pattern: /regex/flags (or starting with ^ / ending with $) is a regex; with * or ? a glob "
        "over the whole URL; otherwise a substring"))
    timeout_ms: int = TimeoutMs


@checked("test_assert_url", AssertUrlInput, CheckOutput)
async def test_assert_url(session: ToolSession, args: AssertUrlInput) -> CheckOutput:
    """Assert that the current tab's URL matches a glob, regex or substring, waiting up to
    timeout_ms (for a redirect or client-side route change). Returns passed, actual (the URL) and a
    message."""
    url_matches(args.pattern, "")  # a bad regex is invalid_arguments before any waiting
    tab = await session.tab()

    async def probe() -> dict[str, Any]:
        url = await tab.url()
        return {"ok": url_matches(args.pattern, url), "actual": url}

    result = await poll(probe, args.timeout_ms)
    if result["ok"]:
        return CheckOutput(passed=True, actual=result["actual"], message=f"passed: URL matches {args.pattern!r}")
    return CheckOutput(passed=False, actual=result["actual"], message=(
        f"failed: URL {result['actual']!r} does not match {args.pattern!r} after {args.timeout_ms} ms"))


# -- locator generation -------------------------------------------------------------------

Strategy = Literal["css", "xpath", "testid", "role", "text"]

# Runs with this = the element; returns every strategy's candidate with the page's own
# uniqueness check (exactly one match, and it is this element), plus descriptive metadata.
CANDIDATES_JS = r"""
function () {
  const el = this;
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const low = (s) => norm(s).toLowerCase();
  const deepAll = (root) => {
    const out = [];
    const walk = (node) => { for (const e of node.querySelectorAll('*')) { out.push(e); if (e.shadowRoot) walk(e.shadowRoot); } };
    walk(root);
    return out;
  };
  const quote = (v) => '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ') + '"';
  const uniqueIn = (scope, sel, target) => {
    try { const l = scope.querySelectorAll(sel); return l.length === 1 && l[0] === target; } catch (e) { return false; }
  };
  const step = (node) => {
    let s = CSS.escape(node.localName);
    const parent = node.parentElement || node.parentNode;
    if (parent && parent.children) {
      const same = [...parent.children].filter((c) => c.localName === node.localName);
      if (same.length > 1) s += ':nth-of-type(' + (same.indexOf(node) + 1) + ')';
    }
    return s;
  };
  const ATTRS = ['data-testid', 'data-test', 'data-qa', 'name', 'aria-label', 'placeholder', 'title', 'alt', 'for', 'href', 'type'];
  const cssIn = (target, scope) => {
    const tag = CSS.escape(target.localName);
    const cands = [];
    if (target.id) cands.push('#' + CSS.escape(target.id));
    for (const a of ATTRS) if (target.hasAttribute(a)) cands.push(tag + '[' + a + '=' + quote(target.getAttribute(a)) + ']');
    for (const c of target.classList) cands.push(tag + '.' + CSS.escape(c));
    for (const c of cands) if (uniqueIn(scope, c, target)) return c;
    const path = [];
    for (let node = target; node && node.nodeType === 1; node = node.parentElement) {
      if (node !== target && node.id && uniqueIn(scope, '#' + CSS.escape(node.id), node)) { path.unshift('#' + CSS.escape(node.id)); }
      else path.unshift(step(node));
      const sel = path.join(' > ');
      if (uniqueIn(scope, sel, target)) return sel;
      if (path[0].startsWith('#')) break;
    }
    return null;
  };
  const cssPath = (target) => {
    const root = target.getRootNode();
    const inner = cssIn(target, root);
    if (!inner) return null;
    if (root instanceof ShadowRoot) { const host = cssPath(root.host); return host ? host + ' >>> ' + inner : null; }
    return inner;
  };
  const lit = (v) => !v.includes("'") ? "'" + v + "'" : !v.includes('"') ? '"' + v + '"'
    : 'concat(' + v.split("'").map((p) => "'" + p + "'").join(", \"'\", ") + ')';
  const xcount = (x) => {
    try { const r = document.evaluate(x, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null); return r.snapshotLength === 1 && r.snapshotItem(0) === el; } catch (e) { return false; }
  };
  const xname = (n) => n.namespaceURI === 'http://www.w3.org/1999/xhtml' ? n.localName : "*[local-name()='" + n.localName + "']";
  const xpath = () => {
    if (el.getRootNode() !== document) return null;
    const t = xname(el);
    const cands = [];
    if (el.id) cands.push('//' + t + '[@id=' + lit(el.id) + ']');
    for (const a of ['data-testid', 'name', 'aria-label', 'placeholder']) if (el.hasAttribute(a)) cands.push('//' + t + '[@' + a + '=' + lit(el.getAttribute(a)) + ']');
    const own = norm(el.textContent);
    if (own && own.length <= 80) cands.push('//' + t + '[normalize-space(.)=' + lit(own) + ']');
    for (const c of cands) if (xcount(c)) return c;
    const parts = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const same = n.parentElement ? [...n.parentElement.children].filter((c) => c.localName === n.localName) : [n];
      parts.unshift(xname(n) + (same.length > 1 ? '[' + (same.indexOf(n) + 1) + ']' : ''));
    }
    const abs = '/' + parts.join('/');
    return xcount(abs) ? abs : null;
  };
  const testid = () => {
    const v = el.getAttribute('data-testid');
    if (v === null) return {error: 'the element has no data-testid attribute'};
    const n = deepAll(document).filter((e) => e.getAttribute('data-testid') === v).length;
    return n === 1 ? {value: v} : {error: n + ' elements share data-testid ' + quote(v)};
  };
  const SKIP = new Set(['script', 'style', 'head', 'noscript', 'template', 'title']);
  const text = () => {
    const t = norm(el.innerText);
    if (!t) return {error: 'the element has no visible text'};
    if (t.length > 120) return {error: 'the element text is too long for a text locator (' + t.length + ' characters)'};
    const all = deepAll(document.body || document).filter((e) => !SKIP.has(e.localName) && low(e.innerText).includes(low(t)));
    const leaves = all.filter((e) => !all.some((o) => o !== e && e.contains(o)));
    const exact = leaves.filter((e) => low(e.innerText) === low(t));
    if (exact.length === 1 && exact[0] === el) return {value: t};
    if (exact.length === 1) return {error: 'its text ' + quote(t) + ' resolves to a descendant <' + exact[0].localName + '>, not the element itself'};
    return {error: exact.length + ' elements have the text ' + quote(t)};
  };
  const labelOf = () => {
    if (el.getAttribute('aria-label')) return norm(el.getAttribute('aria-label'));
    if (el.labels && el.labels.length) return norm([...el.labels].map((l) => l.innerText).join(' '));
    return null;
  };
  const c = cssPath(el);
  return {
    css: c ? {value: c} : {error: 'no unique CSS path found'},
    xpath: (() => { const x = xpath(); return x ? {value: x} : {error: el.getRootNode() !== document ? 'the element is inside a shadow root, which XPath cannot reach' : 'no unique XPath found'}; })(),
    testid: testid(),
    text: text(),
    meta: {tag: el.localName, id: el.id || null, testid: el.getAttribute('data-testid'), label: labelOf(),
           text: norm(el.innerText).slice(0, 200) || null, classes: [...el.classList]},
  };
}
"""

IGNORED_ROLES = {"generic", "none", "presentation", "StaticText", "InlineTextBox", "LineBreak", ""}


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


def _locator_string(strategy: str, value: str, name: str | None = None) -> str:
    if strategy == "testid":
        return f"getByTestId({json.dumps(value)})"
    if strategy == "text":
        return f"getByText({json.dumps(value)}, {{ exact: true }})"
    if strategy == "role":
        return f"getByRole({json.dumps(value)}, {{ name: {json.dumps(name)}, exact: true }})" if name \
            else f"getByRole({json.dumps(value)})"
    return value


def _tool_arguments(strategy: str, value: str, name: str | None = None) -> dict[str, Any]:
    if strategy == "css":
        return {"selector": value}
    if strategy == "role":
        return {"role": value, "name": name} if name else {"role": value}
    return {strategy: value}


async def _role_candidate(element: locate.Element) -> tuple[dict[str, Any], str | None, str | None]:
    """Role and accessible name from Chrome's accessibility tree, and whether exactly this element has them."""
    send = element.session.send
    backend = (await send("DOM.describeNode", {"objectId": element.object_id}))["node"]["backendNodeId"]
    nodes = (await send("Accessibility.getPartialAXTree", {"objectId": element.object_id, "fetchRelatives": False}))["nodes"]
    node = next((n for n in nodes if n.get("backendDOMNodeId") == backend), nodes[0] if nodes else {})
    role = str((node.get("role") or {}).get("value") or "")
    name = str((node.get("name") or {}).get("value") or "") or None
    if node.get("ignored") or role in IGNORED_ROLES:
        return {"error": f"the element has no ARIA role (Chrome computes {role or 'none'!r})"}, None, None
    document = await element.call("function () { return this.ownerDocument; }", by_value=False)
    query: dict[str, Any] = {"objectId": document["objectId"], "role": role}
    if name:
        query["accessibleName"] = name
    matches = [n for n in (await send("Accessibility.queryAXTree", query))["nodes"] if not n.get("ignored")]
    if len(matches) == 1 and matches[0].get("backendDOMNodeId") == backend:
        return {"value": role, "name": name}, role, name
    what = f"role {role!r}" + (f" named {name!r}" if name else " without a name")
    return {"error": f"{len(matches)} elements have {what}"}, role, name


async def _same_element(session: ToolSession, element: locate.Element, args: dict[str, Any]) -> bool:
    """Does our own locator engine (what element tools use) resolve the arguments to this element?"""
    kind, value = next((k, v) for k, v in args.items() if k != "name")
    loc = {"kind": "css" if kind == "selector" else kind, "value": value, "name": args.get("name")}
    try:
        found = await locate.find(session, loc, state="attached", timeout_ms=0, scroll=False)
    except ToolError:
        return False
    if found is None or found.session is not element.session:
        return False
    reply = await element.session.send("Runtime.callFunctionOn", {
        "functionDeclaration": "function (other) { return this === other; }",
        "objectId": element.object_id, "arguments": [{"objectId": found.object_id}], "returnByValue": True,
    })
    return bool((reply.get("result") or {}).get("value"))


@tool("test_generate_locator", GenerateLocatorInput, GenerateLocatorOutput)
async def test_generate_locator(session: ToolSession, args: GenerateLocatorInput) -> GenerateLocatorOutput:
    """Build a robust locator for the element the CSS selector points at, by strategy: css (id,
    attributes, classes, then a short path), xpath, testid (data-testid), role (ARIA role + accessible
    name, from Chrome's accessibility tree) or text. The locator is checked in the page to resolve to
    exactly this one element; when the strategy cannot do that (no data-testid, shared text…) the
    error says why and lists the strategies that work. metadata.arguments are the fields to pass to
    element_* tools."""
    element = await locate.element(session, args.selector, args.timeout_ms, state="attached")
    candidates = await element.call(CANDIDATES_JS)
    candidates["role"], role, name = await _role_candidate(element)
    meta = {**candidates.pop("meta"), "role": role, "name": name}
    working: dict[str, str] = {}
    for strategy in ("css", "xpath", "testid", "role", "text"):
        found = candidates[strategy]
        if "value" not in found:
            continue
        tool_args = _tool_arguments(strategy, found["value"], found.get("name"))
        if not await _same_element(session, element, tool_args):
            candidates[strategy] = {"error": "the element tools' locator engine resolves it to another element"}
            continue
        working[strategy] = _locator_string(strategy, found["value"], found.get("name"))
    chosen = candidates[args.strategy]
    if "value" not in chosen:
        others = "; ".join(f"{k}: {v}" for k, v in working.items()) or "none"
        raise ToolError("not_found", (
            f"no unique {args.strategy} locator for {args.selector!r}: {chosen['error']}. "
            f"Strategies that work: {others}"))
    meta["arguments"] = _tool_arguments(args.strategy, chosen["value"], chosen.get("name"))
    meta["alternatives"] = {k: v for k, v in working.items() if k != args.strategy}
    return GenerateLocatorOutput(locator=working[args.strategy], strategy=args.strategy, metadata=meta)


# -- selector validation ------------------------------------------------------------------

# For each selector: syntax, matches, visible matches, and (when it matches nothing) similar
# ids / classes / test ids / names in the page, each substituted into the selector and checked.
VALIDATE_JS = r"""
(selectors) => {
  const deepAll = (root) => {
    const out = [];
    const walk = (node) => { for (const e of node.querySelectorAll('*')) { out.push(e); if (e.shadowRoot) walk(e.shadowRoot); } };
    walk(root);
    return out;
  };
  const query = (selector) => {
    const hops = selector.split(/\s*>>>\s*/);
    let roots = [document], found = [];
    hops.forEach((hop, i) => {
      found = [];
      for (const root of roots) found.push(...root.querySelectorAll(hop));
      if (i < hops.length - 1) roots = found.map((e) => e.shadowRoot || e.contentDocument).filter(Boolean);
    });
    return found;
  };
  const visible = (el) => {
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  let inventory = null;
  const inventoryOf = () => {
    if (inventory) return inventory;
    inventory = {id: new Set(), class: new Set(), testid: new Set(), name: new Set()};
    for (const e of deepAll(document)) {
      if (e.id) inventory.id.add(e.id);
      for (const c of e.classList) inventory.class.add(c);
      if (e.getAttribute('data-testid')) inventory.testid.add(e.getAttribute('data-testid'));
      if (e.getAttribute('name')) inventory.name.add(e.getAttribute('name'));
    }
    return inventory;
  };
  const lev = (a, b) => {
    const d = Array.from({length: b.length + 1}, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = d[0]; d[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const tmp = d[j];
        d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = tmp;
      }
    }
    return d[b.length];
  };
  const squash = (s) => s.toLowerCase().replace(/[-_\s]/g, '');
  const similarity = (want, have) => {
    if (want === have) return 0;
    if (squash(want) === squash(have)) return 1;
    const distance = lev(want.toLowerCase(), have.toLowerCase());
    if (distance <= Math.max(1, Math.floor(want.length / 4))) return 1 + distance;
    if (want.length >= 3 && have.length >= 3 && (have.toLowerCase().includes(want.toLowerCase()) || want.toLowerCase().includes(have.toLowerCase()))) return 5;
    return null;
  };
  const quote = (v) => '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
  const render = {id: (v) => '#' + CSS.escape(v), class: (v) => '.' + CSS.escape(v),
                  testid: (v) => '[data-testid=' + quote(v) + ']', name: (v) => '[name=' + quote(v) + ']'};
  const TOKENS = [
    [/#((?:\\.|[\w-])+)/g, 'id'],
    [/\.((?:\\.|[\w-])+)/g, 'class'],
    [/\[\s*data-testid\s*=\s*["']?([^"'\]]+)["']?\s*\]/g, 'testid'],
    [/\[\s*name\s*=\s*["']?([^"'\]]+)["']?\s*\]/g, 'name'],
  ];
  const suggest = (selector) => {
    const out = [];
    const seen = new Set();
    for (const [re, kind] of TOKENS) {
      for (const m of selector.matchAll(re)) {
        const want = m[1].replace(/\\(.)/g, '$1');
        const inv = inventoryOf();
        const ranked = [];
        for (const [have_kind, values] of Object.entries(inv)) {
          for (const have of values) {
            const score = similarity(want, have);
            if (score === null || (score === 0 && have_kind === kind)) continue;
            ranked.push([score + (have_kind === kind ? 0 : 0.5), have_kind, have]);
          }
        }
        ranked.sort((a, b) => a[0] - b[0]);
        for (const [, have_kind, have] of ranked.slice(0, 8)) {
          const candidate = selector.slice(0, m.index) + render[have_kind](have) + selector.slice(m.index + m[0].length);
          if (seen.has(candidate)) continue;
          seen.add(candidate);
          let count = 0;
          try { count = query(candidate).length; } catch (e) { continue; }
          if (count) out.push({selector: candidate, count, reason: kind + ' ' + quote(want) + ' not found; the page has ' + have_kind + ' ' + quote(have)});
          if (out.length >= 5) return out;
        }
      }
    }
    return out;
  };
  return selectors.map((selector) => {
    let list;
    try { list = query(selector); }
    catch (e) {
      return {selector, valid: false, exists: false, visible: false, count: 0, visible_count: 0,
              error: String(e.message).split('\n')[0], suggestions: suggest(selector)};
    }
    const shown = list.filter(visible).length;
    return {selector, valid: true, exists: list.length > 0, visible: shown > 0, count: list.length,
            visible_count: shown, error: null, suggestions: list.length ? [] : suggest(selector)};
  });
}
"""


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
async def test_validate_selectors(session: ToolSession, args: ValidateSelectorsInput) -> ValidateSelectorsOutput:
    """Check a list of CSS selectors against the current page without waiting: for each, whether it is
    valid, how many elements it matches and how many are visible. A selector that matches nothing
    gets suggestions: similar ids, classes, data-testid or name values in the page, already
    substituted into the selector and checked to match."""
    raw = await locate.evaluate(session, f"({VALIDATE_JS})({json.dumps(args.selectors)})")
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
async def test_set_target(session: ToolSession, args: SetTargetInput) -> SetTargetOutput:
    """Name the system under test; test_get_report shows it in its header. Results recorded so far
    are kept (call test_reset to start afresh)."""
    check_log(session).target = args.target
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


def render_box(target: str, steps: list[dict[str, Any]], passed: int, failed: int) -> str:
    rows = [f"{'PASS' if s['passed'] else 'FAIL'}  {s['tool']:<24} {s['duration_ms']:>6} ms  {s['message']}"
            for s in steps] or ["(no checks run since test_reset)"]
    title = f"Test report: {target or '(no target set)'}"
    summary = f"{passed} passed, {failed} failed, {passed + failed} total"
    width = min(max(len(line) for line in [title, summary, *rows]), 160)

    def line(text: str) -> str:
        text = text if len(text) <= width else text[: width - 1] + "…"
        return f"│ {text:<{width}} │"

    bar = "─" * (width + 2)
    return "\n".join([f"┌{bar}┐", line(title), f"├{bar}┤", *map(line, rows), f"├{bar}┤", line(summary), f"└{bar}┘"])


def render_diagnostic(target: str, steps: list[dict[str, Any]], passed: int, failed: int) -> str:
    verdict = "FAILED" if failed else "PASSED" if passed else "NO CHECKS"
    out = [f"Target: {target or '(no target set)'}", f"Result: {verdict} ({passed} passed, {failed} failed)"]
    ordered = [(i, s) for i, s in enumerate(steps, 1) if not s["passed"]] + \
              [(i, s) for i, s in enumerate(steps, 1) if s["passed"]]
    for i, step in ordered:
        out.append("")
        out.append(f"#{i} {'FAIL' if not step['passed'] else 'PASS'} {step['tool']} ({step['duration_ms']} ms, {step['timestamp']})")
        out.append(f"   arguments: {json.dumps(step['args'], ensure_ascii=False)}")
        if step["actual"] is not None:
            out.append(f"   actual:    {json.dumps(step['actual'], ensure_ascii=False)}")
        out.append(f"   message:   {step['message']}")
    return "\n".join(out)


@tool("test_get_report", ReportInput, ReportOutput)
async def test_get_report(session: ToolSession, args: ReportInput) -> ReportOutput:
    """Report every assertion and verification (test_assert_*, test_verify_*) run since test_reset, for
    the target set with test_set_target: pass/fail counts and each step's tool, verdict, message and
    duration. format: box (compact table, default), diagnostic (arguments and actual values, failures
    first) or json."""
    log = check_log(session)
    steps = list(log.steps)
    passed = sum(1 for s in steps if s["passed"])
    failed = len(steps) - passed
    if args.format == "json":
        text = json.dumps({"target": log.target, "total": len(steps), "passed": passed, "failed": failed,
                           "steps": steps}, indent=2, ensure_ascii=False)
    elif args.format == "diagnostic":
        text = render_diagnostic(log.target, steps, passed, failed)
    else:
        text = render_box(log.target, steps, passed, failed)
    return ReportOutput(target=log.target, total=len(steps), passed=passed, failed=failed,
                        steps=[ReportStep(**s) for s in steps], format=args.format, report=text)


class ResetOutput(ToolOutput):
    message: str
    cleared: int = Field(description="Results removed")


@tool("test_reset", NoInput, ResetOutput)
async def test_reset(session: ToolSession, args: NoInput) -> ResetOutput:
    """Clear the recorded assertion and verification results so the next test_get_report starts
    from zero. The target set with test_set_target is kept."""
    log = check_log(session)
    cleared = len(log.steps)
    log.steps.clear()
    return ResetOutput(message=f"cleared {cleared} results", cleared=cleared)
