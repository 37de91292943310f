"""http_: an HTTP request made by the page itself, with the browser session's cookies.

The request is a ``fetch`` in the current frame with ``credentials: 'include'``,
so it carries the cookies (and HTTP auth) of the logged-in session and obeys the
same rules as the page's own requests: a same-origin URL always works, a
cross-origin one only where the server allows CORS. The current page's origin
therefore matters: open a page of the target site first (about:blank has no
origin and cannot send cookies).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationInfo, field_validator

from ..errors import ToolError
from ..models import ToolInput, ToolOutput, WaitTimeoutMs
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession


Method = Annotated[
    Literal["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    BeforeValidator(lambda v: v.upper() if isinstance(v, str) else v),
]


class HttpInput(ToolInput):
    url: str = Field(min_length=1)
    method: Method = "GET"
    headers: dict[str, str] = Field(default_factory=dict)
    content_type: str | None = None
    body: str | None = None
    max_body_length: int = Field(default=8192, ge=0)
    timeout_ms: int = WaitTimeoutMs

    @field_validator("body")
    @classmethod
    def _no_body_on_get(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and info.data.get("method") in ("GET", "HEAD"):
            raise ValueError(f"a {info.data['method']} request cannot have a body; use POST, PUT or PATCH")
        return value


class HttpOutput(ToolOutput):
    status: int = Field(description="HTTP status code")
    statusText: str = Field(description="HTTP status text")  # camelCase: the contract's field name
    headers: dict[str, str] = Field(description="Response headers the page may read (lower-case names)")
    body: str = Field(description="Response body as text, truncated to max_body_length")
    truncated: bool
    body_length: int = Field(description="Length of the whole body, in characters")
    url: str = Field(description="Final URL after redirects")


def _failure(result: dict[str, Any], url: str, timeout_ms: int) -> ToolError:
    if result.get("failed") == "timeout":
        return ToolError("timeout", f"{url} did not answer within {timeout_ms} ms; retry with a larger timeout_ms")
    origin = result.get("origin") or "null"
    if origin == "null":
        hint = ("the current page has no origin (about:blank or data:), so the request cannot carry cookies "
                "or pass CORS; call page_navigate to a page of the target site first")
    else:
        hint = (f"the request runs inside the page at {origin}: a cross-origin URL needs the server to allow "
                "CORS with credentials, so navigate to a page of the target site first; or the server is "
                "unreachable")
    return ToolError("request_failed", f"the request to {url} failed ({result.get('failed')}); {hint}")


@tool("http_request", HttpInput, HttpOutput, records=True, effect="destroys", open_world=True)
async def http_request(session: ToolSession, args: HttpInput) -> HttpOutput:
    """Fetch a URL from the page with its cookies (cross-origin needs CORS)."""
    import trio

    from cdpdriver.scripts import call_expression, load_script

    from .. import locate

    headers = dict(args.headers)
    if args.content_type is not None:
        headers = {k: v for k, v in headers.items() if k.lower() != "content-type"}
        headers["Content-Type"] = args.content_type
    call = call_expression(load_script("tools", "page_fetch"), args.url, args.method, headers, args.body, args.max_body_length, args.timeout_ms)
    with trio.move_on_after(args.timeout_ms / 1000 + 5):
        result = await locate.evaluate(session, call, timeout=args.timeout_ms / 1000 + 10)
        if not isinstance(result, dict) or "failed" in result:
            raise _failure(result if isinstance(result, dict) else {}, args.url, args.timeout_ms)
        return HttpOutput(status=result["status"], statusText=result["statusText"], headers=result["headers"],
                          body=result["body"], truncated=result["truncated"], body_length=result["body_length"],
                          url=result["url"])
    raise ToolError("timeout", f"the page did not finish the request to {args.url} in time (a script may be busy)")
