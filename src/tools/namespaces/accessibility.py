"""accessibility_: the browser's own accessibility tree, compact enough to read.

The tree comes from Chromium's Accessibility domain (what assistive technology
sees), not from a DOM walk. Nodes are shortened to role, name, value and the
states that matter; with interesting_only the unnamed structural wrappers and
the text already spoken by their parent are folded away. Iframes, same-site
and cross-site alike, are inlined under their Iframe node.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import Field, model_serializer

from ..models import MaxChars, Offset, TimeoutMs, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from cdpdriver import Session

    from ..session import ToolSession
    from ..snapshot_delta import FlatTree
    from ..tab import FrameRef, Tab

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
MAX_TEXT = 1000  # characters of one name, value or text; longer ones end in "…"
# Nodes an agent may act on get a reference (``ref``): these roles, and anything focusable.
_TARGETS = {"button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox", "option",
            "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "switch", "slider", "spinbutton",
            "treeitem", "heading", "MenuListOption"}
_NEVER_TARGETS = {"RootWebArea", "WebArea", "Iframe"}
log = logging.getLogger(__name__)


class SnapshotInput(ToolInput):
    interesting_only: bool = True
    root: str | None = Field(default=None, min_length=1)
    max_chars: int = MaxChars
    offset: int = Offset
    timeout_ms: int = TimeoutMs
    since: str | None = Field(default=None, min_length=1)  # "last" or a snapshot_id: tools.snapshot_history


_Changes = list[dict[str, Any]] | None


class SnapshotOutput(ToolOutput):
    """A full snapshot (``tree`` and its counts) or, with ``since``, what changed since that one."""

    snapshot_id: str = Field(description="This snapshot; pass it (or \"last\") as since for what changes next")
    tree: dict[str, Any] | None = Field(default=None, description=(
        "Root node: {role, name?, value?, description?, ref? (use it as a selector), states such as "
        "checked/disabled/expanded/level, children?}; plain strings in children are text; on a later page "
        "the ancestors of its first node come back as {role, name?, continued: true}"))
    count: int | None = Field(default=None, description="Nodes and text items on this page (continued ancestors not counted)")
    total: int | None = Field(default=None, description="Nodes and text items in the whole snapshot")
    truncated: bool | None = Field(default=None, description="True when max_chars cut the snapshot: call again with next_offset")
    next_offset: int | None = Field(default=None, description="The offset of the next page, when truncated")
    document_changed: bool | None = Field(default=None, description=(
        "With since: the tab shows another document (or root) than that snapshot, so this is a full one"))
    since: str | None = Field(default=None, description="A delta: the snapshot it is against")
    unchanged: bool | None = Field(default=None, description="A delta: true when nothing changed")
    added: _Changes = Field(default=None, description=(
        "A delta: the topmost new nodes, as in tree, with parent (a ref; none: at the top) and index among its children"))
    removed: _Changes = Field(default=None, description="A delta: the topmost nodes gone, {ref, role, name} or {role, name, parent}")
    changed: _Changes = Field(default=None, description=(
        "A delta: {ref, role, name, the fields that changed (null: gone), text_added?, text_removed?}"))
    moved: _Changes = Field(default=None, description="A delta: {ref, role, name, parent, index} of nodes put elsewhere")
    focus: str | None = Field(default=None, description=(
        "A delta: the ref that now has keyboard focus (\"document\": none), when focus moved"))
    ancestors: dict[str, dict[str, Any]] | None = Field(default=None, description=(
        "A delta: each parent ref used, as {role, name?, parent?} up to the top"))

    @model_serializer(mode="wrap")
    def _compact(self, handler: Any):  # no return hint: the schema stays the model's
        full = self.count is not None  # a full snapshot keeps tree, even null
        return {k: v for k, v in handler(self).items() if v is not None or (full and k == "tree")}


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


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"


class _Builder:
    """Turns Chromium's flat AX node list into the compact nested tree.

    ``ref_for`` hands out element references for the nodes worth acting on (None: no
    references, for a document rendered by another session, e.g. a cross-site iframe).
    """

    def __init__(self, interesting_only: bool, ref_for: Callable[[int], str] | None = None,
                 keys: dict[int, tuple[Any, int | None, Any]] | None = None, session_id: str = "") -> None:
        self.interesting_only = interesting_only
        self.ref_for = ref_for
        self.count = 0
        # id() of each node built → (its identity across snapshots, its backend id if it can have a
        # reference, the node: kept alive so that its id is not reused while building)
        self.keys = keys if keys is not None else {}
        self.session_id = session_id
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
        return [_clip(clean)]

    def _node(self, node: dict[str, Any], role: str, name: str, value: Any, props: dict[str, Any],
              children: list[Any]) -> dict[str, Any]:
        self.count += 1
        out: dict[str, Any] = {"role": role}
        if name:
            out["name"] = _clip(name)
        if value not in (None, ""):
            out["value"] = _clip(value) if isinstance(value, str) else value
        description = (node.get("description") or {}).get("value")
        if description:
            out["description"] = _clip(str(description))
        if self.ref_for is not None and "backendDOMNodeId" in node and self._worth_targeting(node, role):
            out["ref"] = self.ref_for(int(node["backendDOMNodeId"]))
        if node.get("ignored") and not self.interesting_only:
            out["ignored"] = True
        out.update(props)
        if "valuetext" in out and str(out["valuetext"]) == str(value):  # says nothing the value does not
            del out["valuetext"]
        if role == "listitem" and out.get("level") == 1:
            del out["level"]
        if children:
            out["children"] = children
        if "backendDOMNodeId" in node:
            backend = int(node["backendDOMNodeId"])
            self.keys[id(out)] = ((self.session_id, backend), backend if self.ref_for is not None else None, out)
        return out

    def identity(self, node: dict[str, Any]) -> tuple[Any, int | None] | None:
        """A built node's identity across snapshots and, if it can have a reference, its backend id."""
        known = self.keys.get(id(node))
        return known[:2] if known is not None and known[2] is node else None

    @staticmethod
    def _worth_targeting(node: dict[str, Any], role: str) -> bool:
        if role in _TARGETS:
            return True
        if role in _NEVER_TARGETS or node.get("ignored"):
            return False
        return any(p.get("name") == "focusable" and (p.get("value") or {}).get("value") is True
                   for p in node.get("properties") or [])


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
        # Same session: the iframe's nodes resolve where the page's do, so they get references.
        inner = _Builder(builder.interesting_only, builder.ref_for if frame_session is session else None,
                         builder.keys, frame_session.session_id or "")
        await _inline_frames(tab, frame_session, frame_nodes, inner, depth + 1)
        root = next((n for n in frame_nodes if not n.get("parentId")), None)
        if root is not None:
            builder.frames[node["nodeId"]] = inner.build(frame_nodes, root["nodeId"])
            builder.count += inner.count


