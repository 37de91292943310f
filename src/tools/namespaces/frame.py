"""frame_: choose the frame that element and js tools act in.

A same-process iframe runs in the tab's own session, in its own execution
context. An out-of-process iframe (a cross-site page) is a child target with
a session of its own; its coordinates are relative to its own viewport, so
the FrameRef carries the offset of the iframe's content box in the top page
and clicks, which are dispatched to the top page, land on the right spot.
"""

from __future__ import annotations

import fnmatch
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import Field

from ..errors import ToolError
from ..models import MessageOutput, NoInput, TimeoutMs, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from cdpdriver import Session

    from ..session import ToolSession
    from ..tab import FrameRef, Tab


@dataclass
class FrameCandidate:
    """An iframe of the tab, as frame_select can match it."""

    frame_id: str
    name: str
    url: str
    session: Session  # the session that runs the frame's document
    parent: Session  # the session whose DOM holds the <iframe> element
    remote: bool
    attributes: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        name = self.name or self.attributes.get("id", "")
        return f"{name or '(unnamed)'} {self.url}" + (" [out-of-process]" if self.remote else "")


def _walk_tree(node: dict, session: Session, out: list[FrameCandidate], *, remote: bool,
               parent: Session, top: bool) -> None:
    frame = node.get("frame") or {}
    if not top:
        out.append(FrameCandidate(frame["id"], frame.get("name", ""), frame.get("url", ""), session,
                                  parent, remote))
    for child in node.get("childFrames") or []:
        _walk_tree(child, session, out, remote=False, parent=session, top=False)


async def _frames(tab: Tab) -> list[FrameCandidate]:
    """Every iframe of the tab: the in-process frame tree, then each out-of-process child."""
    from cdpdriver import CDPError

    found: list[FrameCandidate] = []
    tree = await tab.session.send("Page.getFrameTree", timeout=10)
    _walk_tree(tree["frameTree"], tab.session, found, remote=False, parent=tab.session, top=True)
    for child in list(tab.page.children.values()):
        if child.type != "iframe":
            continue
        parent = _session_by_id(tab, child.parent_session_id)
        try:
            own = await child.session.send("Page.getFrameTree", timeout=5)
        except CDPError:
            continue  # detached or still starting; the next poll sees it
        frame = own["frameTree"].get("frame") or {}
        found.append(FrameCandidate(child.session.target_id or "", frame.get("name", ""),
                                    frame.get("url", child.url), child.session, parent, True))
    for candidate in found:
        candidate.attributes = await _owner_attributes(candidate)
    return found


async def _owner_attributes(frame: FrameCandidate) -> dict[str, str]:
    """name/id/src of the <iframe> element, read from the DOM that holds it."""
    from cdpdriver import CDPError

    try:
        owner = await frame.parent.send("DOM.getFrameOwner", {"frameId": frame.frame_id}, timeout=5)
        node = await frame.parent.send("DOM.describeNode", {"backendNodeId": owner["backendNodeId"]}, timeout=5)
    except CDPError:
        return {}
    flat = node["node"].get("attributes") or []
    return dict(zip(flat[0::2], flat[1::2], strict=False))


def _rank(frame: FrameCandidate, wanted: str) -> int | None:
    """0 for a name or id match, 1 for a URL match (exact, glob or substring), None otherwise."""
    if wanted in (frame.name, frame.attributes.get("name"), frame.attributes.get("id")):
        return 0
    urls = [u for u in (frame.url, frame.attributes.get("src", "")) if u]
    if any(set(wanted) & set("*?[") and fnmatch.fnmatchcase(u, wanted) for u in urls):
        return 1
    if any(wanted in u for u in urls):
        return 1
    return None


def _best(frames: list[FrameCandidate], wanted: str) -> FrameCandidate | None:
    ranked = [(r, i, f) for i, f in enumerate(frames) if (r := _rank(f, wanted)) is not None]
    return min(ranked, key=lambda t: (t[0], t[1]))[2] if ranked else None


def _session_by_id(tab: Tab, session_id: str | None) -> Session:
    child = tab.page.children.get(session_id or "")
    return child.session if child is not None else tab.session


async def _offset(tab: Tab, frame_id: str, parent: Session) -> tuple[float, float]:
    """Top-left of the iframe's content box in top-page coordinates, summed over nested OOPIFs."""
    owner = await parent.send("DOM.getFrameOwner", {"frameId": frame_id}, timeout=5)
    box = await parent.send("DOM.getBoxModel", {"backendNodeId": owner["backendNodeId"]}, timeout=5)
    x, y = box["model"]["content"][0], box["model"]["content"][1]
    holder = tab.page.children.get(parent.session_id or "") if parent is not tab.session else None
    if holder is not None:
        dx, dy = await _offset(tab, holder.session.target_id or "", _session_by_id(tab, holder.parent_session_id))
        x, y = x + dx, y + dy
    return float(x), float(y)


