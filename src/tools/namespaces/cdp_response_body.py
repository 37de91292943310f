"""cdp_get_response_body: the body of a response a tab received, by the request id network_get_requests lists."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from pydantic import Field

from ..errors import ToolError
from ..models import ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession
    from ..tab import RequestRecord, Tab


FINISH_WAIT = 5.0


class ResponseBodyInput(ToolInput):
    request_id: str = Field(min_length=1)
    save_to_file: str | None = Field(default=None, min_length=1)


class ResponseBodyOutput(ToolOutput):
    body: str = Field(description="The body: text, or base64 for binary content; empty when saved to a file")
    base64_encoded: bool = Field(description="True when body is base64 (binary content)")
    path: str | None = Field(default=None, description="The file written (with save_to_file)")
    size: int = Field(description="Body size in bytes (decoded)")
    url: str
    status: int
    mime_type: str


def _find(session: ToolSession, request_id: str) -> tuple[Tab, RequestRecord] | None:
    ordered = sorted(session.tabs, key=lambda t: t is not session.tabs[session.current]) if session.tabs else []
    for tab in ordered:
        # The last record with the id is the final hop of a redirect chain: the one with a body.
        matches = [r for r in list(tab.requests.values()) if r.request_id == request_id]
        if matches:
            return tab, matches[-1]
    return None


async def _body(tab: Tab, record: RequestRecord, request_id: str) -> dict[str, Any]:
    """Ask for the body; if it failed while the response was still arriving, wait for it once."""
    import trio

    from cdpdriver import CDPError

    try:
        return await tab.session.send("Network.getResponseBody", {"requestId": request_id}, timeout=30)
    except CDPError as exc:
        error = exc
    if record.finished is None and not record.failed:
        with trio.move_on_after(FINISH_WAIT):
            while record.finished is None and not record.failed:
                await trio.sleep(0.02)
        try:
            return await tab.session.send("Network.getResponseBody", {"requestId": request_id}, timeout=30)
        except CDPError as exc:
            error = exc
    raise ToolError("not_found", (
        f"the browser has no body for {record.url} ({error}); it keeps bodies only for recent requests of "
        "the current page, not for redirects, failed requests or fetches the page never read"))


@tool("cdp_get_response_body", ResponseBodyInput, ResponseBodyOutput, effect="sets")
async def cdp_get_response_body(session: ToolSession, args: ResponseBodyInput) -> ResponseBodyOutput:
    """The body of a recent response (text, or base64 for binary)."""
    await session.tab()
    found = _find(session, args.request_id)
    if found is None:
        raise ToolError("not_found", f"no request with id {args.request_id!r} in any tab; call network_get_requests")
    tab, record = found
    out = session.output_path(args.save_to_file, "body.bin") if args.save_to_file else None
    reply = await _body(tab, record, args.request_id)
    encoded = bool(reply.get("base64Encoded"))
    body = str(reply.get("body", ""))
    data = base64.b64decode(body) if encoded else body.encode("utf-8")
    common = {"size": len(data), "url": record.url, "status": record.status, "mime_type": record.mime_type}
    if out is not None:
        out.write_bytes(data)
        return ResponseBodyOutput(body="", base64_encoded=encoded, path=str(out), **common)
    return ResponseBodyOutput(body=body, base64_encoded=encoded, **common)
