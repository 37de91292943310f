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

from ..models import MaxChars, Offset, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession
    from ..tab import FrameRef, Tab

OBJECT_GROUP = "a11y-page-inspect"


class InspectInput(ToolInput):
    include_buttons: bool = True
    include_links: bool = True
    include_inputs: bool = True
    include_selects: bool = True
    include_headings: bool = True
    include_images: bool = True
    max_items: int = Field(default=50, ge=1, le=1000)
    root: str | None = Field(default=None, min_length=1)
    max_chars: int = MaxChars
    offset: int = Offset
    since: str | None = Field(default=None, min_length=1)  # "last" or a snapshot_id: tools.snapshot_history


class InspectItem(ToolOutput):
    """One element; fields that do not apply are left out to keep the map short."""

    kind: str = Field(description="button, link, input, select, heading or image")
    selector: str = Field(description="CSS selector that matches exactly this element")
    ref: str = Field(description="Reference to this element; element tools take it as a selector")
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
    """A full page map or, with ``since``, what changed since that one (then only what changed)."""

    snapshot_id: str = Field(description="This map; pass it (or \"last\") as since for what changes next")
    url: str | None = None
    title: str | None = None
    items: list[InspectItem] | None = Field(default=None, description="Visible elements in document order")
    count: int | None = Field(default=None, description="Elements listed")
    total: int | None = Field(default=None, description="Matching visible elements on the page (under root)")
    truncated: bool | None = Field(default=None, description=(
        "True when max_items or max_chars cut the list: call again with next_offset"))
    next_offset: int | None = Field(default=None, description="The offset of the next page, when truncated")
    frames: list[InspectFrame] | None = Field(default=None, description=(
        "Visible iframes (first page only); frame_select works inside one"))
    document_changed: bool | None = Field(default=None, description=(
        "With since: the tab shows another document than that map, so this is a full one"))
    since: str | None = Field(default=None, description="A delta: the map it is against")
    unchanged: bool | None = Field(default=None, description="A delta: true when nothing changed")
    added: list[dict[str, Any]] | None = Field(default=None, description=(
        "A delta: new items, each after the item of that ref (none: first)"))
    removed: list[dict[str, Any]] | None = Field(default=None, description="A delta: {ref, name} of items gone")
    changed: list[dict[str, Any]] | None = Field(default=None, description=(
        "A delta: {ref, name, the fields that changed (null: gone)}"))
    moved: list[dict[str, Any]] | None = Field(default=None, description="A delta: {ref, after} of items in another order")

    @model_serializer(mode="wrap")
    def _compact(self, handler: Any):  # no return hint: the schema stays the model's
        return {k: v for k, v in handler(self).items() if v is not None}


@tool("page_inspect", InspectInput, InspectOutput, effect="reads")
async def page_inspect(session: ToolSession, args: InspectInput) -> InspectOutput:
    """Map the visible controls, headings and images with a unique selector, ref, role and name each;
    call it first."""
    from .. import locate
    from ..budget import fit, item_costs, text_size
    from ..refs import refs_of
    from ..snapshot_history import history_of

    tab = await session.tab()
    locate.check_no_dialog(tab)
    include = {"button": args.include_buttons, "link": args.include_links, "input": args.include_inputs,
               "select": args.include_selects, "heading": args.include_headings, "image": args.include_images}
    options = {"include": include, "offset": args.offset, "max": args.max_items}
    found, frame, nodes = await _collect(session, tab, args.root, options)
    refs = refs_of(tab)
    items = [InspectItem(**item, ref=refs.ref_for(tab, frame, node)) for item, node in zip(found["items"], nodes,
                                                                                           strict=True)]
    frames = [InspectFrame(**f) for f in found["frames"]] if args.offset == 0 else []

    dumped = [item.model_dump(mode="json") for item in items]
    document = tab.page.document_loader_id
    shape = ((frame.session.session_id, frame.frame_id), args.root, tuple(include.values()), args.max_items,
             args.offset)
    history = history_of(tab, "page_inspect")
    base = history.base(args.since, document, shape, ("frame", "root", "include_*", "max_items", "offset"))
    state = {"url": found["url"], "title": found["title"], "total": found["total"], "items": dumped,
             "frames": [f.model_dump(mode="json") for f in frames]}
    extra: dict[str, Any] = {"snapshot_id": history.record(document, shape, state, len(dumped))}
    if base.snapshot is not None:
        answer = {**extra, "since": base.snapshot.id, **_delta(base.snapshot.data, state)}
        if "unchanged" in answer or text_size(answer) <= min(args.max_chars, text_size(state)):
            return InspectOutput(**answer)
    if base.document_changed:
        extra["document_changed"] = True

    def output(count: int) -> InspectOutput:
        more = args.offset + count < found["total"]
        return InspectOutput(**extra, url=found["url"], title=found["title"], items=items[:count], count=count,
                             total=found["total"], truncated=more, next_offset=args.offset + count if more else None,
                             frames=frames)

    def size(count: int) -> int:
        return text_size({**output(0).model_dump(mode="json"), "items": dumped[:count]})

    envelope = size(0) + len(str(found["total"]))  # room for next_offset
    count = fit(len(items), 0, item_costs(dumped), args.max_chars - envelope, size, args.max_chars) if items else 0
    return output(count)


