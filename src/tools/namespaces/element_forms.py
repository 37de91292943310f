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

# -- page functions ------------------------------------------------------------------------

_CARET_TO_END = r"""
function() {
  this.focus();
  const a = deepActive();
  if (a !== this && !this.contains(a) && !(this.shadowRoot && this.shadowRoot.contains(a)))
    fail('invalid_arguments', 'could not take focus, so typing would go elsewhere');
  if (this.localName !== 'input' && this.localName !== 'textarea') {
    const range = document.createRange();
    range.selectNodeContents(this);
    range.collapse(false);
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
    return true;
  }
  try { const n = this.value.length; this.setSelectionRange(n, n); return true; } catch (e) { return false; }
}
"""


# Returns how to fill: "type" (selected, ready for insertText) or "set" (done in the page).
_FILL_PREPARE = r"""
function(value) {
  const SET_DIRECTLY = {date: '2024-05-31', time: '13:45', 'datetime-local': '2024-05-31T13:45',
    month: '2024-05', week: '2024-W22', color: '#ff8800', range: 'a number within min..max'};
  const tag = this.localName;
  const type = tag === 'input' ? (this.getAttribute('type') || 'text').toLowerCase() : '';
  if (tag === 'select') fail('invalid_arguments', 'is a <select>: use element_select');
  if (type === 'checkbox' || type === 'radio') fail('invalid_arguments', `is a ${type}: use element_check or element_uncheck`);
  if (type === 'file') fail('invalid_arguments', 'is a file input: use element_set_files');
  if (['button', 'submit', 'reset', 'image', 'hidden'].includes(type)) fail('invalid_arguments', `is an input of type ${type}, which holds no text`);
  const control = tag === 'input' || tag === 'textarea';
  const before = control ? this.value : this.innerText;
  if (type in SET_DIRECTLY) {
    this.focus();
    this.value = value;
    if (this.value.toLowerCase() !== value.toLowerCase()) {
      this.value = before;
      fail('invalid_arguments', `cannot hold ${JSON.stringify(value)}: an input of type ${type} takes a value like ${SET_DIRECTLY[type]}`);
    }
    this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    this.dispatchEvent(new Event('change', {bubbles: true}));
    return {mode: 'set', before};
  }
  if (type === 'number' && value.trim() !== '' && !Number.isFinite(Number(value)))
    fail('invalid_arguments', `is a number input and ${JSON.stringify(value)} is not a number`);
  this.focus();
  if (control) this.select();
  else {
    const range = document.createRange();
    range.selectNodeContents(this);
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
  }
  return {mode: 'type', before};
}
"""


# After the text went in: leave and re-enter the field so the browser fires its own (trusted)
# change event, exactly once, as when a user moves on; focus stays on the field.
_FILL_COMMIT = r"""
function(before) {
  const control = this.localName === 'input' || this.localName === 'textarea';
  const now = control ? this.value : this.innerText;
  if (control && now !== before && deepActive() === this) { this.blur(); this.focus(); }
  return now;
}
"""

# What to click to toggle a checkable: null for the element itself, or a label of it when the input
# is hidden, or covered by the label's own decoration (the toggle-switch pattern: a <span> drawn over
# the input inside its <label>). The label is scrolled into view.
_CHECK_CLICK_TARGET = r"""
function() {
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
    && (!e.checkVisibility || e.checkVisibility({visibilityProperty: true})); };
  const input = this.localName === 'label' ? this.control : this;
  const labels = [...((input && input.labels) || [])];
  if (visible(this)) {
    this.scrollIntoView({block: 'center', inline: 'center'});
    const r = this.getBoundingClientRect();
    const hit = this.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const cover = hit && hit !== this && !this.contains(hit) ? labels.find((l) => l.contains(hit)) : null;
    return cover || null;
  }
  for (const l of labels) {
    if (visible(l)) { l.scrollIntoView({block: 'center', inline: 'center'}); return l; }
  }
  fail('timeout', 'is not visible and has no visible label to click');
}
"""


