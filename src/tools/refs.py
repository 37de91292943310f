"""Element references: the short ``e12`` an agent copies from a snapshot into any selector.

``accessibility_snapshot`` and ``page_inspect`` hand out references; ``locate.find``
resolves them, so every tool that takes a selector takes a reference too. A reference
names one DOM node (its backend node id, stable for the node's life) of the document the
tab showed when it was handed out. It is stale once the node leaves the DOM or the tab
navigates, and the numbers only grow within a tab, so a stale reference can never come
to name another element.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import SNAPSHOT_AGAIN, ToolError, stale_reference

if TYPE_CHECKING:
    from .tab import FrameRef, Tab

REF = re.compile(r"e([1-9][0-9]{0,8})")


def is_ref(selector: str) -> bool:
    """True for ``e12``: no HTML element is named so, so no CSS selector is lost."""
    return REF.fullmatch(selector) is not None


@dataclass(frozen=True)
class RefTarget:
    backend_node_id: int
    frame: FrameRef  # where the node was seen: the session that renders it, and its offset
    document: str | None  # the tab's main document (loader id) at the time


class Refs:
    """The references of one tab: handed out in increasing order, one per node per document."""

    def __init__(self) -> None:
        self._next = 1
        self._first_of_document = 1
        self._document: str | None = None
        self._targets: dict[str, RefTarget] = {}
        self._by_node: dict[tuple[str | None, int], str] = {}

    def ref_for(self, tab: Tab, frame: FrameRef, backend_node_id: int) -> str:
        """The node's reference, the same one each time it is asked for within a document."""
        document = tab.page.document_loader_id
        if document != self._document:  # a new document: earlier references are all stale
            self._document, self._first_of_document = document, self._next
            self._targets.clear()
            self._by_node.clear()
        key = (frame.session.session_id, backend_node_id)
        ref = self._by_node.get(key)
        if ref is None:
            ref = f"e{self._next}"
            self._next += 1
            self._by_node[key] = ref
            self._targets[ref] = RefTarget(backend_node_id, frame, document)
        return ref

    def target(self, tab: Tab, ref: str) -> RefTarget:
        """What ``ref`` names now; a ``stale_reference`` error once its document is gone."""
        number = int(ref[1:])
        if number >= self._next:
            raise ToolError("element_not_found", f"there is no reference {ref} in this tab; {SNAPSHOT_AGAIN}")
        target = self._targets.get(ref)
        if target is None or number < self._first_of_document or target.document != tab.page.document_loader_id:
            raise stale_reference(ref, "the page has navigated since it was handed out")
        return target


def refs_of(tab: Tab) -> Refs:
    return tab.extras.setdefault("refs", Refs())  # type: ignore[no-any-return]