async def _subtree(session: ToolSession, selector: str, timeout_ms: int
                   ) -> tuple[FrameRef, list[dict[str, Any]], str]:
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
    return element.frame, nodes, root["nodeId"]


@tool("accessibility_snapshot", SnapshotInput, SnapshotOutput, effect="reads")
async def accessibility_snapshot(session: ToolSession, args: SnapshotInput) -> SnapshotOutput:
    """The accessibility tree screen readers get (roles, names, states), with a ref for each
    control; root limits it to a subtree."""
    return await snapshot(session, args)


async def snapshot(session: ToolSession, args: SnapshotInput) -> SnapshotOutput:
    """The tool's answer, also given after an action (``tools.action_snapshot``): a full snapshot,
    or with ``since`` what changed since that one (``tools.snapshot_delta``)."""
    from .. import locate
    from ..budget import text_size
    from ..errors import ToolError
    from ..snapshot_delta import flatten
    from ..snapshot_history import history_of

    tab = await session.tab()
    locate.check_no_dialog(tab)
    if args.since is not None and args.offset:
        why = "a delta is never paged: leave offset out (or since, to page through a full snapshot)"
        raise ToolError("invalid_arguments", f"since: {why}", [{"field": "since", "message": why}])
    frame, tree, builder = await _build(session, tab, args)
    document = tab.page.document_loader_id
    options = ((frame.session.session_id, frame.frame_id), args.root, args.interesting_only)
    history = history_of(tab, "accessibility_snapshot")
    base = history.base(args.since, document, options, ("frame", "root", "interesting_only"))
    flat = None if tree is None else flatten(tree, builder.identity)
    snapshot_id = history.record(document, options, flat, len(flat.entries) if flat is not None else 0)
    extra: dict[str, Any] = {"snapshot_id": snapshot_id}
    if base.snapshot is not None:
        delta = _changes(base.snapshot.data, flat, builder)
        if delta is None:  # root names another element now: as after a navigation
            extra["document_changed"] = True
        else:  # a delta, unless it would be larger than the full snapshot or the budget
            answer = {**extra, "since": base.snapshot.id, **(delta or {"unchanged": True})}
            if not delta or text_size(answer) <= min(args.max_chars, text_size(tree)):
                return SnapshotOutput(**answer)
    elif base.document_changed:
        extra["document_changed"] = True
    return _page(tree, args.offset, args.max_chars, extra)


