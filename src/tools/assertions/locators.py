"""Locator generation for test_generate_locator: a robust locator per strategy, proven unique.

A candidate is kept only when it resolves to exactly the element it was built
from twice over: in the page (``locator_candidates.js``) and through the locator
engine the element tools use, so a generated locator always works as their
arguments. Role candidates come from Chrome's accessibility tree, not from a
guess in the page.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from cdpdriver.scripts import load_script

from .. import locate
from ..errors import ToolError
from ..session import ToolSession

STRATEGIES = ("css", "xpath", "testid", "role", "text")
IGNORED_ROLES = {"generic", "none", "presentation", "StaticText", "InlineTextBox", "LineBreak", ""}


@dataclass(frozen=True)
class GeneratedLocator:
    locator: str
    metadata: dict[str, Any]


async def generate(session: ToolSession, selector: str, strategy: str, timeout_ms: int) -> GeneratedLocator:
    """The ``strategy`` locator of the selector's element; when there is none, a not_found error
    that says why and lists the strategies that do work."""
    element = await locate.element(session, selector, timeout_ms, state="attached")
    candidates = await element.call(load_script("tools", "locator_candidates"))
    candidates["role"], role, name = await _role_candidate(element)
    meta = {**candidates.pop("meta"), "role": role, "name": name}
    working: dict[str, str] = {}
    for kind in STRATEGIES:
        found = candidates[kind]
        if "value" not in found:
            continue
        tool_args = _tool_arguments(kind, found["value"], found.get("name"))
        if not await _same_element(session, element, tool_args):
            candidates[kind] = {"error": "the element tools' locator engine resolves it to another element"}
            continue
        working[kind] = _locator_string(kind, found["value"], found.get("name"))
    chosen = candidates[strategy]
    if "value" not in chosen:
        others = "; ".join(f"{k}: {v}" for k, v in working.items()) or "none"
        raise ToolError("not_found", (
            f"no unique {strategy} locator for {selector!r}: {chosen['error']}. "
            f"Strategies that work: {others}"))
    meta["arguments"] = _tool_arguments(strategy, chosen["value"], chosen.get("name"))
    meta["alternatives"] = {k: v for k, v in working.items() if k != strategy}
    return GeneratedLocator(working[strategy], meta)


def _locator_string(strategy: str, value: str, name: str | None = None) -> str:
    if strategy == "testid":
        return f"getByTestId({json.dumps(value)})"
    if strategy == "text":
        return f"getByText({json.dumps(value)}, {{ exact: true }})"
    if strategy == "role":
        return f"getByRole({json.dumps(value)}, {{ name: {json.dumps(name)}, exact: true }})" if name \
            else f"getByRole({json.dumps(value)})"
    return value


def _tool_arguments(strategy: str, value: str, name: str | None = None) -> dict[str, Any]:
    if strategy == "css":
        return {"selector": value}
    if strategy == "role":
        return {"role": value, "name": name} if name else {"role": value}
    return {strategy: value}


async def _role_candidate(element: locate.Element) -> tuple[dict[str, Any], str | None, str | None]:
    """Role and accessible name from Chrome's accessibility tree, and whether exactly this element has them."""
    send = element.session.send
    backend = (await send("DOM.describeNode", {"objectId": element.object_id}))["node"]["backendNodeId"]
    nodes = (await send("Accessibility.getPartialAXTree", {"objectId": element.object_id, "fetchRelatives": False}))["nodes"]
    node = next((n for n in nodes if n.get("backendDOMNodeId") == backend), nodes[0] if nodes else {})
    role = str((node.get("role") or {}).get("value") or "")
    name = str((node.get("name") or {}).get("value") or "") or None
    if node.get("ignored") or role in IGNORED_ROLES:
        return {"error": f"the element has no ARIA role (Chrome computes {role or 'none'!r})"}, None, None
    document = await element.call("function () { return this.ownerDocument; }", by_value=False)
    query: dict[str, Any] = {"objectId": document["objectId"], "role": role}
    if name:
        query["accessibleName"] = name
    matches = [n for n in (await send("Accessibility.queryAXTree", query))["nodes"] if not n.get("ignored")]
    if len(matches) == 1 and matches[0].get("backendDOMNodeId") == backend:
        return {"value": role, "name": name}, role, name
    what = f"role {role!r}" + (f" named {name!r}" if name else " without a name")
    return {"error": f"{len(matches)} elements have {what}"}, role, name


async def _same_element(session: ToolSession, element: locate.Element, args: dict[str, Any]) -> bool:
    """Does our own locator engine (what element tools use) resolve the arguments to this element?"""
    kind, value = next((k, v) for k, v in args.items() if k != "name")
    loc = {"kind": "css" if kind == "selector" else kind, "value": value, "name": args.get("name")}
    try:
        found = await locate.find(session, loc, state="attached", timeout_ms=0, scroll=False)
    except ToolError:
        return False
    if found is None or found.session is not element.session:
        return False
    reply = await element.session.send("Runtime.callFunctionOn", {
        "functionDeclaration": "function (other) { return this === other; }",
        "objectId": element.object_id, "arguments": [{"objectId": found.object_id}], "returnByValue": True,
    })
    return bool((reply.get("result") or {}).get("value"))
