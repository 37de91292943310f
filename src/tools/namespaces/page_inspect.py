"""page_inspect: the page map, the first call an agent makes on a new page.

It lives apart from the other page_ tools because its page-side half
(``js/page_inspect.js``) is a program of its own: it decides which elements an
agent can act on, how they are named, and the one CSS selector that matches
each. Unlike most page_ tools it works in the current frame, so its selectors
are the ones element tools resolve.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field, model_serializer

from ..models import ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession


class InspectInput(ToolInput):
    include_buttons: bool = True
    include_links: bool = True
    include_inputs: bool = True
    include_selects: bool = True
    include_headings: bool = True
    include_images: bool = True
    max_items: int = Field(default=50, ge=1, le=1000)


class InspectItem(ToolOutput):
    """One element; fields that do not apply are left out to keep the map short."""

    kind: str = Field(description="button, link, input, select, heading or image")
    selector: str = Field(description="CSS selector that matches exactly this element")
    tag: str
    role: str | None = Field(default=None, description="ARIA role when it differs from kind")
    name: str | None = Field(default=None, description="Accessible name or visible text")
    type: str | None = Field(default=None, description="input type")
    value: str | None = Field(default=None, description="Current value (passwords masked)")
    placeholder: str | None = None
    checked: bool | None = None
    required: bool | None = None
    disabled: bool | None = None
    options: int | None = Field(default=None, description="Number of options of a select")
    level: int | None = Field(default=None, description="Heading level")
    href: str | None = None
    src: str | None = Field(default=None, description="Image file name, for images without a name")

    @model_serializer(mode="wrap")
    def _compact(self, handler: Any):  # no return hint: the schema stays the model's
        return {k: v for k, v in handler(self).items() if v is not None}


class InspectFrame(ToolOutput):
    selector: str
    name: str = Field(description="name or id of the iframe, usable with frame_select")
    src: str


class InspectOutput(ToolOutput):
    url: str
    title: str
    items: list[InspectItem] = Field(description="Visible elements in document order")
    count: int = Field(description="Elements listed")
    total: int = Field(description="Matching visible elements on the page")
    truncated: bool = Field(description="True when max_items cut the list")
    frames: list[InspectFrame] = Field(description="Visible iframes; call frame_select to work inside one")


@tool("page_inspect", InspectInput, InspectOutput)
async def page_inspect(session: ToolSession, args: InspectInput) -> InspectOutput:
    """Map the visible controls, headings and images with a unique selector, role and name each;
    call it first."""
    from cdpdriver.scripts import call_expression, load_script

    from .. import locate

    include = {"button": args.include_buttons, "link": args.include_links, "input": args.include_inputs,
               "select": args.include_selects, "heading": args.include_headings, "image": args.include_images}
    options = {"include": include, "max": args.max_items}
    found = await locate.evaluate(session, call_expression(load_script("tools", "page_inspect"), options), timeout=60)
    items = [InspectItem(**item) for item in found["items"]]
    return InspectOutput(url=found["url"], title=found["title"], items=items, count=len(items),
                         total=found["total"], truncated=found["total"] > len(items),
                         frames=[InspectFrame(**f) for f in found["frames"]])

