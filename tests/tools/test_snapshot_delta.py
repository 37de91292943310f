"""Deltas, not repeats (issue #25): ``since`` on the snapshot tools, ``snapshot`` on actions and
``if_changed`` on screenshots, through the MCP layer against the shared Chromium."""

from __future__ import annotations

import json

from tests.support.snapshot_tree import find_node
from tools.snapshot_delta import FlatTree, flatten, items_delta, tree_delta

_NAV = "".join(f"<li><a href='/s/{n}'>{n}</a></li>" for n in ("Home", "Products", "Pricing", "Docs", "Blog", "Support"))
PAGE = f"""<!doctype html><html lang=en><title>Sign up</title>
<header><nav aria-label=Main><ul id=nav>{_NAV}</ul></nav></header>
<main><h1 id=title>Sign up</h1><p>Create an account to follow your orders and keep a wish list.</p>
<form aria-label=Details onsubmit="return false">
  <label>Name <input id=name></label> <label>Email <input id=email type=email></label>
  <label><input type=checkbox id=agree> I agree to the terms</label>
  <button type=button id=send onclick="document.getElementById('out').textContent = 'Sent'">Send</button>
  <p id=out>Not sent yet</p>
</form></main>
<footer><p>Example shop, 2026</p><div id=box style="width:200px;height:80px;background:#ccd">Box</div></footer>"""



async def _text(mcp, name, args):
    """The result's text block as an agent reads it, and the data."""
    result = await mcp.client.call_tool(name, args)
    assert not result.is_error, result.content[0].text
    return result.content[0].text, result.structured_content


