"""element_ form controls: type, fill, clear, check, select, upload, fill a whole form.

Text goes in as real input (key events, or ``Input.insertText``), then the
field is committed so the browser fires its own change event. Controls with no
real-input path (a native <select>'s popup, date and colour pickers) are set
in the page and announced with input+change, as the browser itself does when a
user picks from them. ``DOM.setFileInputFiles`` is only ever given an
<input type=file>: on anything else it can kill the tab.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field, model_validator

from ..action_snapshot import SnapshotAfter
from ..errors import ToolError, from_exception
from ..models import LocatorInput, MessageOutput, SelectorInput, TimeoutMs, ToolInput, ToolOutput
from ..registry import tool
from .element import Action, declare_actions, dialog_note, element_handle, page_call, target

if TYPE_CHECKING:
    from ..locate import Element
    from ..session import ToolSession


# -- page functions (js/*.js, run through page_call) ----------------------------------------

_FILE_NAMES = "function() { return [...this.files].map((f) => f.name); }"


# -- inputs and outputs ----------------------------------------------------------------------


class TypeInput(SnapshotAfter, LocatorInput):
    # ``text`` is the text to type here, so it cannot also be the text locator.
    locator_kinds: ClassVar[tuple[str, ...]] = ("selector", "role", "label", "placeholder", "testid", "alt", "title", "xpath")
    text: str


class FillInput(SnapshotAfter, LocatorInput):
    value: str


class FillOutput(ToolOutput):
    message: str
    value: str = Field(description="The field's value after filling (a page may reformat or truncate it)")


class FormField(ToolInput):
    selector: str = Field(min_length=1)
    value: str | bool | list[str]


class FillFormInput(SnapshotAfter):
    fields: list[FormField] = Field(min_length=1)
    timeout_ms: int = TimeoutMs


class FieldError(ToolOutput):
    selector: str
    code: str
    message: str


class FillFormOutput(ToolOutput):
    message: str
    filled: int = Field(description="Fields filled")
    errors: list[FieldError] = Field(description="One entry per field that failed; the other fields were still filled")


class SelectInput(SnapshotAfter, SelectorInput):
    values: list[str] | None = None
    labels: list[str] | None = None
    indexes: list[int] | None = None

    @model_validator(mode="after")
    def _one_group(self) -> SelectInput:
        given = [n for n in ("values", "labels", "indexes") if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of values, labels, indexes" + (f" (got {', '.join(given)})" if given else " (got none)"))
        if any(i < 0 for i in self.indexes or []):
            raise ValueError("indexes must be 0 or more")
        return self


class SelectOutput(ToolOutput):
    message: str
    values: list[str] = Field(description="Values of the options now selected")
    labels: list[str] = Field(description="Labels of the options now selected")


class CheckInput(SnapshotAfter, SelectorInput):
    """element_check and element_uncheck."""


class SetFilesInput(SelectorInput):
    files: list[str]


class SetFilesOutput(ToolOutput):
    message: str
    files: list[str] = Field(description="File names the input now holds")


# -- shared action pieces ----------------------------------------------------------------------


async def fill_element(el: Element, value: str) -> str:
    """Replace the value: select all, insert the text as real input, commit (trusted change)."""
    from cdpdriver.keys import press
    from cdpdriver.scripts import load_script

    from .. import locate

    prepared = await page_call(el, load_script("tools", "fill_prepare"), value)
    if prepared is None:
        return ""  # a focus handler opened a dialog
    if prepared["mode"] == "type":
        session = el.tab.session
        if value:
            await locate.guard_dialog(el.tab, session.send("Input.insertText", {"text": value}))
        elif prepared["before"]:
            await locate.guard_dialog(el.tab, press(session, "Delete"))
    if el.tab.dialog is not None:
        return ""
    return str(await page_call(el, load_script("tools", "fill_commit"), prepared["before"]) or "")


_TRUE = {"true", "on", "yes", "1", "checked", "check"}
_FALSE = {"false", "off", "no", "0", "unchecked", "uncheck", ""}


async def set_checked(el: Element, want: bool, timeout_ms: int,
                      actionable: Callable[[], Awaitable[Element]] | None = None) -> str:
    """Click the checkable only if its state differs, then wait until the state really changed."""
    import trio

    from cdpdriver.scripts import load_script

    state = await page_call(el, load_script("tools", "check_state"))
    word = "checked" if want else "unchecked"
    if state["checked"] == want:
        return f"{el.description} was already {word}"
    if not want and state["kind"] in ("radio", "menuitemradio"):
        raise ToolError("invalid_arguments", f"{el.description} is a radio button: it cannot be unchecked by "
                                             "clicking; check another radio of its group instead")
    label = await page_call(el, load_script("tools", "check_click_target"), by_value=False)
    if label and label.get("objectId"):
        await element_handle(el, label, f"the label of {el.description}").click()
    else:
        await (await actionable() if actionable else el).click()
    if el.tab.dialog is not None:
        return f"clicked {el.description}{dialog_note(el)}"
    deadline = trio.current_time() + timeout_ms / 1000
    while (await page_call(el, load_script("tools", "check_state")))["checked"] != want:
        if trio.current_time() >= deadline:
            raise ToolError("timeout", f"clicked {el.description} but it is still not {word} after {timeout_ms} ms "
                                       "(the page prevented the change or toggles something else)")
        await trio.sleep(0.02)
    return f"{word} {el.description}"


async def select_options(el: Element, mode: str, wanted: list[Any], timeout_ms: int) -> dict[str, list[str]]:
    from cdpdriver.scripts import load_script

    result = await page_call(el, load_script("tools", "select_options"), mode, wanted, timeout_ms)
    return result or {"values": [], "labels": []}


def existing_files(session: ToolSession, files: list[str]) -> list[str]:
    """Absolute paths of the files; relative ones are looked up in the working and output dirs."""
    found = []
    for name in files:
        path = Path(name).expanduser()
        candidates = [path] if path.is_absolute() else [Path.cwd() / path, session.output_root / path]
        hit = next((c for c in candidates if c.is_file()), None)
        if hit is None:
            raise ToolError("invalid_path", f"file {name!r} does not exist (relative paths are looked up in "
                                            f"{Path.cwd()} and {session.output_root}); give an absolute path")
        found.append(str(hit.resolve()))
    return found


async def set_files(session: ToolSession, el: Element, files: list[str]) -> list[str]:
    from cdpdriver.scripts import load_script

    from ..guard.confirm import confirm_upload

    paths = existing_files(session, files)
    await page_call(el, load_script("tools", "file_input_check"), len(paths))  # never hand a non-file-input to CDP: it kills the tab
    await confirm_upload(session, el, paths)  # --confirm-actions
    await el.session.send("DOM.setFileInputFiles", {"files": paths, "objectId": el.object_id})
    return list(await page_call(el, _FILE_NAMES) or [])


# -- the simple actions: locate, wait, act, say what happened ----------------------------------


async def _type(session: ToolSession, el: Element, args: TypeInput) -> str:
    from cdpdriver.keys import press
    from cdpdriver.scripts import load_script

    from .. import inputs, locate

    if not await page_call(el, load_script("tools", "caret_to_end")):
        await press(el.tab.session, "End")  # inputs without selection APIs (email, number)
    await locate.guard_dialog(el.tab, inputs.type_text(el.tab.session, args.text))
    return f"typed {len(args.text)} characters into {el.description}{dialog_note(el)}"


async def _fill(session: ToolSession, el: Element, args: FillInput) -> FillOutput:
    value = await fill_element(el, args.value)
    return FillOutput(message=f"filled {el.description}{dialog_note(el)}", value=value)


async def _clear(session: ToolSession, el: Element, args: SelectorInput) -> str:
    await fill_element(el, "")
    return f"cleared {el.description}{dialog_note(el)}"


async def _check(session: ToolSession, el: Element, args: SelectorInput) -> str:
    return await set_checked(el, True, args.timeout_ms, lambda: target(session, args, "click"))


async def _uncheck(session: ToolSession, el: Element, args: SelectorInput) -> str:
    return await set_checked(el, False, args.timeout_ms, lambda: target(session, args, "click"))


async def _select(session: ToolSession, el: Element, args: SelectInput) -> SelectOutput:
    mode, wanted = next((m, getattr(args, m)) for m in ("values", "labels", "indexes") if getattr(args, m) is not None)
    picked = await select_options(el, mode, wanted, args.timeout_ms)
    return SelectOutput(message=f"selected {picked['labels']} in {el.description}{dialog_note(el)}", **picked)


async def _set_files(session: ToolSession, el: Element, args: SetFilesInput) -> SetFilesOutput:
    names = await set_files(session, el, args.files)
    return SetFilesOutput(message=f"{el.description} now holds {len(names)} file(s)", files=names)


FORM_ACTIONS = [
    Action("element_type", TypeInput, MessageOutput, "edit", _type, """
        Type text after a field's value, key by key.""", effect="acts", open_world=True),
    Action("element_fill", FillInput, FillOutput, "edit", _fill, """
        Replace a text field's value as real input; returns the value it ends with.""", effect="sets"),
    Action("element_clear", SelectorInput, MessageOutput, "edit", _clear, """
        Empty a text field of its value.""", effect="sets"),
    Action("element_check", CheckInput, MessageOutput, "attached", _check, """
        Check a checkbox, radio or switch (or its label) unless checked.""", effect="sets"),
    Action("element_uncheck", CheckInput, MessageOutput, "attached", _uncheck, """
        Uncheck a checkbox or switch unless unchecked.""", effect="sets"),
    Action("element_select", SelectInput, SelectOutput, "attached", _select, """
        Select options of a <select> by values, labels or indexes.""", effect="sets"),
    Action("element_set_files", SetFilesInput, SetFilesOutput, "attached", _set_files, """
        Set the files of an <input type=file>.""", effect="sets"),
]

