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
from typing import Any, ClassVar

import trio
from pydantic import Field, model_validator

from cdpdriver.scripts import load_script

from .. import inputs, locate
from ..errors import ToolError, from_exception
from ..models import LocatorInput, MessageOutput, SelectorInput, ToolInput, ToolOutput
from ..registry import tool
from ..session import ToolSession
from .element import (
    CHECK_STATE_JS,
    Action,
    Element,
    declare_actions,
    dialog_note,
    element_handle,
    page_call,
    target,
)

# -- page functions (js/*.js, run through page_call) ----------------------------------------

_CARET_TO_END = load_script("tools", "caret_to_end")
_FILL_PREPARE = load_script("tools", "fill_prepare")  # "type" (ready for insertText) or "set" (done)
_FILL_COMMIT = load_script("tools", "fill_commit")  # the browser's own change event, once
_CHECK_CLICK_TARGET = load_script("tools", "check_click_target")  # the input, or its label
_SELECT = load_script("tools", "select_options")
_FILE_INPUT_CHECK = load_script("tools", "file_input_check")
_FILE_NAMES = "function() { return [...this.files].map((f) => f.name); }"
_FIELD_KIND = load_script("tools", "field_kind")
_RADIO_IN_GROUP = load_script("tools", "radio_in_group")


# -- inputs and outputs ----------------------------------------------------------------------


class TypeInput(LocatorInput):
    # ``text`` is the text to type here, so it cannot also be the text locator.
    locator_kinds: ClassVar[tuple[str, ...]] = ("selector", "role", "label", "placeholder", "testid", "alt", "title", "xpath")
    text: str = Field(description="Text to type after the current value (one real key event per character)")


class FillInput(LocatorInput):
    value: str = Field(description="The new value; replaces what the field holds (empty string clears it)")


class FillOutput(ToolOutput):
    message: str
    value: str = Field(description="The field's value after filling (a page may reformat or truncate it)")


class FormField(ToolInput):
    selector: str = Field(min_length=1, description="CSS selector of the field")
    value: str | bool | list[str] = Field(description=(
        "Text for a text field; option value or label for a <select> (a list for a multiple select); "
        "true/false for a checkbox; the value or label of the radio to pick; a path (or list) for a file input"))


class FillFormInput(ToolInput):
    fields: list[FormField] = Field(min_length=1, description="Fields to fill, in order")
    timeout_ms: int = Field(default=5000, ge=0, le=600_000, description="How long to wait for each field, in milliseconds")


class FieldError(ToolOutput):
    selector: str
    code: str
    message: str


class FillFormOutput(ToolOutput):
    message: str
    filled: int = Field(description="Fields filled")
    errors: list[FieldError] = Field(description="One entry per field that failed; the other fields were still filled")


class SelectInput(SelectorInput):
    values: list[str] | None = Field(default=None, description="Option values to select")
    labels: list[str] | None = Field(default=None, description="Option labels (visible text) to select")
    indexes: list[int] | None = Field(default=None, description="0-based option indexes to select")

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


class SetFilesInput(SelectorInput):
    files: list[str] = Field(description="Paths of existing files (an empty list clears the selection)")


class SetFilesOutput(ToolOutput):
    message: str
    files: list[str] = Field(description="File names the input now holds")


# -- shared action pieces ----------------------------------------------------------------------


async def fill_element(el: Element, value: str) -> str:
    """Replace the value: select all, insert the text as real input, commit (trusted change)."""
    prepared = await page_call(el, _FILL_PREPARE, value)
    if prepared is None:
        return ""  # a focus handler opened a dialog
    if prepared["mode"] == "type":
        session = el.tab.session
        if value:
            await locate.guard_dialog(el.tab, session.send("Input.insertText", {"text": value}))
        elif prepared["before"]:
            await locate.guard_dialog(el.tab, inputs.press(session, "Delete"))
    if el.tab.dialog is not None:
        return ""
    return str(await page_call(el, _FILL_COMMIT, prepared["before"]) or "")


_TRUE = {"true", "on", "yes", "1", "checked", "check"}
_FALSE = {"false", "off", "no", "0", "unchecked", "uncheck", ""}


async def set_checked(el: Element, want: bool, timeout_ms: int,
                      actionable: Callable[[], Awaitable[Element]] | None = None) -> str:
    """Click the checkable only if its state differs, then wait until the state really changed."""
    state = await page_call(el, CHECK_STATE_JS)
    word = "checked" if want else "unchecked"
    if state["checked"] == want:
        return f"{el.description} was already {word}"
    if not want and state["kind"] in ("radio", "menuitemradio"):
        raise ToolError("invalid_arguments", f"{el.description} is a radio button: it cannot be unchecked by "
                                             "clicking; check another radio of its group instead")
    label = await page_call(el, _CHECK_CLICK_TARGET, by_value=False)
    if label and label.get("objectId"):
        await element_handle(el, label, f"the label of {el.description}").click()
    else:
        await (await actionable() if actionable else el).click()
    if el.tab.dialog is not None:
        return f"clicked {el.description}{dialog_note(el)}"
    deadline = trio.current_time() + timeout_ms / 1000
    while (await page_call(el, CHECK_STATE_JS))["checked"] != want:
        if trio.current_time() >= deadline:
            raise ToolError("timeout", f"clicked {el.description} but it is still not {word} after {timeout_ms} ms "
                                       "(the page prevented the change or toggles something else)")
        await trio.sleep(0.02)
    return f"{word} {el.description}"


