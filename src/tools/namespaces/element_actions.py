"""element_ actions: click, type, fill, select, check, upload, drag… with real input events.

Pointer and keyboard actions go through ``Input.dispatch*`` at the element's
centre once it is actionable; only element_dispatch_event builds a synthetic
DOM event. Controls with no real-input path (a native <select>'s popup, date
and colour pickers) are set in the page and announced with input+change, as
the browser itself does when a user picks from them.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

import trio
from pydantic import BaseModel, Field, field_validator, model_validator

from .. import inputs, locate
from ..errors import ToolError, from_exception
from ..keys import parse_combo
from ..models import (
    BoundingBox,
    LocatorInput,
    MessageOutput,
    SelectorInput,
    TimeoutMs,
    ToolInput,
    ToolOutput,
)
from ..registry import tool
from ..session import ToolSession
from .element import (
    CHECK_STATE_JS,
    Element,
    Wait,
    declare,
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

_FOCUS = r"""
function() {
  this.focus();
  const a = deepActive();
  if (a === this || this.contains(a) || (this.shadowRoot && this.shadowRoot.contains(a))) return '';
  return a ? a.localName + (a.id ? '#' + a.id : '') : 'nothing';
}
"""

_SCROLL_INTO_VIEW = r"""
function() {
  if (this.scrollIntoViewIfNeeded) this.scrollIntoViewIfNeeded(true);
  else this.scrollIntoView({block: 'center', inline: 'center'});
}
"""

# The element to click to toggle a checkable: itself when visible, else a visible label of it
# (styled checkboxes hide the input and show the label), scrolled into view.
_CHECK_CLICK_TARGET = r"""
function() {
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
    && (!e.checkVisibility || e.checkVisibility({visibilityProperty: true})); };
  if (visible(this)) return null;
  const input = this.localName === 'label' ? this.control : this;
  for (const l of (input && input.labels) || []) {
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

_EVENT_CLASSES = r"""
function(type, init) {
  const CLASSES = [
    [/^(click|dblclick|auxclick|contextmenu|mouse(down|up|move|over|out|enter|leave))$/, 'MouseEvent'],
    [/^(pointer\w+|gotpointercapture|lostpointercapture)$/, 'PointerEvent'],
    [/^key(down|up|press)$/, 'KeyboardEvent'], [/^(focus|blur|focusin|focusout)$/, 'FocusEvent'],
    [/^(input|beforeinput)$/, 'InputEvent'], [/^(drag\w*|drop)$/, 'DragEvent'], [/^wheel$/, 'WheelEvent'],
    [/^touch(start|end|move|cancel)$/, 'TouchEvent'], [/^composition(start|update|end)$/, 'CompositionEvent'],
    [/^(copy|cut|paste)$/, 'ClipboardEvent'], [/^animation\w+$/, 'AnimationEvent'],
    [/^transition\w+$/, 'TransitionEvent'], [/^submit$/, 'SubmitEvent'],
  ];
  const options = Object.assign({bubbles: true, cancelable: true, composed: true}, init || {});
  let name = 'detail' in options ? 'CustomEvent' : 'Event';
  for (const [pattern, cls] of CLASSES) if (pattern.test(type) && window[cls]) { name = cls; break; }
  if (name === 'DragEvent' && options.dataTransfer && !(options.dataTransfer instanceof DataTransfer)) {
    const data = new DataTransfer();
    for (const [k, v] of Object.entries(options.dataTransfer)) data.setData(k, String(v));
    options.dataTransfer = data;
  }
  const event = new window[name](type, options);
  const notCancelled = this.dispatchEvent(event);
  return {event_class: name, default_prevented: !notCancelled};
}
"""


# -- inputs and outputs ----------------------------------------------------------------------


class ClickInput(LocatorInput):
    button: Literal["left", "right", "middle"] = Field(default="left", description="Mouse button to click with")


class TypeInput(LocatorInput):
    # ``text`` is the text to type here, so it cannot also be the text locator.
    locator_kinds: ClassVar[tuple[str, ...]] = ("selector", "role", "label", "placeholder", "testid", "alt", "title", "xpath")
    text: str = Field(description="Text to type after the current value (one real key event per character)")


class FillInput(LocatorInput):
    value: str = Field(description="The new value; replaces what the field holds (empty string clears it)")


class FillOutput(ToolOutput):
    message: str
    value: str = Field(description="The field's value after filling (a page may reformat or truncate it)")


class PressInput(LocatorInput):
    key: str = Field(min_length=1, description="Key or combo, e.g. Enter, Tab, ArrowDown, Control+A, Shift+Tab")

    @field_validator("key")
    @classmethod
    def _known_key(cls, value: str) -> str:
        parse_combo(value)  # UnknownKey is a ValueError: invalid_arguments naming ``key``
        return value


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


class DragInput(ToolInput):
    source_selector: str = Field(min_length=1, description="CSS selector of the element to drag")
    target_selector: str = Field(min_length=1, description="CSS selector of the element to drop on (its centre)")
    steps: int = Field(default=10, ge=1, le=200, description="Intermediate mouse moves on the way")
    timeout_ms: int = TimeoutMs


class DispatchInput(SelectorInput):
    event_type: str = Field(min_length=1, description="DOM event type, e.g. click, input, keydown, my-custom-event")
    event_init: dict[str, Any] = Field(default_factory=dict, description=(
        "Event constructor options (bubbles/cancelable/composed default true; detail makes a CustomEvent; "
        "dataTransfer may be an object of type → data)"))


class DispatchOutput(ToolOutput):
    message: str
    event_class: str = Field(description="The constructor used, e.g. MouseEvent, KeyboardEvent, CustomEvent")
    default_prevented: bool = Field(description="True when a listener called preventDefault()")


class EvaluateInput(SelectorInput):
    function: str = Field(min_length=1, description="JavaScript function source, e.g. '(el, arg) => el.dataset.id'; it is called with the element (also as this) and arg")
    arg: Any = Field(default=None, description="A JSON value passed as the second argument")


class EvaluateOutput(ToolOutput):
    result: Any = Field(description="The function's JSON-serializable return value (promises are awaited)")


class ScreenshotInput(SelectorInput):
    format: Literal["base64", "file"] = Field(default="base64", description="Return the PNG inline (base64) or write it to a file")
    path: str | None = Field(default=None, description="File path inside the output directory (format=file)")


class ScreenshotOutput(ToolOutput):
    data: str | None = Field(description="Base64 PNG (format=base64)")
    path: str | None = Field(default=None, description="Where the PNG was written (format=file)")
    width: int = Field(description="Image width in pixels")
    height: int = Field(description="Image height in pixels")


class ScrollOutput(ToolOutput):
    message: str
    box: BoundingBox = Field(description="The element's box after scrolling, in CSS px of the viewport")


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


async def _tap(session: Any, x: float, y: float) -> None:
    await session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    await session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


# -- the simple actions: locate, wait, act, say what happened ----------------------------------


async def _click(session: ToolSession, el: Element, args: ClickInput) -> str:
    await el.click(button=args.button)
    return f"clicked {el.description}" + ("" if args.button == "left" else f" with the {args.button} button") + dialog_note(el)


async def _double_click(session: ToolSession, el: Element, args: SelectorInput) -> str:
    await el.click(click_count=2)
    return f"double-clicked {el.description}{dialog_note(el)}"


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


async def _press(session: ToolSession, el: Element, args: PressInput) -> str:
    elsewhere = await page_call(el, _FOCUS)
    await locate.guard_dialog(el.tab, inputs.press(el.tab.session, args.key))
    note = f" (it cannot take focus, so the key went to {elsewhere})" if elsewhere else ""
    return f"pressed {args.key} on {el.description}{note}{dialog_note(el)}"


async def _hover(session: ToolSession, el: Element, args: SelectorInput) -> str:
    x, y = await el.center()
    await inputs.mouse_move(el.tab.session, el.tab.mouse, x, y)
    return f"the mouse is over {el.description} at ({x:.0f}, {y:.0f})"


async def _focus(session: ToolSession, el: Element, args: SelectorInput) -> str:
    elsewhere = await page_call(el, _FOCUS)
    if elsewhere:
        raise ToolError("invalid_arguments", f"{el.description} cannot take focus (focus is on {elsewhere}); "
                                             "it is not focusable: target a control inside it")
    return f"focused {el.description}"


async def _tap_element(session: ToolSession, el: Element, args: SelectorInput) -> str:
    x, y = await el.center()
    await locate.guard_dialog(el.tab, _tap(el.tab.session, x, y))
    return f"tapped {el.description} at ({x:.0f}, {y:.0f}){dialog_note(el)}"


async def _scroll(session: ToolSession, el: Element, args: SelectorInput) -> ScrollOutput:
    await page_call(el, _SCROLL_INTO_VIEW)
    return ScrollOutput(message=f"scrolled {el.description} into view", box=BoundingBox(**await el.box()))


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


async def _dispatch(session: ToolSession, el: Element, args: DispatchInput) -> DispatchOutput:
    result = await page_call(el, _EVENT_CLASSES, args.event_type, args.event_init)
    if result is None:
        return DispatchOutput(message=f"dispatched {args.event_type} on {el.description}{dialog_note(el)}",
                              event_class="", default_prevented=False)
    return DispatchOutput(message=f"dispatched a {result['event_class']} {args.event_type!r} on {el.description}", **result)


async def _evaluate(session: ToolSession, el: Element, args: EvaluateInput) -> EvaluateOutput:
    source = args.function.strip().rstrip(";")
    wrapper = ("function(arg) { const fn = (" + source + "\n); if (typeof fn !== 'function') "
               "fail('invalid_arguments', 'was given a function argument that is not a function; write e.g. (el) => el.id');"
               " return fn.call(this, this, arg); }")
    return EvaluateOutput(result=await page_call(el, wrapper, args.arg))


async def _screenshot(session: ToolSession, el: Element, args: ScreenshotInput) -> ScreenshotOutput:
    await page_call(el, _SCROLL_INTO_VIEW)
    box = await el.box()
    if box["width"] < 1 or box["height"] < 1:
        raise ToolError("invalid_arguments", f"{el.description} has an empty box ({box['width']}x{box['height']}); nothing to capture")
    viewport = (await el.tab.session.send("Page.getLayoutMetrics"))["cssVisualViewport"]
    clip = {"x": box["x"] + viewport["pageX"], "y": box["y"] + viewport["pageY"],
            "width": box["width"], "height": box["height"], "scale": 1}
    beyond = box["width"] > viewport["clientWidth"] or box["height"] > viewport["clientHeight"]
    shot = await el.tab.session.send("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": beyond})
    png = base64.b64decode(shot["data"])
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    if args.format == "file":
        path = session.output_path(args.path, f"element-{time.strftime('%Y%m%d-%H%M%S')}-{time.monotonic_ns() % 10**6}.png")
        path.write_bytes(png)
        return ScreenshotOutput(data=None, path=str(path), width=width, height=height)
    return ScreenshotOutput(data=shot["data"], width=width, height=height)


