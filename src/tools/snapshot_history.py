"""The snapshots a tab's snapshot tools handed out, so ``since`` can answer with what changed.

``accessibility_snapshot`` and ``page_inspect`` give every answer a ``snapshot_id`` and keep,
per tab and per tool, the last :data:`KEPT` of them: what was sent (the data a delta is
computed against), the document it was taken in and the arguments that shaped it. A later
call with ``since`` (``"last"`` or one of those ids) is answered against that snapshot:

Fewer are kept when they are large: past :data:`MAX_WEIGHT` nodes or items in all, the
oldest go (the newest always stays).

- ``"last"`` is the newest snapshot taken with the same arguments; without one the answer is
  a full snapshot, as without ``since``;
- an id this tab does not hold (never handed out, from another tab or tool, or dropped as
  older than the last :data:`KEPT`) or one taken with other arguments is ``invalid_arguments``
  naming ``since``;
- a snapshot of an earlier document (the tab navigated since) is never diffed: the answer is
  a full snapshot marked ``document_changed``.
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import ToolError

if TYPE_CHECKING:
    from .tab import Tab

KEPT = 8  # snapshots kept per tab and tool
MAX_WEIGHT = 200_000  # nodes or items kept per tab and tool, in all
LAST = "last"
_ids = itertools.count(1)  # one sequence for the process: an id names one snapshot anywhere


@dataclass(frozen=True)
class Snapshot:
    id: str
    document: str | None  # the tab's main document (loader id) when it was taken
    options: tuple[Any, ...]  # the arguments that shaped it; only equal ones compare
    data: Any  # what a later delta is computed against
    weight: int  # its nodes or items


@dataclass(frozen=True)
class Base:
    """What a ``since`` call is answered against: ``snapshot`` is None for a full answer,
    ``document_changed`` says why when the tab left the snapshot's document."""

    snapshot: Snapshot | None
    document_changed: bool = False


class History:
    """One tool's last snapshots in one tab, newest last."""

    def __init__(self, tool: str) -> None:
        self.tool = tool
        self._kept: deque[Snapshot] = deque(maxlen=KEPT)

    def record(self, document: str | None, options: tuple[Any, ...], data: Any, weight: int) -> str:
        snapshot = Snapshot(f"s{next(_ids)}", document, options, data, weight)
        self._kept.append(snapshot)
        while len(self._kept) > 1 and sum(s.weight for s in self._kept) > MAX_WEIGHT:
            self._kept.popleft()
        return snapshot.id

    def base(self, since: str | None, document: str | None, options: tuple[Any, ...],
             option_names: tuple[str, ...] = ()) -> Base:
        """The snapshot ``since`` names, checked against the current document and arguments."""
        if since is None:
            return Base(None)
        if since == LAST:
            found = next((s for s in reversed(self._kept) if s.options == options), None)
            if found is None:
                return Base(None)
        else:
            found = next((s for s in self._kept if s.id == since), None)
            if found is None:
                kept = ", ".join(s.id for s in self._kept) or "none yet"
                raise _since_error(f"{self.tool} has no snapshot {since!r} in this tab (it keeps its last "
                                   f"{KEPT}: {kept}); pass \"last\", or leave since out for a full snapshot")
            if found.options != options:
                differ = [n for n, old, new in zip(option_names, found.options, options, strict=False) if old != new]
                raise _since_error(f"snapshot {since} was taken with other arguments ({', '.join(differ) or 'frame'}); "
                                   "repeat them, or leave since out for a full snapshot")
        if found.document != document:
            return Base(None, document_changed=True)
        return Base(found)


def _since_error(message: str) -> ToolError:
    return ToolError("invalid_arguments", f"since: {message}", [{"field": "since", "message": message}])


def history_of(tab: Tab, tool: str) -> History:
    return tab.extras.setdefault(f"snapshots:{tool}", History(tool))  # type: ignore[no-any-return]
