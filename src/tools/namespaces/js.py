"""js_: run JavaScript in the page, add scripts and styles."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pydantic import Field

from ..errors import ToolError
from ..models import MessageOutput, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession


class EvaluateInput(ToolInput):
    script: str = Field(min_length=1)
    max_result_size: int = Field(default=0, ge=0)


class EvaluateOutput(ToolOutput):
    result: Any = Field(description="The JSON-serializable value the script returned")
    truncated: bool = False


# Whether a script compiles as an expression depends on its text alone: remember it, so a
# script an agent repeats costs one round trip, not two.
_FORM_CACHE: dict[str, bool] = {}
_FORM_CACHE_SIZE = 512


def _as_value(script: str) -> str:
    """The script as one expression whose function value, if any, is called."""
    return f"(() => {{ const __a11y_value = ({script}\n); " \
           "return typeof __a11y_value === 'function' ? __a11y_value() : __a11y_value; })()"


async def as_expression(session: ToolSession, script: str) -> str:
    """A function source is called; an expression is evaluated; statements run as written.

    The choice is made by compiling (not running) the expression form in the page, so
    side effects happen exactly once whatever the script is.
    """
    from cdpdriver import ProtocolError

    from .. import locate

    wrapped = _as_value(script)
    if script in _FORM_CACHE:
        return wrapped if _FORM_CACHE[script] else script
    tab = await session.tab()
    locate.check_no_dialog(tab)  # the page is blocked while a dialog is open
    frame = await locate.current_frame(session, tab)
    params: dict[str, Any] = {"expression": wrapped, "sourceURL": "", "persistScript": False}
    if frame.context_id is not None:
        params["executionContextId"] = frame.context_id
    try:
        compiled = await frame.session.send("Runtime.compileScript", params)
    except ProtocolError:  # an out-of-process frame's session may not have Runtime on yet
        await frame.session.send("Runtime.enable")
        compiled = await frame.session.send("Runtime.compileScript", params)
    is_expression = not compiled.get("exceptionDetails")
    if len(_FORM_CACHE) >= _FORM_CACHE_SIZE:
        _FORM_CACHE.pop(next(iter(_FORM_CACHE)))
    _FORM_CACHE[script] = is_expression
    return wrapped if is_expression else script


@tool("js_evaluate", EvaluateInput, EvaluateOutput, records=True, effect="destroys", open_world=True)
async def js_evaluate(session: ToolSession, args: EvaluateInput) -> EvaluateOutput:
    """Evaluate a JS expression or function; returns its JSON value."""
    from .. import locate

    value = await locate.evaluate(session, await as_expression(session, args.script))
    if args.max_result_size:
        text = json.dumps(value, ensure_ascii=False)
        if len(text) > args.max_result_size:
            return EvaluateOutput(result=text[: args.max_result_size], truncated=True)
    return EvaluateOutput(result=value, truncated=False)


# -- init scripts, injected scripts and styles ------------------------------------------------


class InitScriptInput(ToolInput):
    script: str = Field(min_length=1)


@tool("js_init_script", InitScriptInput, MessageOutput, records=True, effect="deletes", open_world=True)
async def js_init_script(session: ToolSession, args: InitScriptInput) -> MessageOutput:
    """Run a script before the page's own in every document loaded from now on."""
    await session.tab()  # launch first, so the new script is not applied twice to a first tab
    if args.script in session.init_scripts:
        return MessageOutput(message="this init script is already registered")
    for tab in list(session.tabs):
        await tab.session.send("Page.addScriptToEvaluateOnNewDocument", {"source": args.script})
    session.init_scripts.append(args.script)
    return MessageOutput(message=f"init script registered in {len(session.tabs)} open tab(s) and future tabs; "
                                 "it runs from the next navigation")


class AddScriptInput(ToolInput):
    source: str = Field(min_length=1)


class AddStyleInput(ToolInput):
    source: str = Field(min_length=1)


@tool("js_add_script", AddScriptInput, MessageOutput, records=True, effect="destroys", open_world=True)
async def js_add_script(session: ToolSession, args: AddScriptInput) -> MessageOutput:
    """Run an inline <script> in the page."""
    from cdpdriver.scripts import call_expression, load_script

    from .. import locate

    # The marker appended after the source tells a script that ran from one that the page's
    # Content-Security-Policy blocked; the error listener catches what the script threw.
    result = await locate.evaluate(session, call_expression(load_script("tools", "add_script"), args.source))
    if result.get("thrown"):
        first = str(result["thrown"]).split("\n")[0]
        raise ToolError("javascript_error", f"the injected script threw: {first}")
    if not result.get("ran"):
        raise ToolError("javascript_error", "the script element was added but did not run: the page's "
                                            "Content-Security-Policy blocks inline scripts; use js_evaluate")
    return MessageOutput(message=f"script injected and run ({len(args.source)} characters)")


@tool("js_add_style", AddStyleInput, MessageOutput, records=True, effect="acts", open_world=True)
async def js_add_style(session: ToolSession, args: AddStyleInput) -> MessageOutput:
    """Add a <style> to the page."""
    from cdpdriver.scripts import call_expression, load_script

    from .. import locate

    rules = await locate.evaluate(session, call_expression(load_script("tools", "add_style"), args.source))
    if rules == -1:
        raise ToolError("javascript_error", "the style element was added but has no stylesheet: the page's "
                                            "Content-Security-Policy blocks inline styles")
    return MessageOutput(message=f"style injected: {rules} rule(s) parsed")
