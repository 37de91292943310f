"""state_: named snapshots of cookies, localStorage and sessionStorage, kept as files.

A snapshot is the storage state of ``storage_get_state`` written to
``states/<name>.json`` in the output directory, so it survives the server and
can also be passed to ``storage_set_state``. Capture and restore are
``tools.state_snapshot``'s; this module only names, stores and finds them.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from ..errors import ToolError
from ..models import MessageOutput, NoInput, ToolInput, ToolOutput
from ..registry import tool
from ..state_snapshot import RestoreOutput, capture_state, parse_state, restore_state

if TYPE_CHECKING:
    from ..session import ToolSession


STATES_DIR = "states"
NAME_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"


class NameInput(ToolInput):
    name: str = Field(pattern=NAME_PATTERN)


def _state_file(session: ToolSession, name: str) -> Path:
    return session.output_path(f"{STATES_DIR}/{name}.json", f"{name}.json")


def _existing(session: ToolSession, name: str) -> Path:
    path = _state_file(session, name)
    if not path.is_file():
        saved = ", ".join(_names(session)) or "none"
        raise ToolError("not_found", f"no saved state named {name!r} (saved: {saved}); create it with state_save")
    return path


def _names(session: ToolSession) -> list[str]:
    folder = session.output_root / STATES_DIR
    return sorted(p.stem for p in folder.glob("*.json") if p.is_file()) if folder.is_dir() else []


class SaveOutput(MessageOutput):
    path: str = Field(description="The saved state file")
    cookies: int = Field(description="Cookies in the snapshot")
    origins: list[str] = Field(description="Origins whose storage is in the snapshot")


@tool("state_save", NameInput, SaveOutput, effect="deletes")
async def state_save(session: ToolSession, args: NameInput) -> SaveOutput:
    """Save cookies and web storage under a name, in a file."""
    path = _state_file(session, args.name)
    state = await capture_state(session)
    tab = await session.tab()
    document = {"name": args.name, "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "url": await tab.url(),
                **state.model_dump(mode="json")}
    partial = path.with_suffix(".json.partial")
    partial.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, path)
    origins = [o.origin for o in state.origins]
    return SaveOutput(message=f"saved state {args.name!r}: {len(state.cookies)} cookies, {len(origins)} origins",
                      path=str(path), cookies=len(state.cookies), origins=origins)


@tool("state_load", NameInput, RestoreOutput, effect="deletes")
async def state_load(session: ToolSession, args: NameInput) -> RestoreOutput:
    """Restore a saved state; reload afterwards."""
    path = _existing(session, args.name)
    try:
        state = parse_state(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ToolError("invalid_arguments", f"{path} is not a usable state file ({exc}); save it again") from None
    summary = await restore_state(session, state)
    return RestoreOutput(message=f"state {args.name!r}: {summary.message()}", cookies=summary.cookies,
                         origins=summary.origins)


class ListOutput(ToolOutput):
    states: list[str] = Field(description="Saved state names, sorted")
    count: int


@tool("state_list", NoInput, ListOutput, effect="reads")
async def state_list(session: ToolSession, args: NoInput) -> ListOutput:
    """The saved state names."""
    names = _names(session)
    return ListOutput(states=names, count=len(names))


@tool("state_delete", NameInput, MessageOutput, effect="deletes")
async def state_delete(session: ToolSession, args: NameInput) -> MessageOutput:
    """Delete a saved state."""
    _existing(session, args.name).unlink()
    return MessageOutput(message=f"deleted state {args.name!r}")