def _changes(old: FlatTree | None, new: FlatTree | None, builder: _Builder) -> dict[str, Any] | None:
    """What changed from ``old`` to ``new`` (empty: nothing), None when they are not one tree."""
    from ..snapshot_delta import tree_delta

    if old is None or new is None:
        return {} if old is new else None
    return tree_delta(old, new, builder.ref_for)


async def _build(session: ToolSession, tab: Tab, args: SnapshotInput
                 ) -> tuple[FrameRef, dict[str, Any] | None, _Builder]:
    """The compact tree of the current frame (or of root's element), the frame it was read in and
    the builder that made it (which knows each node's identity)."""
    from .. import locate
    from ..refs import refs_of

    if args.root:
        frame, nodes, root_id = await _subtree(session, args.root, args.timeout_ms)
    else:
        frame = await locate.current_frame(session, tab)
        in_process = frame.session is tab.session and frame.frame_id != tab.page.main_frame_id
        params = {"frameId": frame.frame_id} if in_process else {}
        nodes = (await frame.session.send("Accessibility.getFullAXTree", params))["nodes"]
        root = next((n for n in nodes if not n.get("parentId")), None)
        root_id = root["nodeId"] if root is not None else None
    refs = refs_of(tab)
    builder = _Builder(args.interesting_only, lambda backend_id: refs.ref_for(tab, frame, backend_id),
                       session_id=frame.session.session_id or "")
    if root_id is None:
        return frame, None, builder
    await _inline_frames(tab, frame.session, nodes, builder, 0)
    built = builder.build(nodes, root_id)
    return frame, (built[0] if built else None), builder


def _page(tree: dict[str, Any] | None, offset: int, max_chars: int, extra: dict[str, Any]) -> SnapshotOutput:
    """The entries from ``offset`` on that fit in ``max_chars`` (at least one, so paging moves on);
    ``extra`` are the answer's other fields (its snapshot_id)."""
    from ..budget import fit, text_size, tree_costs, tree_window

    if tree is None:
        return SnapshotOutput(**extra, tree=None, count=0, total=0, truncated=False)
    costs, stubs = tree_costs(tree, offset)
    total = len(costs)
    if offset >= total:
        return SnapshotOutput(**extra, tree=None, count=0, total=total, truncated=False)

    def page(end: int) -> dict[str, Any]:
        more = end < total
        data = {**extra, "tree": tree_window(tree, offset, end), "count": end - offset, "total": total,
                "truncated": more}
        return {**data, "next_offset": end} if more else data

    envelope = text_size({**page(offset + 1), "tree": None, "next_offset": total}) - len("null")
    end = fit(total, offset, costs, max_chars - envelope - stubs, lambda e: text_size(page(e)), max_chars)
    return SnapshotOutput(**page(end))