def _delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What changed from one page map to the next: ``{unchanged: true}`` when nothing did."""
    from ..snapshot_delta import items_delta

    delta = {key: new[key] for key in ("url", "title", "total", "frames") if new[key] != old[key]}
    delta.update(items_delta(old["items"], new["items"]))
    return delta or {"unchanged": True}


async def _collect(session: ToolSession, tab: Tab, root: str | None, options: dict[str, Any]
                   ) -> tuple[dict[str, Any], FrameRef, list[int]]:
    """Run ``js/page_inspect.js`` (under ``root``'s element, or over the current frame) and return
    its page map, the frame it ran in and the backend node id of each listed element."""
    from cdpdriver.evaluation import unwrap_evaluation
    from cdpdriver.protocol.runtime import CallFunctionOnResult
    from cdpdriver.scripts import call_expression, load_script

    from .. import locate
    from ..errors import ToolError
    from ..models import DEFAULT_ELEMENT_TIMEOUT_MS

    function = load_script("tools", "page_inspect")
    if root is not None:
        element = await locate.element(session, root, DEFAULT_ELEMENT_TIMEOUT_MS, state="attached")
        frame, method = element.frame, "Runtime.callFunctionOn"
        params: dict[str, Any] = {"functionDeclaration": function, "objectId": element.object_id,
                                  "arguments": [{"value": options}, {"objectId": element.object_id}]}
    else:
        frame, method = await locate.current_frame(session, tab), "Runtime.evaluate"
        params = {"expression": call_expression(function, options, None)}
        if frame.context_id is not None:
            params["contextId"] = frame.context_id
    params.update(objectGroup=OBJECT_GROUP, returnByValue=False)
    try:
        reply = await locate.guard_dialog(tab, frame.session.send(method, params, timeout=60))
        if reply is None:
            raise ToolError("dialog_open", "a dialog opened; call dialog_handle first")
        listed = unwrap_evaluation(CallFunctionOnResult.from_json(reply), by_value=False).object_id
        async with frame.session.batch(timeout=30) as batch:  # the map by value, the elements by handle
            mapped = batch.send("Runtime.callFunctionOn", {"objectId": listed, "returnByValue": True,
                                                           "functionDeclaration": "function () { return this.data; }"})
            properties = batch.send("Runtime.getProperties", {"objectId": listed, "ownProperties": True})
        data = mapped.result()["result"]["value"]
        handles = {int(p["name"]): p["value"]["objectId"] for p in properties.result()["result"] if p["name"].isdigit()}
        async with frame.session.batch(timeout=30) as batch:  # one round trip for every element
            described = [batch.send("DOM.describeNode", {"objectId": handles[i]}) for i in range(len(handles))]
        nodes = [int(answer.result()["node"]["backendNodeId"]) for answer in described]
    finally:
        await _release(frame)
    return data, frame, nodes


async def _release(frame: FrameRef) -> None:
    from cdpdriver import CDPError

    try:
        await frame.session.send("Runtime.releaseObjectGroup", {"objectGroup": OBJECT_GROUP}, timeout=5)
    except CDPError:
        pass