declare_actions(FORM_ACTIONS)


# -- actions with their own flow --------------------------------------------------------------


async def _fill_field(session: ToolSession, field: FormField, timeout_ms: int) -> None:
    """Fill one form field by what it is: text, select, checkbox, radio group or file input."""
    from cdpdriver.scripts import load_script

    el = await target(session, field.selector, "attached", timeout_ms)
    kind = await page_call(el, load_script("tools", "field_kind"))
    value = field.value
    if kind == "select":
        await select_options(el, "auto", value if isinstance(value, list) else [str(value)], timeout_ms)
    elif kind == "file":
        await set_files(session, el, value if isinstance(value, list) else [str(value)])
    elif isinstance(value, list):
        raise ToolError("invalid_arguments", f"a list value only fits a multiple <select> or a file input, not a {kind}")
    elif kind == "checkbox":
        await set_checked(el, _truth(el, value, await page_call(el, "function() { return this.value || ''; }")),
                          timeout_ms, lambda: target(session, field.selector, "click", timeout_ms))
    elif kind == "radio":
        await _pick_radio(session, el, field, timeout_ms)
    else:
        await fill_element(await target(session, field.selector, "edit", timeout_ms), str(value))


def _truth(el: Element, value: str | bool, own_value: str) -> bool:
    if isinstance(value, bool):
        return value
    word = value.strip().lower()
    if word in _TRUE or (own_value and value == own_value):
        return True
    if word in _FALSE:
        return False
    raise ToolError("invalid_arguments", f"{el.description} is a checkbox: give true or false (got {value!r})")


