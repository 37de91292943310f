"""workflow_: multi-step automations an agent would otherwise script call by call.

``workflow_login`` types with real input, clicks the real submit button and
then tells success from failure by evidence in the page, saying why a login
failed; the password never appears in any output. ``workflow_extract_table``
turns an HTML (or ARIA) table into rows keyed by column names.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, quote_plus

from pydantic import Field, SecretStr

from ..assertions.urls import url_matches
from ..errors import ToolError
from ..models import TimeoutMs, ToolInput, ToolOutput, WaitTimeoutMs
from ..registry import tool

if TYPE_CHECKING:
    from .. import locate
    from ..session import ToolSession


INVALID_GRACE_S = 0.3

# -- workflow_login ---------------------------------------------------------------------


class LoginInput(ToolInput):
    url: str | None = Field(default=None, min_length=1)
    username_selector: str = Field(min_length=1)
    password_selector: str = Field(min_length=1)
    submit_selector: str = Field(min_length=1)
    username: str = Field(min_length=1)
    password: SecretStr = Field(min_length=1)
    success_url: str | None = Field(default=None, min_length=1)
    success_selector: str | None = Field(default=None, min_length=1)
    timeout_ms: int = WaitTimeoutMs


class LoginOutput(ToolOutput):
    success: bool
    url: str = Field(description="Final URL of the tab (the password is masked if it appears)")
    message: str = Field(description="Why the login is judged a success or a failure")
    reason: str = Field(description=(
        "success_url, success_selector, form_gone (success without criteria); or error_message, "
        "invalid_fields, dialog, still_on_login_page, timeout"))
    errors: list[str] = Field(default_factory=list, description="Error texts visible in the page after submitting")


def redact(text: str, secret: str) -> str:
    """Mask the secret and its URL-encoded forms; very short secrets only as whole tokens."""
    for form in sorted({secret, quote(secret, safe=""), quote_plus(secret)}, key=len, reverse=True):
        if len(secret) >= 3:
            text = text.replace(form, "***")
        else:
            text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(form)}(?![A-Za-z0-9])", "***", text)
    return text


async def fill_field(element: locate.Element, value: str) -> bool:
    """Click into the field, select what is there, and type over it; True when the value took."""
    from cdpdriver.keys import press

    await element.click()
    await press(element.tab.session, "Control+A")
    await element.tab.session.send("Input.insertText", {"text": value})
    return bool(await element.call("function (v) { return this.value === v; }", value))


_SELECTOR_VALID = "(selector) => { try { document.querySelector(selector); return true; } catch { return false; } }"


async def _check_selector(session: ToolSession, name: str, selector: str) -> None:
    from cdpdriver.scripts import call_expression

    from .. import locate

    ok = await locate.evaluate(session, call_expression(_SELECTOR_VALID, selector))
    if not ok:
        raise ToolError("invalid_arguments", f"{name} {selector!r} is not valid CSS")


class _Login:
    """One login attempt: fills, submits, then watches the page for the verdict."""

    def __init__(self, session: ToolSession, args: LoginInput) -> None:
        import trio

        self.session, self.args = session, args
        self.secret = args.password.get_secret_value()
        self.deadline = trio.current_time() + args.timeout_ms / 1000
        self.token = secrets.token_hex(8)
        self.login_url = ""
        self.errors_before: list[str] = []

    def left_ms(self) -> int:
        import trio

        return max(0, int((self.deadline - trio.current_time()) * 1000))

    def out(self, success: bool, url: str, reason: str, message: str, errors: list[str] | None = None) -> LoginOutput:
        return LoginOutput(success=success, url=redact(url, self.secret), reason=reason,
                           message=redact(message, self.secret), errors=[redact(e, self.secret) for e in errors or []])

    async def run(self) -> LoginOutput:
        from .. import locate

        args, session = self.args, self.session
        tab = await session.tab()
        if args.url:
            tab.frame = None
            await tab.page.navigate(args.url, wait_until="load", timeout=self.left_ms() / 1000)
        if args.success_selector:
            await _check_selector(session, "success_selector", args.success_selector)
        self.login_url = await tab.url()
        for field, selector, value in (("username", args.username_selector, args.username),
                                       ("password", args.password_selector, self.secret)):
            element = await locate.actionable(session, selector, self.left_ms(), editable=True)
            if not await fill_field(element, value):
                raise ToolError("invalid_arguments", (
                    f"the {field} field {selector!r} did not keep the typed value (maxlength, input mask or "
                    "a script rewriting it?)"))
        state = await self.state()
        self.errors_before = list((state or {}).get("errors") or [])
        # A marker in this document: when it is gone, the submit loaded a new page.
        await locate.evaluate(session, f"window.__a11yLoginToken = {json.dumps(self.token)}")
        submit = await locate.actionable(session, args.submit_selector, self.left_ms(), enabled=True)
        await submit.click()
        return await self.verdict()

    async def state(self) -> dict[str, Any] | None:
        """The page's login state, or None while a navigation replaces the document.

        ``login_state`` runs after submitting, in the current frame: is this still the same
        document, which criteria hold, and what error texts or invalid fields does the page show?
        """
        from cdpdriver.scripts import call_expression, load_script

        from .. import locate
        from ..assertions.polling import poll

        expression = call_expression(load_script("tools", "login_state"), self.token, self.args.password_selector,
                                     self.args.success_selector)
        try:
            result = await poll(lambda: locate.evaluate(self.session, expression, timeout=10), 0)
        except ToolError as exc:
            if exc.code == "dialog_open":  # the verdict loop reports the dialog
                return None
            raise
        return None if result.get("navigating") else result

    async def verdict(self) -> LoginOutput:
        import trio

        tab = await self.session.tab()
        started = trio.current_time()
        while True:
            if tab.dialog is not None:
                return self.out(False, await tab.url(), "dialog",
                                f"login failed: a {tab.dialog.type} dialog opened saying {tab.dialog.message!r} "
                                "(call dialog_handle to close it)", [tab.dialog.message])
            state = await self.state()
            # The probed document's own URL when it is the top frame: never older than the probe.
            url = state["url"] if state is not None and tab.frame is None else await tab.url()
            if state is not None:
                done = self.judge(url, state, trio.current_time() - started)
                if done is not None:
                    return done
            if trio.current_time() >= self.deadline:
                return self.timed_out(url, state)
            await trio.sleep(0.05)

    def judge(self, url: str, state: dict[str, Any], elapsed: float) -> LoginOutput | None:
        """A verdict from one look at the page, or None to keep waiting."""
        args = self.args
        criteria = []
        if args.success_url:
            criteria.append(("success_url", url_matches(args.success_url, url), f"the URL matches {args.success_url!r}"))
        if args.success_selector:
            criteria.append(("success_selector", state["success"], f"{args.success_selector!r} is visible"))
        if not criteria:
            left = not state["same"] or url != self.login_url
            criteria.append(("form_gone", left and not state["password"] and not state["errors"],
                             "the page changed and the password field is gone"))
        if all(met for _, met, _ in criteria):
            return self.out(True, url, criteria[0][0], "logged in: " + " and ".join(why for _, _, why in criteria))
        new_errors = [e for e in state["errors"] if not state["same"] or e not in self.errors_before]
        if state["password"] and new_errors:
            return self.out(False, url, "error_message",
                            f"login failed: still on the login page, which shows an error: {new_errors[0]!r}",
                            new_errors)
        if state["same"] and state["invalid"] and elapsed >= INVALID_GRACE_S:
            return self.out(False, url, "invalid_fields",
                            f"login failed: the browser blocked the form submission: {'; '.join(state['invalid'])}")
        return None

    def timed_out(self, url: str, state: dict[str, Any] | None) -> LoginOutput:
        errors = list((state or {}).get("errors") or [])
        waited = f"after {self.args.timeout_ms} ms"
        expected = " and ".join(filter(None, [
            f"URL matching {self.args.success_url!r}" if self.args.success_url else "",
            f"{self.args.success_selector!r} visible" if self.args.success_selector else "",
        ])) or "the login form to go away"
        shown = f"; the page shows: {errors[0]!r}" if errors else ""
        if (state or {}).get("password") or url == self.login_url:
            return self.out(False, url, "still_on_login_page",
                            f"login failed: still on the login page {waited} (expected {expected}){shown}", errors)
        return self.out(False, url, "timeout", f"login not confirmed {waited}: expected {expected}{shown}", errors)


@tool("workflow_login", LoginInput, LoginOutput, effect="acts", open_world=True)
async def workflow_login(session: ToolSession, args: LoginInput) -> LoginOutput:
    """Log in through a form and judge success (success_url, success_selector or the form gone)."""
    return await _Login(session, args).run()


# -- workflow_extract_table ------------------------------------------------------------

class ExtractTableInput(ToolInput):
    selector: str = Field(min_length=1)
    headers: bool = True
    max_rows: int = Field(default=1000, ge=1, le=100_000)
    timeout_ms: int = TimeoutMs


class ExtractTableOutput(ToolOutput):
    rows: list[dict[str, str] | list[str]] = Field(description="Data rows: objects keyed by column (headers=true) or arrays")
    columns: list[str] = Field(description="Column names, unique, in order")
    count: int = Field(description="Rows returned")
    total_rows: int = Field(description="Data rows in the table")
    truncated: bool = Field(description="True when max_rows cut rows off")


def column_names(raw: list[str]) -> list[str]:
    """Empty names become 'Column N'; repeated names (a header spanning columns) get ' (2)', ' (3)'."""
    names: list[str] = []
    for index, name in enumerate(raw, 1):
        base = name or f"Column {index}"
        unique, n = base, 1
        while unique in names:
            n += 1
            unique = f"{base} ({n})"
        names.append(unique)
    return names


@tool("workflow_extract_table", ExtractTableInput, ExtractTableOutput, effect="reads")
async def workflow_extract_table(session: ToolSession, args: ExtractTableInput) -> ExtractTableOutput:
    """A table's rows as objects keyed by column, or arrays."""
    from cdpdriver import JavaScriptError
    from cdpdriver.scripts import load_script

    from .. import locate

    element = await locate.element(session, args.selector, args.timeout_ms, state="attached")
    try:
        # this = the table (or a container of one, or an ARIA table/grid): colspan/rowspan are
        # expanded into a grid, the header rows found and the columns named in the page.
        data = await element.call(load_script("tools", "extract_table"), args.headers, args.max_rows)
    except JavaScriptError as exc:
        if "not a table" in str(exc):
            raise ToolError("invalid_arguments", f"{args.selector!r} is not a table and contains none; "
                            "point selector at a <table> or a role=table/grid element") from None
        raise
    width = len(data["columns"])
    if args.headers:
        columns = column_names(data["columns"])
        rows: list[Any] = [dict(zip(columns, row, strict=True)) for row in data["rows"]]
    else:
        columns = [f"Column {i}" for i in range(1, width + 1)]
        rows = data["rows"]
    return ExtractTableOutput(rows=rows, columns=columns, count=len(rows), total_rows=data["total"],
                              truncated=data["total"] > len(rows))
