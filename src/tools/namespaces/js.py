"""js_: run JavaScript in the page, add scripts and styles."""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field

from .. import locate
from ..models import ToolInput, ToolOutput
from ..registry import tool
from ..session import ToolSession


class EvaluateInput(ToolInput):
    script: str = Field(min_length=1, description=(
        "JavaScript expression, or a function source such as '() => document.title' (it is called). "
        "Promises are awaited."))
    max_result_size: int = Field(default=0, ge=0, description="Truncate the JSON result to this many characters; 0 = no limit")


class EvaluateOutput(ToolOutput):
    result: Any = Field(description="The JSON-serializable value the script returned")
    truncated: bool = False


def as_expression(script: str) -> str:
    """A bare function source is called; anything else is evaluated as written."""
    stripped = script.strip()
    looks_like_function = stripped.startswith(("function", "async function", "async (", "(")) and "=>" in stripped[:200] \
        or stripped.startswith(("function", "async function"))
    if looks_like_function and not stripped.endswith(")()") and not stripped.endswith("})()"):
        return f"({stripped})()"
    return script


@tool("js_evaluate", EvaluateInput, EvaluateOutput, records=True)
async def js_evaluate(session: ToolSession, args: EvaluateInput) -> EvaluateOutput:
    """Evaluate JavaScript in the current frame and return its JSON value (DOM nodes and
    functions come back as null). Use max_result_size to cap a large result. A thrown error
    is a javascript_error with the message."""
    value = await locate.evaluate(session, as_expression(args.script))
    if args.max_result_size:
        text = json.dumps(value, ensure_ascii=False)
        if len(text) > args.max_result_size:
            return EvaluateOutput(result=text[: args.max_result_size], truncated=True)
    return EvaluateOutput(result=value, truncated=False)