@dataclass(frozen=True)
class Action:
    name: str
    input: type[BaseModel]
    output: type[BaseModel]
    wait: Wait
    act: Callable[[ToolSession, Element, Any], Awaitable[Any]]
    description: str
    records: bool = True


ACTIONS = [
    Action("element_click", ClickInput, MessageOutput, "click", _click, """
        Click an element with a real mouse click at its centre, after waiting until it is visible, stable,
        enabled and not covered (the error names what covers it or says it is disabled). Locate it by CSS
        selector or one semantic locator (role+name, text, label, placeholder, testid, alt, title, xpath). A
        click that opens an alert returns at once; the dialog stays open for dialog_handle."""),
    Action("element_double_click", SelectorInput, MessageOutput, "click", _double_click, """
        Double-click an element with real mouse events (two clicks, then dblclick), after the same
        actionability waits as element_click."""),
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
    Action("element_press", PressInput, MessageOutput, "visible", _press, """
        Focus an element and press a key or combo with real key events, e.g. Enter to submit, Escape,
        ArrowDown, Tab, Control+A. Use it for shortcuts and keys that do not type text."""),
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
    Action("element_hover", SelectorInput, MessageOutput, "hover", _hover, """
        Move the real mouse over the element's centre (after it is visible, stable and not covered), so
        :hover styles, tooltips and mouseover menus appear."""),
    Action("element_focus", SelectorInput, MessageOutput, "visible", _focus, """
        Give an element keyboard focus (focus events fire). Fails when the element cannot take focus."""),
    Action("element_tap", SelectorInput, MessageOutput, "click", _tap_element, """
        Tap an element with a real touch (touchstart, touchend, then the click a tap produces), for pages
        that handle touch input."""),
    Action("element_scroll_into_view", SelectorInput, ScrollOutput, "visible", _scroll, """
        Scroll the element into the middle of the viewport if it is not already in view (scrollable
        containers too). Returns its new bounding box."""),
    Action("element_dispatch_event", DispatchInput, DispatchOutput, "attached", _dispatch, """
        Dispatch a synthetic DOM event on the element: the constructor is chosen from event_type (MouseEvent,
        KeyboardEvent, InputEvent, FocusEvent, DragEvent…, or CustomEvent when event_init has detail). Its
        isTrusted is false: prefer element_click/element_type for real input; use this for custom events."""),
    Action("element_evaluate", EvaluateInput, EvaluateOutput, "attached", _evaluate, """
        Call a JavaScript function with the element as its first argument (and as this) and an optional
        arg, and return the result as JSON (promises are awaited). Use it to read or change what no other
        element tool covers."""),
    Action("element_screenshot", ScreenshotInput, ScreenshotOutput, "visible", _screenshot, """
        Capture a PNG of the element's box (scrolled into view first). Returns base64 data, or writes a
        file under the output directory with format=file; width and height are the image's pixels.""",
           records=False),
]