async def _pick_radio(session: ToolSession, el: Element, field: FormField, timeout_ms: int) -> None:
    from cdpdriver.scripts import load_script

    value = field.value
    if isinstance(value, bool) or str(value).strip().lower() in _TRUE:
        if value is False:
            raise ToolError("invalid_arguments", f"{el.description} is a radio button: give the value of the radio to pick")
        await set_checked(el, True, timeout_ms, lambda: target(session, field.selector, "click", timeout_ms))
        return
    radio = await page_call(el, load_script("tools", "radio_in_group"), str(value), by_value=False)
    if not radio or not radio.get("objectId"):
        raise ToolError("element_not_found", f"{el.description}: no radio of its group has the value or label {value!r}")
    await set_checked(element_handle(el, radio, f"the radio {value!r} of {el.description}"), True, timeout_ms)


@tool("element_fill_form", FillFormInput, FillFormOutput, records=True, effect="sets")
async def element_fill_form(session: ToolSession, args: FillFormInput) -> FillFormOutput:
    """Fill many fields of any kind; failures are listed in errors, the rest still filled."""
    filled, errors = 0, []
    for field in args.fields:
        try:
            await _fill_field(session, field, args.timeout_ms)
            filled += 1
        except Exception as exc:  # one bad field is reported, the others still get filled
            error = from_exception(exc)
            if error.code in ("no_browser", "target_closed", "dialog_open"):
                raise
            errors.append(FieldError(selector=field.selector, code=error.code, message=error.message))
    message = f"filled {filled} of {len(args.fields)} fields" + (f"; {len(errors)} failed" if errors else "")
    return FillFormOutput(message=message, filled=filled, errors=errors)
