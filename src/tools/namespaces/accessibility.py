"""accessibility_: the browser's own accessibility tree, compact enough to read.

The tree comes from Chromium's Accessibility domain (what assistive technology
sees), not from a DOM walk. Nodes are shortened to role, name, value and the
states that matter; with interesting_only the unnamed structural wrappers and
the text already spoken by their parent are folded away. Iframes, same-site
and cross-site alike, are inlined under their Iframe node.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pydantic import Field

from ..models import TimeoutMs, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from cdpdriver import Session

    from ..session import ToolSession
    from ..tab import Tab

# Unnamed nodes of these roles are wrappers: their children take their place.
_WRAPPERS = {"generic", "none", "presentation", "LabelText", "MenuListPopup", "Section", "Div"}
_ALWAYS_DROPPED = {"InlineTextBox", "LineBreak", "ListMarker"}  # with interesting_only
# How each kept property is shown: states whose false value matters, flags shown only when
# true, strings shown unless "false", and plain values.
_STATES = {"checked", "pressed", "expanded"}
_FLAGS = {"selected", "disabled", "focused", "required", "readonly", "modal", "multiselectable", "busy"}
_UNLESS_FALSE = {"invalid", "hasPopup"}
_VALUES = {"level", "valuemin", "valuemax", "valuetext", "keyshortcuts", "roledescription", "url", "autocomplete"}
MAX_FRAME_DEPTH = 4
log = logging.getLogger(__name__)


class SnapshotInput(ToolInput):
    interesting_only: bool = True
    root: str | None = Field(default=None, min_length=1)
    timeout_ms: int = TimeoutMs


class SnapshotOutput(ToolOutput):
    tree: dict[str, Any] | None = Field(description=(
        "Root node: {role, name?, value?, description?, states such as checked/disabled/expanded/level, "
        "children?}; plain strings in children are text"))
    count: int = Field(description="Nodes and text items in the tree")


def _props(node: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for prop in node.get("properties") or []:
        name, value = prop.get("name"), (prop.get("value") or {}).get("value")
        if name in _STATES and value is not None:
            out[name] = {"true": True, "false": False}.get(value, value) if isinstance(value, str) else value
        elif name in _FLAGS and value is True:
            out[name] = True
        elif name in _UNLESS_FALSE and value not in (None, False, "false", ""):
            out["haspopup" if name == "hasPopup" else name] = value
        elif name in _VALUES and value not in (None, ""):
            out[name] = value
    return out


class _Builder:
    """Turns Chromium's flat AX node list into the compact nested tree."""

    def __init__(self, interesting_only: bool) -> None:
        self.interesting_only = interesting_only
        self.count = 0
        # Iframe node id → the compact tree of its document, filled in before building.
        self.frames: dict[str, list[Any]] = {}

    def build(self, nodes: list[dict[str, Any]], root_id: str) -> list[Any]:
        self.by_id = {n["nodeId"]: n for n in nodes}
        return self._convert(root_id, "", "", root=True)

    def _convert(self, node_id: str, spoken: str, value: str, root: bool = False) -> list[Any]:
        node = self.by_id.get(node_id)
        if node is None:
            return []
        role = str((node.get("role") or {}).get("value") or "")
        name = str((node.get("name") or {}).get("value") or "")
        own_value = (node.get("value") or {}).get("value")
        if self.interesting_only:
            if role in _ALWAYS_DROPPED:
                return []
            if role == "StaticText" and not root:
                return self._text(name, spoken, value)
        props = _props(node)
        keep = root or not (self.interesting_only and (node.get("ignored") or (role in _WRAPPERS and not name and not props)))
        # Children inherit what the nearest kept ancestor already says (its name and value).
        child_spoken = name if keep else spoken
        child_value = str(own_value) if keep and own_value is not None else value
        children: list[Any] = []
        for child_id in node.get("childIds") or []:
            children.extend(self._convert(child_id, child_spoken, child_value))
        children.extend(self.frames.get(node_id, []))
        if not keep:
            return children
        return [self._node(node, role, name, own_value, props, children)]

    def _text(self, text: str, spoken: str, value: str) -> list[Any]:
        """Static text is a plain string, dropped when the parent's name or value already has it."""
        clean = " ".join(text.split())
        if not clean or clean in " ".join(spoken.split()) or clean == " ".join(value.split()):
            return []
        self.count += 1
        return [clean]

    def _node(self, node: dict[str, Any], role: str, name: str, value: Any, props: dict[str, Any],
              children: list[Any]) -> dict[str, Any]:
        self.count += 1
        out: dict[str, Any] = {"role": role}
        if name:
            out["name"] = name
        if value not in (None, ""):
            out["value"] = value
        description = (node.get("description") or {}).get("value")
        if description:
            out["description"] = description
        if node.get("ignored") and not self.interesting_only:
            out["ignored"] = True
        out.update(props)
        if "valuetext" in out and str(out["valuetext"]) == str(value):  # says nothing the value does not
            del out["valuetext"]
        if role == "listitem" and out.get("level") == 1:
            del out["level"]
        if children:
            out["children"] = children
        return out