def _declare_action(spec: Action) -> None:
    async def handler(session: ToolSession, args: Any) -> BaseModel:
        el = await target(session, args, spec.wait)
        result = await spec.act(session, el, args)
        return MessageOutput(message=result) if isinstance(result, str) else result

    declare(spec.name, spec.input, spec.output, handler, spec.description, records=spec.records)


for _spec in ACTIONS:
    _declare_action(_spec)


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


@tool("element_drag_to", DragInput, MessageOutput, records=True)
async def element_drag_to(session: ToolSession, args: DragInput) -> MessageOutput:
    """Drag one element onto another with the real mouse: press on the source's centre, move in steps
    to the target's centre, release. Works for mouse-driven drag code and for native HTML5
    draggable drag-and-drop (dragstart/dragover/drop fire)."""
    source = await target(session, args.source_selector, "hover", args.timeout_ms)
    tab = source.tab
    x, y = await source.center()
    await inputs.mouse_move(tab.session, tab.mouse, x, y)
    await inputs.mouse_down(tab.session, tab.mouse)
    try:
        # The dragged thing may sit on top of the target while moving: no hit-target check here.
        goal = await locate.actionable(session, args.target_selector, args.timeout_ms, hit_target=False)
        tx, ty = await goal.center()
        await locate.guard_dialog(tab, inputs.mouse_move(tab.session, tab.mouse, tx, ty, steps=args.steps))
        await locate.guard_dialog(tab, inputs.mouse_move(tab.session, tab.mouse, tx, ty))  # a last dragover on the target
    finally:
        if tab.dialog is None:
            await locate.guard_dialog(tab, inputs.mouse_up(tab.session, tab.mouse))
        tab.mouse.pressed.discard("left")
    return MessageOutput(message=f"dragged {source.description} from ({x:.0f}, {y:.0f}) to {goal.description} "
                                 f"at ({tx:.0f}, {ty:.0f}){dialog_note(source)}")

