"""Helpers for the browser half of the audit tests: requests, and resolving a finding's
selector in a live page the way a user of the result would (hop by hop)."""

from __future__ import annotations

from typing import Any

import trio

from audit.models import AuditRequest
from cdpdriver import Page, Session, unwrap_evaluation
from cdpdriver.protocol import dom, runtime

HOP = " >>> "

_NEXT_ROOT_JS = """function () {
  if (this.shadowRoot) return this.shadowRoot;
  if (this.contentDocument) return this.contentDocument;
  return null;
}"""
_DESCRIBE_JS = """function () {
  return {tag: this.tagName.toLowerCase(), id: this.id, outer: this.outerHTML.slice(0, 300)};
}"""


def make_request(url: str, **fields: Any) -> AuditRequest:
    """An AuditRequest from JSON-style fields (``maxPages``, not ``max_pages``)."""
    return AuditRequest.model_validate({"url": url, **fields})


async def _call(session: Session, object_id: str, fn: str, *args: Any, by_value: bool = False) -> Any:
    result = await session.execute(
        runtime.call_function_on(
            fn,
            object_id=runtime.RemoteObjectId(object_id),
            arguments=[runtime.CallArgument(value=a) for a in args],
            return_by_value=by_value or None,
        )
    )
    return unwrap_evaluation(result, by_value)


async def _query(session: Session, root: str | None, selector: str) -> str | None:
    if root is None:
        result = await session.execute(
            runtime.evaluate(expression="document", return_by_value=False)
        )
        root = str(unwrap_evaluation(result, False).object_id)
    found = await _call(session, root, "function (s) { return this.querySelector(s); }", selector)
    return str(found.object_id) if found.object_id else None


async def _child_session(page: Page, element: str, session: Session) -> Session | None:
    node = await session.execute(dom.describe_node(object_id=runtime.RemoteObjectId(element)))
    with trio.move_on_after(30):  # a frame attaches late on a loaded machine
        while True:
            for child in page.children.values():
                if child.session.target_id == node.frame_id:
                    return child.session
            await trio.sleep(0.02)
    return None


async def resolve_selector(page: Page, selector: str) -> dict[str, Any] | None:
    """Walk ``selector``'s hops: querySelector in the current root, then into the element's
    open shadow root or same-process iframe document, or into the out-of-process iframe's own
    session. Returns ``{tag, id, outer, session}`` of the element, or None if a hop fails."""
    session: Session = page.session
    root: str | None = None
    hops = selector.split(HOP)
    for index, hop in enumerate(hops):
        element = await _query(session, root, hop)
        if element is None:
            return None
        if index == len(hops) - 1:
            described = await _call(session, element, _DESCRIBE_JS, by_value=True)
            return {**described, "session": session}
        next_root = await _call(session, element, _NEXT_ROOT_JS)
        if next_root.object_id:
            root = str(next_root.object_id)
            continue
        child = await _child_session(page, element, session)
        if child is None:
            return None
        session, root = child, None
    return None


async def open_page(page: Page, url: str) -> Page:
    """Load ``url`` in ``page`` and let late content render, as the engine does."""
    from audit.readiness import install_tracker, settle

    await install_tracker(page)
    await page.navigate(url, wait_until="load")
    await settle(page)
    return page