async def _frame_session(tab: Tab, session: Session, frame_id: str) -> tuple[Session, str | None]:
    """The session that owns a frame's document: its own target for a cross-site iframe."""
    for child in tab.page.children.values():
        if child.session.target_id == frame_id and child.type == "iframe":
            return child.session, None
    return session, frame_id


async def _inline_frames(tab: Tab, session: Session, nodes: list[dict[str, Any]], builder: _Builder,
                         depth: int) -> None:
    """Build each Iframe node's document and attach it under that node."""
    from cdpdriver import CDPError

    if depth >= MAX_FRAME_DEPTH:
        return
    for node in nodes:
        if (node.get("role") or {}).get("value") != "Iframe" or "backendDOMNodeId" not in node:
            continue
        try:
            described = await session.send("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]})
            frame_id = described["node"].get("frameId")
            if not frame_id:
                continue
            frame_session, frame_param = await _frame_session(tab, session, frame_id)
            params = {"frameId": frame_param} if frame_param else {}
            frame_nodes = (await frame_session.send("Accessibility.getFullAXTree", params))["nodes"]
        except CDPError as exc:  # keep the page's tree even if one frame cannot be read
            log.debug("no accessibility tree for iframe node %s: %s", node.get("nodeId"), exc)
            continue
        inner = _Builder(builder.interesting_only)
        await _inline_frames(tab, frame_session, frame_nodes, inner, depth + 1)
        root = next((n for n in frame_nodes if not n.get("parentId")), None)
        if root is not None:
            builder.frames[node["nodeId"]] = inner.build(frame_nodes, root["nodeId"])
            builder.count += inner.count


async def _subtree(session: ToolSession, selector: str, timeout_ms: int) -> tuple[Session, list[dict[str, Any]], str]:
    from .. import locate

    element = await locate.element(session, selector, timeout_ms, state="attached")
    described = await element.session.send("DOM.describeNode", {"objectId": element.object_id})
    backend_id = described["node"]["backendNodeId"]
    nodes = (await element.session.send("Accessibility.queryAXTree", {"backendNodeId": backend_id}))["nodes"]
    root = next((n for n in nodes if n.get("backendDOMNodeId") == backend_id), None)
    if root is None:
        nodes = (await element.session.send("Accessibility.getPartialAXTree",
                                            {"backendNodeId": backend_id, "fetchRelatives": False}))["nodes"]
        root = nodes[0]
    return element.session, nodes, root["nodeId"]


@tool("accessibility_snapshot", SnapshotInput, SnapshotOutput)
async def accessibility_snapshot(session: ToolSession, args: SnapshotInput) -> SnapshotOutput:
    """The accessibility tree screen readers get (roles, names, states); root limits it to a
    subtree."""
    from .. import locate

    tab = await session.tab()
    locate.check_no_dialog(tab)
    builder = _Builder(args.interesting_only)
    if args.root:
        ax_session, nodes, root_id = await _subtree(session, args.root, args.timeout_ms)
    else:
        frame = await locate.current_frame(session, tab)
        ax_session = frame.session
        in_process = frame.session is tab.session and frame.frame_id != tab.page.main_frame_id
        params = {"frameId": frame.frame_id} if in_process else {}
        nodes = (await ax_session.send("Accessibility.getFullAXTree", params))["nodes"]
        root = next((n for n in nodes if not n.get("parentId")), None)
        if root is None:
            return SnapshotOutput(tree=None, count=0)
        root_id = root["nodeId"]
    await _inline_frames(tab, ax_session, nodes, builder, 0)
    built = builder.build(nodes, root_id)
    return SnapshotOutput(tree=built[0] if built else None, count=builder.count)
