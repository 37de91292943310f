"""What changed between two snapshots of one document: the answer of ``since``.

A node keeps its identity from one snapshot to the next by the DOM node it stands for (its
backend node id, stable for the node's life), as its element reference does, so a delta
names nodes by the references the full snapshot gave them. The changes come in four lists:

- ``added``: the topmost new nodes, each as a full snapshot would show it (children, refs),
  with ``parent`` (a reference) and ``index`` (its place among the parent's children);
- ``removed``: the topmost nodes gone, ``{ref, role, name}`` (or ``parent`` for a node that
  had no reference);
- ``changed``: nodes whose own fields changed: ``ref``, ``role`` and ``name`` to say which,
  the fields that changed with their new values (null: gone) and ``text_added`` /
  ``text_removed`` for the text directly under the node;
- ``moved``: nodes under another parent, or in another order among their siblings;

and ``focus``, the reference of the node that now has the keyboard focus (``"document"``:
none), when that moved (a node's ``focused`` state is not repeated under ``changed``).

``ancestors`` then places every ``parent`` used: reference → ``{role, name, parent}`` up to
the top of the tree (a node without ``parent`` is at the top). A node that has no reference
in a full snapshot (a list, a form, a paragraph) is given one when a delta has to name it:
the same reference each time, usable as a selector. Page maps (``page_inspect``) are flat:
:func:`items_delta` names items by their reference and places new ones ``after`` another.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

STUB_NAME = 40  # characters of an ancestor's name
_MISSING = object()


@dataclass
class Entry:
    """One node of a flattened tree."""

    node: dict[str, Any]  # the node as sent, children included
    parent: Hashable | None
    backend: int | None = None  # its DOM node, when a reference can be handed out for it
    children: list[Hashable] = field(default_factory=list)  # its child nodes in order
    texts: list[str] = field(default_factory=list)  # its text children in order

    def own(self) -> dict[str, Any]:
        return {k: v for k, v in self.node.items() if k not in ("children", "ref")}


@dataclass
class FlatTree:
    root: Hashable
    entries: dict[Hashable, Entry]  # in document order


def flatten(tree: dict[str, Any], identity: Callable[[dict[str, Any]], tuple[Hashable, int | None] | None]
            ) -> FlatTree:
    """Every node of ``tree`` under its identity (``identity(node)``: a key and, when it can
    have a reference, its backend node id). A node without one is keyed by its place."""
    entries: dict[Hashable, Entry] = {}

    def visit(node: dict[str, Any], parent: Hashable | None, place: int) -> Hashable:
        known = identity(node)
        key, backend = known if known is not None else ((parent, "#", place, node.get("role")), None)
        if key in entries:  # two accessibility nodes of one DOM node: the later one by place
            key, backend = (key, "#", place), None
        entry = Entry(node, parent, backend)
        entries[key] = entry
        for position, child in enumerate(node.get("children") or ()):
            if isinstance(child, dict):
                entry.children.append(visit(child, key, position))
            else:
                entry.texts.append(child)
        return key

    root = visit(tree, None, 0)
    return FlatTree(root, entries)


class _Namer:
    """Hands out the references a delta names nodes by, and collects their ancestors."""

    def __init__(self, tree: FlatTree, ref_for: Callable[[int], str] | None) -> None:
        self.tree = tree
        self.ref_for = ref_for
        self.ancestors: dict[str, dict[str, Any]] = {}

    def ref(self, key: Hashable) -> str | None:
        """The node's reference: the one the snapshot shows, else one handed out now (never
        for the root, the document itself)."""
        entry = self.tree.entries[key]
        ref = entry.node.get("ref")
        if ref is None and key != self.tree.root and entry.backend is not None and self.ref_for is not None:
            ref = self.ref_for(entry.backend)
        return ref

    def place(self, key: Hashable | None) -> dict[str, Any]:
        """``{parent: ref}`` for a node under ``key`` (nothing at the top), its ancestors noted."""
        while key is not None and key != self.tree.root:
            ref = self.ref(key)
            if ref is not None:
                self._note(key, ref)
                return {"parent": ref}
            key = self.tree.entries[key].parent  # no reference (another site's frame): go up
        return {}

    def _note(self, key: Hashable, ref: str) -> None:
        if ref in self.ancestors:
            return
        entry = self.tree.entries[key]
        stub: dict[str, Any] = {"role": entry.node.get("role")}
        name = entry.node.get("name")
        if name:
            stub["name"] = name if len(name) <= STUB_NAME else name[:STUB_NAME - 1] + "…"
        self.ancestors[ref] = stub
        stub.update(self.place(entry.parent))


def tree_delta(old: FlatTree, new: FlatTree, ref_for: Callable[[int], str] | None) -> dict[str, Any] | None:
    """The changes from ``old`` to ``new`` (empty when none), or None when they are not the
    same tree (another root): then only a full snapshot is right."""
    if old.root != new.root:
        return None
    namer = _Namer(new, ref_for)
    added = [k for k, e in new.entries.items() if k not in old.entries and e.parent in old.entries]
    removed = [k for k, e in old.entries.items() if k not in new.entries and e.parent in new.entries]
    moved = _moved(old, new)
    delta: dict[str, Any] = {}
    if added:
        delta["added"] = [{**namer.place(new.entries[k].parent), "index": _index(new, k), **new.entries[k].node}
                          for k in added]
    if removed:
        delta["removed"] = [_gone(old.entries[k], namer) for k in removed]
    changed = [c for c in (_changed(k, old.entries[k], e, namer) for k, e in new.entries.items()
                           if k in old.entries) if c]
    if changed:
        delta["changed"] = changed
    if moved:
        delta["moved"] = [{**_named(k, new.entries[k], namer), **namer.place(new.entries[k].parent),
                           "index": _index(new, k)} for k in moved]
    focus = _focus(new)
    if focus != _focus(old):
        delta["focus"] = "document" if focus is None else namer.ref(focus) or new.entries[focus].node.get("role")
    if namer.ancestors:
        delta["ancestors"] = namer.ancestors
    return delta


def _focus(tree: FlatTree) -> Hashable | None:
    """The innermost focused node (the document counts as no focus)."""
    focused = [k for k, e in tree.entries.items() if e.node.get("focused") and k != tree.root]
    return focused[-1] if focused else None


def _named(key: Hashable, entry: Entry, namer: _Namer) -> dict[str, Any]:
    """``ref``, ``role`` and ``name``: enough to tell which node."""
    out: dict[str, Any] = {}
    ref = namer.ref(key)
    if ref is not None:
        out["ref"] = ref
    out["role"] = entry.node.get("role")
    if entry.node.get("name"):
        out["name"] = entry.node["name"]
    return out


def _index(tree: FlatTree, key: Hashable) -> int:
    """A node's position among its parent's children (text included), as a full snapshot lists them."""
    siblings = tree.entries[tree.entries[key].parent].node.get("children") or []  # type: ignore[index]
    node = tree.entries[key].node
    return next(i for i, child in enumerate(siblings) if child is node)


def _gone(entry: Entry, namer: _Namer) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if entry.node.get("ref"):
        out["ref"] = entry.node["ref"]
    out["role"] = entry.node.get("role")
    if entry.node.get("name"):
        out["name"] = entry.node["name"]
    if "ref" not in out:
        out.update(namer.place(entry.parent))
    return out


def _changed(key: Hashable, old: Entry, new: Entry, namer: _Namer) -> dict[str, Any] | None:
    before, after = old.own(), new.own()
    before.pop("focused", None)  # told once, as the delta's focus
    after.pop("focused", None)
    fields = {k: v for k, v in after.items() if before.get(k, _MISSING) != v}
    fields.update({k: None for k in before if k not in after})
    gained, lost = Counter(new.texts) - Counter(old.texts), Counter(old.texts) - Counter(new.texts)
    if not fields and not gained and not lost:
        return None
    out = _named(key, new, namer)
    out.update(fields)
    if gained:
        out["text_added"] = list(gained.elements())
    if lost:
        out["text_removed"] = list(lost.elements())
    if "ref" not in new.node:  # a node the full snapshot shows without a reference: place it
        out.update(namer.place(new.parent))
    return out


def _moved(old: FlatTree, new: FlatTree) -> list[Hashable]:
    """Nodes of both trees now under another parent, or out of their old order among siblings."""
    moved: set[Hashable] = set()
    for key, entry in new.entries.items():
        before = old.entries.get(key)
        if before is None:
            continue
        if before.parent != entry.parent:
            if entry.parent in old.entries:  # else it is inside an added node, shown there
                moved.add(key)
            continue
        stayed = [k for k in entry.children if old.entries.get(k) is not None and old.entries[k].parent == key]
        if len(stayed) < 2:
            continue
        kept = set(stayed)
        was = [k for k in before.children if k in kept]
        if was == stayed:
            continue
        in_order = {stayed[b.b + i] for b in SequenceMatcher(None, was, stayed, autojunk=False).get_matching_blocks()
                    for i in range(b.size)}
        moved.update(k for k in stayed if k not in in_order)
    return [k for k in new.entries if k in moved]


def items_delta(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> dict[str, Any]:
    """The changes from one page map's items to the next (empty when none), by reference."""
    before = {item["ref"]: item for item in old}
    after = {item["ref"]: item for item in new}
    delta: dict[str, Any] = {}
    added = []
    for i, item in enumerate(new):
        if item["ref"] not in before:
            added.append({**({"after": new[i - 1]["ref"]} if i else {}), **item})
    if added:
        delta["added"] = added
    removed = [{k: v for k, v in item.items() if k in ("ref", "name")} for item in old if item["ref"] not in after]
    if removed:
        delta["removed"] = removed
    changed = []
    for item in new:
        was = before.get(item["ref"])
        if was is None or was == item:
            continue
        fields = {k: v for k, v in item.items() if was.get(k, _MISSING) != v}
        fields.update({k: None for k in was if k not in item})
        changed.append({"ref": item["ref"], **({"name": item["name"]} if "name" in item else {}), **fields})
    if changed:
        delta["changed"] = changed
    stayed = [item["ref"] for item in new if item["ref"] in before]
    was_order = [item["ref"] for item in old if item["ref"] in after]
    if stayed != was_order:
        in_order = {stayed[b.b + i] for b in SequenceMatcher(None, was_order, stayed, autojunk=False).get_matching_blocks()
                    for i in range(b.size)}
        position = {item["ref"]: i for i, item in enumerate(new)}
        delta["moved"] = [{"ref": ref, **({"after": new[position[ref] - 1]["ref"]} if position[ref] else {})}
                          for ref in stayed if ref not in in_order]
    return delta
