"""dialog_: see and answer the page's alert, confirm, prompt and beforeunload dialogs.

The tab records ``Page.javascriptDialogOpening`` from the moment it opens, and
tools that trigger input stop waiting when a dialog appears, so the agent sees
the dialog here and answers it with dialog_handle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..errors import ToolError
from ..models import NoInput, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession

DialogType = Literal["alert", "confirm", "prompt", "beforeunload"]


class DialogInfo(ToolOutput):
    has_dialog: bool = Field(description="True while a dialog is open in the current tab")
    dialog_type: DialogType | None = Field(default=None, description="alert, confirm, prompt or beforeunload")
    message: str = Field(default="", description="The dialog's text")
    default_value: str = Field(default="", description="A prompt's default answer")


class HandleInput(ToolInput):
    action: Literal["accept", "dismiss"]
    prompt_text: str | None = None


class HandleOutput(ToolOutput):
    message: str = Field(description="What was done")
    dialog_type: DialogType = Field(description="The type of the dialog that was handled")


@tool("dialog_get", NoInput, DialogInfo, effect="reads")
async def dialog_get(session: ToolSession, args: NoInput) -> DialogInfo:
    """The open dialog, if any (page tools fail with dialog_open while one is)."""
    tab = await session.tab()
    dialog = tab.dialog
    if dialog is None:
        return DialogInfo(has_dialog=False)
    kind = dialog.type if dialog.type in ("alert", "confirm", "prompt", "beforeunload") else None
    return DialogInfo(has_dialog=True, dialog_type=kind, message=dialog.message, default_value=dialog.default_value)


#: How long accepting a beforeunload waits for the held navigation to land (seconds).
LEAVE_TIMEOUT = 10.0


@tool("dialog_handle", HandleInput, HandleOutput, records=True, effect="acts", open_world=True)
async def dialog_handle(session: ToolSession, args: HandleInput) -> HandleOutput:
    """Accept or dismiss the open alert, confirm, prompt or beforeunload."""
    import trio

    tab = await session.tab()
    dialog = tab.dialog
    if dialog is None:
        raise ToolError("not_found", "no dialog is open in the current tab; dialog_get reports when one is "
                                     "(trigger it first, e.g. with a click)")
    if args.prompt_text is not None and dialog.type != "prompt":
        raise ToolError("invalid_arguments", f"prompt_text applies to prompt dialogs; this one is a {dialog.type}")
    params: dict[str, object] = {"accept": args.action == "accept"}
    if dialog.type == "prompt" and args.action == "accept":
        # Without an answer, accept what the prompt offered, as pressing OK would.
        params["promptText"] = args.prompt_text if args.prompt_text is not None else dialog.default_value
    document = tab.page.document_loader_id
    await tab.session.send("Page.handleJavaScriptDialog", params)
    # The closed event clears tab.dialog; wait for it so the next call sees the page unblocked.
    with trio.move_on_after(2):
        while tab.dialog is dialog:
            await trio.sleep(0.01)
    if tab.dialog is dialog:  # the event never came: do what its handler would have done
        tab.dialog = None
        tab.dialog_opened = trio.Event()
    if dialog.type == "beforeunload" and args.action == "accept":
        # The navigation the dialog held now goes on; let it land, so the next call does not
        # start a navigation that collides with it (Chromium aborts one of the two).
        await tab.page.wait_for_new_document(document, timeout=LEAVE_TIMEOUT)
    answer = f" with {params['promptText']!r}" if "promptText" in params else ""
    verb = "accepted" if args.action == "accept" else "dismissed"
    return HandleOutput(message=f"{verb} the {dialog.type} ({dialog.message!r}){answer}", dialog_type=dialog.type)