_SELECT = r"""
async function(mode, wanted, timeoutMs) {
  if (this.localName !== 'select') fail('invalid_arguments', `is a <${this.localName}>, not a <select>; `
    + 'for a custom dropdown, click it and then click the option with element_click');
  const byLabel = (options, w) => {
    const low = String(w).replace(/\s+/g, ' ').trim().toLowerCase();
    return options.find((o) => o.label === w || o.text === w)
      || options.find((o) => o.label.replace(/\s+/g, ' ').trim().toLowerCase() === low);
  };
  const pick = (options, w) => mode === 'values' ? options.find((o) => o.value === w)
    : mode === 'labels' ? byLabel(options, w)
    : mode === 'indexes' ? options[w]
    : (options.find((o) => o.value === w) || byLabel(options, w));
  const end = performance.now() + timeoutMs;
  while (true) {
    const options = [...this.options];
    const chosen = wanted.map((w) => pick(options, w));
    const missing = wanted.filter((w, i) => !chosen[i]);
    const disabled = this.matches(':disabled');
    if (!missing.length && !disabled) {
      if (!this.multiple && chosen.length > 1) fail('invalid_arguments', `is a single-choice <select>; give one option, not ${chosen.length}`);
      const off = chosen.find((o) => o.disabled || (o.parentElement && o.parentElement.matches('optgroup[disabled]')));
      if (off) fail('invalid_arguments', `option ${JSON.stringify(off.label)} is disabled`);
      for (const o of options) o.selected = chosen.includes(o);
      if (!chosen.length) this.selectedIndex = -1;
      this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
      this.dispatchEvent(new Event('change', {bubbles: true}));
      const picked = [...this.selectedOptions];
      return {values: picked.map((o) => o.value), labels: picked.map((o) => o.label)};
    }
    if (performance.now() >= end) {
      if (!missing.length) fail('timeout', 'is disabled');
      const have = options.slice(0, 40).map((o, i) => `${i}: ${JSON.stringify(o.value)} (${JSON.stringify(o.label)})`).join(', ');
      fail('element_not_found', `has no option matching ${missing.map((m) => JSON.stringify(m)).join(', ')} `
        + `(by ${mode === 'auto' ? 'value or label' : mode}); its options are ${have || 'none'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
"""


_FILE_INPUT_CHECK = r"""
function(count) {
  if (!(this.localName === 'input' && (this.getAttribute('type') || '').toLowerCase() === 'file')) {
    const inputs = document.querySelectorAll('input[type=file]').length;
    fail('invalid_arguments', `is a <${this.localName}>, not an <input type=file>; element_set_files only sets the files `
      + 'of a file input (it never opens a file chooser). ' + (inputs ? `This page has ${inputs} file input(s), often `
      + "hidden: try the selector 'input[type=file]'." : 'This frame has no file input.'));
  }
  if (count > 1 && !this.multiple) fail('invalid_arguments', `takes one file (no multiple attribute) but ${count} were given`);
  if (this.disabled) fail('invalid_arguments', 'is disabled');
}
"""


_FILE_NAMES = "function() { return [...this.files].map((f) => f.name); }"


_FIELD_KIND = r"""
function() {
  const type = (this.getAttribute('type') || '').toLowerCase();
  if (this.localName === 'select') return 'select';
  if (this.localName === 'input' && ['checkbox', 'radio', 'file'].includes(type)) return type;
  const role = (this.getAttribute('role') || '').trim().split(/\s+/)[0];
  if (['checkbox', 'switch', 'menuitemcheckbox'].includes(role)) return 'checkbox';
  if (['radio', 'menuitemradio'].includes(role)) return 'radio';
  return 'text';
}
"""


# The radio of this one's group whose value (or label) is ``wanted``; null when none is.
_RADIO_IN_GROUP = r"""
function(wanted) {
  let group = [this];
  if (this.localName === 'input' && this.name) {
    const root = this.form || this.getRootNode();
    group = [...root.querySelectorAll('input[type=radio]')].filter((r) => r.name === this.name && r.form === this.form);
  }
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const label = (r) => norm((r.labels && [...r.labels].map((l) => l.textContent).join(' ')) || r.getAttribute('aria-label'));
  return group.find((r) => r.value === wanted) || group.find((r) => label(r) === norm(wanted)) || null;
}
"""


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