async def _document_ready(tab: Tab, match: FrameCandidate) -> bool:
    """Whether an in-process frame shows the document its ``src`` names, parsed.

    An iframe starts with an empty ``about:blank`` document and a context of its own, which
    exist before its ``src`` commits: a tool acting then would act in that empty document. So
    the frame counts as ready once its document is not that placeholder (unless ``src`` asks
    for nothing else) and is past ``loading``; a context gone meanwhile is polled again."""
    from cdpdriver import CDPError

    src = match.attributes.get("src", "").strip().lower()
    blank_wanted = not src or src.startswith(("about:", "javascript:"))
    try:
        reply = await tab.session.send("Runtime.evaluate", {
            "expression": "[location.href, document.readyState]", "returnByValue": True,
            "contextId": tab.contexts[match.frame_id],
        }, timeout=5)
    except (CDPError, KeyError):
        return False
    value = (reply.get("result") or {}).get("value")
    if not isinstance(value, list) or len(value) != 2:
        return False
    href, state = value
    return state != "loading" and (blank_wanted or href != "about:blank")


async def _select(tab: Tab, wanted: str, timeout_ms: int) -> tuple[FrameCandidate, FrameRef]:
    """Poll until a frame matches (iframes load after the page) and, if in-process, has a
    context whose document is the one it loads (:func:`_document_ready`)."""
    import trio

    from ..tab import FrameRef

    deadline = trio.current_time() + timeout_ms / 1000
    while True:
        frames = await _frames(tab)
        match = _best(frames, wanted)
        if match is not None and match.remote:
            refresh = functools.partial(_offset, tab, match.frame_id, match.parent)
            ref = FrameRef(session=match.session, frame_id=match.frame_id, context_id=None,
                           name=match.name or match.attributes.get("id", ""), url=match.url,
                           offset=await refresh(), refresh_offset=refresh)
            return match, ref
        if match is not None and match.frame_id in tab.contexts and await _document_ready(tab, match):
            ref = FrameRef(session=tab.session, frame_id=match.frame_id, context_id=tab.contexts[match.frame_id],
                           name=match.name or match.attributes.get("id", ""), url=match.url)
            return match, ref
        if trio.current_time() >= deadline:
            break
        await trio.sleep(0.05)
    listing = "; ".join(f.label for f in frames) or "the page has no iframes"
    if match is not None:
        raise ToolError("timeout", f"frame {wanted!r} matched but its document was not parsed within "
                                   f"{timeout_ms} ms (still loading, or not yet the one its src names); "
                                   "retry with a larger timeout_ms")
    raise ToolError("not_found", f"no frame matches {wanted!r} by name, id or URL. Frames: {listing}")


class FrameSelectInput(ToolInput):
    name_or_url: str = Field(min_length=1)
    timeout_ms: int = TimeoutMs


class FrameSelectOutput(ToolOutput):
    message: str
    name: str = Field(description="Name (or id) of the selected iframe")
    url: str = Field(description="URL of the document in the iframe")
    frame_id: str
    out_of_process: bool = Field(description="True for a cross-site iframe running in its own process")


@tool("frame_select", FrameSelectInput, FrameSelectOutput, records=True, effect="sets")
async def frame_select(session: ToolSession, args: FrameSelectInput) -> FrameSelectOutput:
    """Make element and js tools act in an iframe until frame_select_main or navigation."""
    tab = await session.tab()
    match, ref = await _select(tab, args.name_or_url, args.timeout_ms)
    tab.frame = ref
    where = "out-of-process" if match.remote else "same process"
    return FrameSelectOutput(
        message=f"now acting in frame {ref.name or '(unnamed)'} ({ref.url}, {where}); "
                "frame_select_main returns to the page",
        name=ref.name, url=ref.url, frame_id=ref.frame_id, out_of_process=match.remote,
    )


@tool("frame_select_main", NoInput, MessageOutput, records=True, effect="sets")
async def frame_select_main(session: ToolSession, args: NoInput) -> MessageOutput:
    """Make element and js tools act on the top page."""
    tab = await session.tab()
    previous = tab.frame
    tab.frame = None
    if previous is None:
        return MessageOutput(message="already in the main frame")
    return MessageOutput(message=f"left frame {previous.name or previous.url}; acting in the main frame")
