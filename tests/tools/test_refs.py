"""Element references (e12) and snapshot budgets, through the MCP layer as an agent uses them."""

from __future__ import annotations

import json
import re

from tests.support.snapshot_tree import find_node

FORM = """<title>Refs</title><main>
<h1>Sign up</h1>
<label>Name <input id=name></label>
<label><input type=checkbox id=agree> I agree</label>
<button id=send onclick="document.getElementById('out').textContent =
  document.getElementById('name').value + '/' + document.getElementById('agree').checked">Send</button>
<p id=out></p>
<section id=extra><h2>Extra</h2><button id=gone>Remove me</button></section>
</main>"""



def _entries(node, depth=0):
    """A tree page in document order as (depth, node without children or text); stubs left out."""
    if isinstance(node, str):
        return [(depth, node)]
    own = [] if node.get("continued") else [(depth, {k: v for k, v in node.items() if k != "children"})]
    return own + [e for child in node.get("children", []) for e in _entries(child, depth + 1)]


def _sent(data) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


async def test_references_from_snapshots_act_until_the_element_or_page_goes(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/refs/form", FORM)})
    tree = (await mcp.ok("accessibility_snapshot"))["tree"]
    name, agree, send = find_node(tree, "textbox", "Name"), find_node(tree, "checkbox", "I agree"), find_node(tree, "button", "Send")
    assert all(re.fullmatch(r"e[1-9][0-9]*", node["ref"]) for node in (name, agree, send))
    assert find_node(tree, "heading", "Sign up")["ref"] and "ref" not in find_node(tree, "main")

    await mcp.ok("element_fill", {"selector": name["ref"], "value": "Ada"})
    await mcp.ok("element_click", {"selector": agree["ref"]})
    inspected = {item.get("name"): item for item in (await mcp.ok("page_inspect"))["items"]}
    assert inspected["Send"]["ref"] == send["ref"]  # one element, one reference, from either tool
    await mcp.ok("element_click", {"selector": inspected["Send"]["ref"]})
    assert await mcp.js("document.getElementById('out').textContent") == "Ada/true"
    assert (await mcp.ok("element_get_text", {"selector": inspected["Sign up"]["ref"]}))["text"] == "Sign up"

    gone = inspected["Remove me"]["ref"]
    await mcp.js("document.getElementById('gone').remove(); 0")
    err = await mcp.fail("element_click", {"selector": gone, "timeout_ms": 500})
    assert err["code"] == "stale_reference" and "accessibility_snapshot" in err["message"] and gone in err["message"]
    assert (await mcp.ok("wait_for_selector", {"selector": gone, "state": "detached"}))  # gone is gone

    await mcp.ok("page_navigate", {"url": site.route("/refs/form-again", FORM)})
    err = await mcp.fail("element_fill", {"selector": name["ref"], "value": "x"})
    assert err["code"] == "stale_reference" and "navigated" in err["message"]
    fresh = find_node((await mcp.ok("accessibility_snapshot"))["tree"], "textbox", "Name")["ref"]
    assert int(fresh[1:]) > int(send["ref"][1:])  # never reused within the tab
    assert (await mcp.fail("element_click", {"selector": "e999999"}))["code"] == "element_not_found"


async def test_budgets_page_through_the_whole_snapshot_and_root_limits_it(mcp, site):
    rows = "".join(f"<li><a href='#r{i}'>Row number {i}</a> <button>Act {i}</button></li>" for i in range(60))
    await mcp.ok("page_navigate", {"url": site.route("/refs/long", f"""<title>Long</title>
        <nav><ul>{rows}</ul></nav><section id=tail><h2>Tail</h2><button>Last</button></section>""")})

    whole = await mcp.ok("accessibility_snapshot", {"max_chars": 1_000_000})
    assert whole["truncated"] is False and whole["count"] == whole["total"] and "next_offset" not in whole
    pages, offset = [], 0
    while True:
        page = await mcp.ok("accessibility_snapshot", {"max_chars": 2000, "offset": offset})
        assert _sent(page) <= 2000 and page["total"] == whole["total"]
        pages.append(page)
        if not page["truncated"]:
            break
        assert page["next_offset"] == offset + page["count"]
        offset = page["next_offset"]
    assert len(pages) > 3 and pages[1]["tree"]["continued"] is True  # later pages start from the root
    merged = [e for page in pages for e in _entries(page["tree"])]
    assert merged == _entries(whole["tree"])  # the pages, put together, are the whole snapshot

    listed = await mcp.ok("page_inspect", {"max_items": 1000, "max_chars": 1_000_000})
    assert listed["total"] == 122 and not listed["truncated"]
    items, offset = [], 0
    while True:
        page = await mcp.ok("page_inspect", {"max_items": 1000, "max_chars": 5000, "offset": offset})
        assert _sent(page) <= 5000
        items += page["items"]
        if not page["truncated"]:
            break
        offset = page["next_offset"]
    assert items == listed["items"]
    few = await mcp.ok("page_inspect", {"max_items": 5, "offset": 5})
    assert few["items"] == listed["items"][5:10] and few["next_offset"] == 10

    tail = await mcp.ok("page_inspect", {"root": "#tail"})
    assert [i["name"] for i in tail["items"]] == ["Tail", "Last"] and tail["total"] == 2
    section = find_node(whole["tree"], "heading", "Tail")
    by_ref = await mcp.ok("accessibility_snapshot", {"root": section["ref"]})
    assert by_ref["tree"]["role"] == "heading" and by_ref["total"] == 1
    subtree = await mcp.ok("accessibility_snapshot", {"root": "#tail"})
    assert [n.get("name") for _, n in _entries(subtree["tree"]) if isinstance(n, dict)] == [None, "Tail", "Last"]
