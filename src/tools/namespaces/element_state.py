"""element_ state: getters and is_* checkers, declared from two tables.

A getter waits until the element is attached and reads one thing from it (a
page function, its box, or its node in the browser's accessibility tree). The
is_* checkers answer a yes/no question; is_visible and is_hidden answer at once
from the page as it is, and a missing element is simply not visible.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from ..errors import ToolError
from ..models import BoundingBox, SelectorInput, ToolOutput
from ..registry import tool
from .element import css, page_call, target

if TYPE_CHECKING:
    from ..locate import Element
    from ..session import ToolSession


# -- inputs and outputs ----------------------------------------------------------------------


class AttributeInput(SelectorInput):
    name: str = Field(min_length=1)


class ProbeInput(SelectorInput):
    timeout_ms: int = Field(default=5000, ge=0, le=600_000)


class TextOutput(ToolOutput):
    text: str = Field(description="The element's text")


class HtmlOutput(ToolOutput):
    html: str = Field(description="The HTML markup")


class ValueOutput(ToolOutput):
    value: str = Field(description="The current value")


class AttributeOutput(ToolOutput):
    name: str = Field(description="The attribute asked for")
    value: str | None = Field(description="Its value; null when the element has no such attribute")


class RoleOutput(ToolOutput):
    role: str = Field(description="The computed role, e.g. button, link, textbox, checkbox, heading, generic")
    ignored: bool = Field(description="True when the element is hidden from assistive technology")


class LabelOutput(ToolOutput):
    label: str = Field(description="The accessible name screen readers announce (empty when it has none)")


class VisibleOutput(ToolOutput):
    visible: bool


class HiddenOutput(ToolOutput):
    hidden: bool


class EnabledOutput(ToolOutput):
    enabled: bool


class CheckedOutput(ToolOutput):
    checked: bool


class EditableOutput(ToolOutput):
    editable: bool


# -- readers ------------------------------------------------------------------------------------

Reader = Callable[["Element", Any], Awaitable[Any]]


Source = str | Callable[[], str]


def _source(function: Source) -> str:
    """A page function given inline, or read from its ``tools/js`` file when first run (declaring
    the tools must not load the driver)."""
    return function if isinstance(function, str) else function()


def _value_script() -> str:
    from cdpdriver.scripts import load_script

    return load_script("tools", "element_value")


def _check_state_script() -> str:
    from cdpdriver.scripts import load_script

    return load_script("tools", "check_state")


def _editable_script() -> str:
    from cdpdriver.scripts import load_script

    return load_script("tools", "element_editable")


def js(function: Source) -> Reader:
    """A reader that runs a page function on the element (extra args come from the tool's input)."""
    async def read(el: Element, args: Any) -> Any:
        extra = [args.name] if isinstance(args, AttributeInput) else []
        return await page_call(el, _source(function), *extra)
    return read


async def _box(el: Element, args: Any) -> dict[str, float]:
    return await el.box()


async def ax_node(el: Element) -> dict[str, Any]:
    """The element's node in the browser's own accessibility tree (roles and names as AT sees them)."""
    node = (await el.session.send("DOM.describeNode", {"objectId": el.object_id}))["node"]
    backend = node["backendNodeId"]
    tree = await el.session.send("Accessibility.getPartialAXTree", {"backendNodeId": backend, "fetchRelatives": False})
    nodes = tree.get("nodes") or []
    return next((n for n in nodes if n.get("backendDOMNodeId") == backend), nodes[0] if nodes else {})


async def _role(el: Element, args: Any) -> dict[str, Any]:
    node = await ax_node(el)
    return {"role": str((node.get("role") or {}).get("value") or "none"), "ignored": bool(node.get("ignored"))}


async def _label(el: Element, args: Any) -> str:
    return str((((await ax_node(el)).get("name")) or {}).get("value") or "")


_ENABLED = "function() { return !(this.disabled === true || this.matches(':disabled') || !!this.closest('[aria-disabled=true]')); }"


@dataclass(frozen=True)
class Getter:
    name: str
    read: Reader
    output: type[BaseModel]
    field: str | None  # the output field the value goes in; None: the reader returns all fields
    description: str
    input: type[BaseModel] = SelectorInput


GETTERS = [
    Getter("element_get_text", js("function() { return (this.innerText ?? this.textContent ?? '').trim(); }"), TextOutput, "text", """
        The text a user sees in an element, trimmed."""),
    Getter("element_get_inner_text", js("function() { return this.innerText ?? this.textContent ?? ''; }"), TextOutput, "text", """
        An element's innerText, untrimmed."""),
    Getter("element_get_inner_html", js("function() { return this.innerHTML; }"), HtmlOutput, "html", """
        An element's innerHTML."""),
    Getter("element_get_outer_html", js("function() { return this.outerHTML; }"), HtmlOutput, "html", """
        An element's outerHTML."""),
    Getter("element_get_value", js(_value_script), ValueOutput, "value", """
        The current value of a field."""),
    Getter("element_get_attribute", js("function(name) { return this.getAttribute(name); }"), AttributeOutput, None, """
        An attribute of an element (null when absent).""", AttributeInput),
    Getter("element_get_bounding_box", _box, BoundingBox, None, """
        An element's box in the viewport (zeros when not rendered)."""),
    Getter("element_get_role", _role, RoleOutput, None, """
        An element's computed role, and whether assistive tech ignores it."""),
    Getter("element_get_label", _label, LabelOutput, "label", """An element's accessible name."""),
]


def _declare_getter(spec: Getter) -> None:
    async def handler(session: ToolSession, args: Any) -> BaseModel:
        el = await target(session, args, "attached")
        value = await spec.read(el, args)
        if spec.field is None:
            fields = dict(value) if isinstance(value, dict) else {}
            if isinstance(args, AttributeInput):
                fields = {"name": args.name, "value": value}
            return spec.output(**fields)
        return spec.output(**{spec.field: value})

    tool(spec.name, spec.input, spec.output, description=spec.description, effect="reads")(handler)


# -- the is_* checkers ------------------------------------------------------------------------------


async def visible_now(session: ToolSession, selector: str) -> bool:
    """Is a matching element visible right now? A missing element is not visible, never an error."""
    from .. import locate

    try:
        await locate.find(session, css(selector), state="visible", timeout_ms=0)
        return True
    except ToolError as exc:
        # The page answered "not found" or "not in that state yet"; anything else (bad selector,
        # dialog, a page that does not answer at all) is a real error.
        if exc.code == "element_not_found" or (exc.code == "timeout" and "did not become" not in exc.message):
            return False
        raise


@dataclass(frozen=True)
class Checker:
    name: str
    output: type[BaseModel]
    field: str
    description: str
    function: Source | None = None  # None: ``visible_now`` decides at once


CHECKERS = [
    Checker("element_is_visible", VisibleOutput, "visible", """Whether an element is visible, now."""),
    Checker("element_is_hidden", HiddenOutput, "hidden", """
        Whether an element is hidden or missing, now."""),
    Checker("element_is_enabled", EnabledOutput, "enabled", """Whether an element is enabled.""", _ENABLED),
    Checker("element_is_checked", CheckedOutput, "checked", """
        Whether a checkbox, radio or switch is checked.""", _check_state_script),
    Checker("element_is_editable", EditableOutput, "editable", """
        Whether a user could type into an element.""", _editable_script),
]


def _declare_checker(spec: Checker) -> None:
    async def handler(session: ToolSession, args: Any) -> BaseModel:
        if spec.function is None:
            visible = await visible_now(session, args.selector)
            return spec.output(**{spec.field: visible if spec.field == "visible" else not visible})
        el = await target(session, args, "attached")
        value = await page_call(el, _source(spec.function))
        return spec.output(**{spec.field: value["checked"] if isinstance(value, dict) else bool(value)})

    tool(spec.name, ProbeInput if spec.function is None else SelectorInput, spec.output,
         description=spec.description, effect="reads")(handler)


for _getter in GETTERS:
    _declare_getter(_getter)
for _checker in CHECKERS:
    _declare_checker(_checker)