async def test_since_answers_unchanged_or_only_what_changed(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/delta/page", PAGE)})
    full_text, full = await _text(mcp, "accessibility_snapshot", {})
    assert full["snapshot_id"] and full["tree"]["role"] == "RootWebArea" and "since" not in full
    email = find_node(full["tree"], "textbox", "Email")

    text, same = await _text(mcp, "accessibility_snapshot", {"since": "last"})
    assert same == {"snapshot_id": same["snapshot_id"], "since": full["snapshot_id"], "unchanged": True}
    assert len(text.encode()) <= 200 and same["snapshot_id"] != full["snapshot_id"]

    await mcp.ok("element_fill", {"selector": email["ref"], "value": "ada@example.org"})
    text, filled = await _text(mcp, "accessibility_snapshot", {"since": "last"})
    assert filled["since"] == same["snapshot_id"]
    assert filled["changed"] == [{"ref": email["ref"], "role": "textbox", "name": "Email", "value": "ada@example.org"}]
    assert filled["focus"] == email["ref"] and not {"added", "removed", "moved", "tree"} & set(filled)
    assert len(text.encode()) <= 0.25 * len(full_text.encode())

    await mcp.js("""document.getElementById('nav').insertAdjacentHTML('beforeend', "<li><a href='/s/new'>New</a></li>");
                    document.getElementById('title').remove(); 0""")
    added = await mcp.ok("accessibility_snapshot", {"since": "last"})
    heading = find_node(full["tree"], "heading", "Sign up")
    assert added["removed"] == [{"ref": heading["ref"], "role": "heading", "name": "Sign up"}]
    [new] = added["added"]
    assert new["role"] == "listitem" and new["index"] == 6 and new["children"][0]["name"] == "New"
    chain, parent = [], new["parent"]
    while parent:  # the ancestors place it: list < navigation Main < banner
        chain.append(added["ancestors"][parent]["role"])
        parent = added["ancestors"][parent].get("parent")
    assert chain == ["list", "navigation", "banner"]
    link = new["children"][0]["ref"]
    assert (await mcp.ok("element_get_text", {"selector": link}))["text"] == "New"  # refs act at once
    again = await mcp.ok("accessibility_snapshot", {})
    assert find_node(again["tree"], "link", "New")["ref"] == link  # the full snapshot says the same refs
    assert find_node(again["tree"], "textbox", "Email")["ref"] == email["ref"]

    since_full = await mcp.ok("accessibility_snapshot", {"since": full["snapshot_id"]})
    assert {c["ref"] for c in since_full["changed"]} == {email["ref"]} and len(since_full["added"]) == 1

    err = await mcp.fail("accessibility_snapshot", {"since": "s999999"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "since"
    err = await mcp.fail("accessibility_snapshot", {"since": full["snapshot_id"], "root": "form"})
    assert err["code"] == "invalid_arguments" and "root" in err["message"]
    assert (await mcp.ok("accessibility_snapshot", {"since": "last", "root": "form"}))["tree"]["role"] == "form"

    mapped = await mcp.ok("page_inspect")
    await mcp.ok("element_fill", {"selector": "#name", "value": "Ada"})
    text, inspected = await _text(mcp, "page_inspect", {"since": mapped["snapshot_id"]})
    name = next(i for i in mapped["items"] if i.get("name") == "Name")
    assert inspected["changed"] == [{"ref": name["ref"], "name": "Name", "value": "Ada"}] and len(text) <= 200
    assert (await mcp.ok("page_inspect", {"since": "last"}))["unchanged"] is True

    await mcp.ok("page_navigate", {"url": site.route("/delta/other", PAGE)})
    moved_on = await mcp.ok("accessibility_snapshot", {"since": "last"})
    assert moved_on["document_changed"] is True and moved_on["tree"]["role"] == "RootWebArea"
    assert find_node(moved_on["tree"], "textbox", "Email")["ref"] != email["ref"]
    assert (await mcp.ok("page_inspect", {"since": "last"}))["document_changed"] is True


async def test_actions_return_what_they_changed(mcp, site):
    navigated = await mcp.ok("page_navigate", {"url": site.route("/delta/act", PAGE), "snapshot": "delta"})
    tree = navigated["snapshot"]["tree"]  # no snapshot before: a full one
    assert navigated["status"] == 200 and tree["name"] == "Sign up"
    send = find_node(tree, "button", "Send")

    clicked = await mcp.ok("element_click", {"selector": send["ref"], "snapshot": "delta"})
    delta = clicked["snapshot"]
    assert clicked["message"].startswith("clicked") and delta["since"] == navigated["snapshot"]["snapshot_id"]
    [out] = delta["changed"]
    assert out["role"] == "paragraph" and out["text_added"] == ["Sent"] and out["text_removed"] == ["Not sent yet"]
    assert delta["ancestors"][out["parent"]]["name"] == "Details"  # the form that holds it
    assert delta["focus"] == send["ref"]

    checked = await mcp.ok("element_check", {"selector": "#agree", "snapshot": "delta"})
    agree = find_node(tree, "checkbox", "I agree to the terms")
    assert checked["snapshot"]["changed"] == [{"ref": agree["ref"], "role": "checkbox", "name": "I agree to the terms",
                                               "checked": True}]
    pressed = await mcp.ok("input_keyboard_press", {"key": "Tab", "snapshot": "delta"})
    assert pressed["snapshot"] == {"snapshot_id": pressed["snapshot"]["snapshot_id"],
                                   "since": checked["snapshot"]["snapshot_id"], "focus": send["ref"]}
    reloaded = await mcp.ok("page_reload", {"snapshot": "delta"})
    assert reloaded["snapshot"]["document_changed"] is True and "tree" in reloaded["snapshot"]
    full = await mcp.ok("element_fill", {"selector": "#name", "value": "Ada", "snapshot": "full"})
    assert find_node(full["snapshot"]["tree"], "textbox", "Name")["value"] == "Ada"
    assert "snapshot" not in await mcp.ok("element_fill", {"selector": "#name", "value": "Bo"})
    assert (await mcp.fail("element_click", {"selector": "#send", "snapshot": "all"}))["details"][0]["field"] == "snapshot"


async def test_screenshots_if_changed_send_no_image_when_nothing_changed(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/delta/shot", PAGE)})
    first, _ = await mcp.image("page_screenshot", {"if_changed": True})
    assert first["changed"] is True and "difference" not in first  # nothing to compare with yet
    success, same, images = await mcp.call_with_images("page_screenshot", {"if_changed": True})
    assert success and same == {"changed": False, "difference": 0.0} and images == []
    assert (await mcp.ok("page_screenshot", {"format": "file", "if_changed": True}))["changed"] is False

    await mcp.js("document.getElementById('box').style.background = '#c00'; 0")
    shot, image = await mcp.image("page_screenshot", {"if_changed": 0.0})
    assert shot["changed"] is True and 0 < shot["difference"] < 0.1 and image[:4] == b"\x89PNG"
    loose = await mcp.ok("page_screenshot", {"if_changed": 1.0})  # anything but a new size is "unchanged"
    assert loose["changed"] is False

    box, _ = await mcp.image("element_screenshot", {"selector": "#box", "if_changed": True})
    assert box["changed"] is True
    success, same, images = await mcp.call_with_images("element_screenshot", {"selector": "#box", "if_changed": True})
    assert same["changed"] is False and images == []
    await mcp.js("document.getElementById('box').textContent = 'Box, changed'; 0")
    box, _ = await mcp.image("element_screenshot", {"selector": "#box", "if_changed": True})
    assert box["changed"] is True and box["difference"] > 0
    err = await mcp.fail("page_screenshot", {"if_changed": 2})
    assert err["code"] == "invalid_arguments" and "if_changed" in err["details"][0]["field"]


def _tree(*children, role="RootWebArea"):
    return {"role": role, "children": list(children)}


def _flat(tree) -> FlatTree:
    """Keyed by name: each test node is named uniquely."""
    return flatten(tree, lambda node: (node.get("name", node["role"]), None))


def test_reordered_and_reparented_nodes_are_moved():
    a, b, c = ({"role": "listitem", "name": n, "ref": f"e{i}"} for i, n in enumerate("abc", 1))
    old = _tree({"role": "list", "name": "L", "children": [a, b, c]}, {"role": "group", "name": "G"})
    new = _tree({"role": "list", "name": "L", "children": [c, a]}, {"role": "group", "name": "G", "children": [b]})
    delta = tree_delta(_flat(old), _flat(new), None)
    assert delta["moved"] == [{"ref": "e3", "role": "listitem", "name": "c", "index": 0},
                              {"ref": "e2", "role": "listitem", "name": "b", "index": 0}]
    assert tree_delta(_flat(old), _flat(old), None) == {}
    assert tree_delta(_flat(old), _flat(_tree(role="other")), None) is None  # another root: no delta


def test_page_map_items_delta():
    old = [{"ref": "e1", "name": "A"}, {"ref": "e2", "name": "B", "value": "x"}, {"ref": "e3", "name": "C"}]
    new = [{"ref": "e3", "name": "C"}, {"ref": "e1", "name": "A"}, {"ref": "e4", "name": "D"}, {"ref": "e2", "name": "B"}]
    assert items_delta(old, new) == {
        "added": [{"after": "e1", "ref": "e4", "name": "D"}],
        "changed": [{"ref": "e2", "name": "B", "value": None}],
        "moved": [{"ref": "e3"}],
    }
    assert json.dumps(items_delta(new, new)) == "{}"
