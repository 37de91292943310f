"""``snapshot`` on the tools that change the page: what the action changed, in the same call.

The tools that change the page (element_click, element_fill, page_navigate, input_keyboard_press…)
take ``snapshot``: ``"delta"`` adds to their result, as ``snapshot``, what
``accessibility_snapshot`` with ``since: "last"`` answers right after the action (what changed
since the tab's last accessibility snapshot; a full snapshot when there is none or the page
navigated), ``"full"`` a full snapshot. Either becomes the tab's last snapshot, so the next
delta is against it. Their input models take :class:`SnapshotAfter`; the registry does the rest
(:func:`watch` around the handler, :func:`output_schema` for the listing), so no tool does either
itself. A snapshot that fails leaves the action's result whole: ``snapshot`` is then the error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from .models import ToolInput

if TYPE_CHECKING:
    from .session import ToolSession
    from .tab import Tab

SETTLE_S = 1.0  # how long a navigation the action asked for may take to commit and parse

OUTPUT_FIELD = {"type": "object", "description": (
    "With snapshot: accessibility_snapshot's answer after the action (since the last one for delta), "
    "or {error} if it failed")}


class SnapshotAfter(ToolInput):
    """Mixed into the input of a tool that changes the page."""

    snapshot: Literal["delta", "full"] | None = Field(default=None)


def output_schema(input_model: type[Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with the ``snapshot`` result when the tool takes the argument."""
    if not (isinstance(input_model, type) and issubclass(input_model, SnapshotAfter)):
        return schema
    return {**schema, "properties": {**schema.get("properties", {}), "snapshot": OUTPUT_FIELD}}


@dataclass
class Watch:
    mode: Literal["delta", "full"]
    tab: Tab | None  # the current tab before the action, and how many navigations it had asked for
    requested: int

    async def snapshot(self, session: ToolSession) -> dict[str, Any]:
        """The snapshot after the action, as the ``snapshot`` field of its result."""
        from .errors import from_exception
        from .namespaces.accessibility import SnapshotInput, snapshot

        try:
            await self._settle(session)
            answer = await snapshot(session, SnapshotInput(since="last" if self.mode == "delta" else None))
        except Exception as exc:  # the action happened: its result stands, with the reason there is no snapshot
            return from_exception(exc).body()
        return answer.model_dump(mode="json")

    async def _settle(self, session: ToolSession) -> None:
        """Wait (briefly) for a navigation the action asked for to commit and its document to parse."""
        import trio

        tab = await session.tab()
        if tab is not self.tab:
            return
        with trio.move_on_after(SETTLE_S):
            while not tab.gone and tab.dialog is None and (
                    tab.navigation_pending(self.requested)
                    or (tab.navigations_committed > self.requested and not tab.document_parsed)):
                await tab.changed.wait()


def watch(session: ToolSession, args: Any) -> Watch | None:
    """Before the action: a watch when the call asked for a snapshot, else None."""
    if not isinstance(args, SnapshotAfter) or args.snapshot is None:
        return None
    tab = session.tabs[session.current] if 0 <= session.current < len(session.tabs) else None
    return Watch(args.snapshot, tab, tab.navigations_requested if tab is not None else 0)