async def select_options(el: Element, mode: str, wanted: list[Any], timeout_ms: int) -> dict[str, list[str]]:
    result = await page_call(el, _SELECT, mode, wanted, timeout_ms)
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
    paths = existing_files(session, files)
    await page_call(el, _FILE_INPUT_CHECK, len(paths))  # never hand a non-file-input to CDP: it kills the tab
    await el.session.send("DOM.setFileInputFiles", {"files": paths, "objectId": el.object_id})
    return list(await page_call(el, _FILE_NAMES) or [])


# -- the simple actions: locate, wait, act, say what happened ----------------------------------


async def _type(session: ToolSession, el: Element, args: TypeInput) -> str:
    if not await page_call(el, _CARET_TO_END):
        await inputs.press(el.tab.session, "End")  # inputs without selection APIs (email, number)
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
        Type text at the end of an input, textarea or contenteditable, one real key event per character,
        so keydown/keypress/input/keyup handlers run as for a person typing. Keeps the current value
        (use element_fill to replace it). A newline presses Enter."""),
    Action("element_fill", FillInput, FillOutput, "edit", _fill, """
        Replace the value of an input, textarea or contenteditable: focus, select all, insert the new text
        as real input (input events fire), then commit it so a trusted change event fires too. Returns the
        value the field ends with. Date, time, colour and range inputs are set directly with input and
        change; use element_select for <select> and element_check for checkboxes."""),
    Action("element_clear", SelectorInput, MessageOutput, "edit", _clear, """
        Empty an input, textarea or contenteditable (select all, Delete, then commit with a change
        event)."""),
    Action("element_check", SelectorInput, MessageOutput, "attached", _check, """
        Check a checkbox, radio button or role=checkbox/radio/switch element (or the label of one). Clicks
        only when it is unchecked, then waits until it reports checked; a hidden styled input is toggled
        through its visible label. Fails clearly for elements that are not checkable."""),
    Action("element_uncheck", SelectorInput, MessageOutput, "attached", _uncheck, """
        Uncheck a checkbox or role=checkbox/switch element: clicks only when it is checked, then waits until
        it reports unchecked. Radio buttons cannot be unchecked: check another radio of the group."""),
    Action("element_select", SelectInput, SelectOutput, "attached", _select, """
        Select options of a <select> by values, labels or indexes (exactly one of them; several for a
        multiple select), waiting for options that load late, then fire input and change. Returns the
        values and labels now selected; the error lists the options when one is missing."""),
    Action("element_set_files", SetFilesInput, SetFilesOutput, "attached", _set_files, """
        Put files into an <input type=file> (it may be hidden) as if chosen in the file dialog; the page
        gets input and change events. The paths must exist. Any other element is refused: target the file
        input itself, never the button that opens a chooser."""),
]

declare_actions(FORM_ACTIONS)


# -- actions with their own flow --------------------------------------------------------------


async def _fill_field(session: ToolSession, field: FormField, timeout_ms: int) -> None:
    """Fill one form field by what it is: text, select, checkbox, radio group or file input."""
    el = await target(session, field.selector, "attached", timeout_ms)
    kind = await page_call(el, _FIELD_KIND)
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
    value = field.value
    if isinstance(value, bool) or str(value).strip().lower() in _TRUE:
        if value is False:
            raise ToolError("invalid_arguments", f"{el.description} is a radio button: give the value of the radio to pick")
        await set_checked(el, True, timeout_ms, lambda: target(session, field.selector, "click", timeout_ms))
        return
    radio = await page_call(el, _RADIO_IN_GROUP, str(value), by_value=False)
    if not radio or not radio.get("objectId"):
        raise ToolError("element_not_found", f"{el.description}: no radio of its group has the value or label {value!r}")
    await set_checked(element_handle(el, radio, f"the radio {value!r} of {el.description}"), True, timeout_ms)


@tool("element_fill_form", FillFormInput, FillFormOutput, records=True)
async def element_fill_form(session: ToolSession, args: FillFormInput) -> FillFormOutput:
    """Fill several form fields in one call: text fields get their text, <select>s the option with that
    value or label, checkboxes true/false, radio groups the radio with that value or label, file inputs a
    path. Every field is tried: failures are listed in errors (selector, code, message) and do not stop the
    rest; filled counts the successes. timeout_ms applies to each field."""
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
