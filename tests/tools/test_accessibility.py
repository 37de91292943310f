"""accessibility_snapshot: Chromium's own tree, compacted, with subtrees and iframes."""

from __future__ import annotations

import json
import re

from tests.support.snapshot_tree import find_node

PAGE = """<title>Shop</title><main>
<h1>Hello <b>world</b></h1>
<nav aria-label="Main"><ul><li><a href="/a">Alpha</a></li><li><a href="/b">Beta</a></li></ul></nav>
<form aria-label="Signup">
  <label>Email <input type=email value="a@b.c" required></label>
  <label><input type=checkbox id=agree> I agree</label>
  <button aria-expanded=false aria-haspopup=menu disabled>More</button>
  <div><div><span>Plain words</span></div></div>
  <input type=range aria-label=Volume min=0 max=10 value=3>
</form>
<div hidden>secret</div>
</main>"""



def _referenced(node):
    """The node without its element reference, which it must have (a control or a heading)."""
    assert node is not None and re.fullmatch(r"e[1-9][0-9]*", node.get("ref", "")), node
    return {k: v for k, v in node.items() if k != "ref"}


def _texts(node):
    if isinstance(node, str):
        return [node]
    return [t for child in node.get("children", []) for t in _texts(child)]


async def test_snapshot_roles_names_states_compact(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/a11y/page", PAGE)})
    await mcp.js("document.getElementById('agree').click(); 0")
    data = await mcp.ok("accessibility_snapshot", {})
    tree = data["tree"]
    assert tree["role"] == "RootWebArea" and tree["name"] == "Shop"
    assert _referenced(find_node(tree, "heading", "Hello world")) == {"role": "heading", "name": "Hello world", "level": 1}
    nav = find_node(tree, "navigation", "Main")
    assert [link["name"] for link in (find_node(nav, "list") or {}).get("children", []) for link in link["children"]] \
        == ["Alpha", "Beta"]
    assert _referenced(find_node(tree, "textbox", "Email")) == {"role": "textbox", "name": "Email", "value": "a@b.c",
                                                           "required": True}
    assert find_node(tree, "checkbox", "I agree")["checked"] is True
    button = find_node(tree, "button", "More")
    assert _referenced(button) == {"role": "button", "name": "More", "disabled": True, "expanded": False,
                                   "haspopup": "menu"}
    assert "Plain words" in _texts(tree)
    assert _referenced(find_node(tree, "slider")) == {"role": "slider", "name": "Volume", "value": 3, "valuemin": 0,
                                                  "valuemax": 10}
    assert all("level" not in item for item in find_node(nav, "list")["children"])
    assert "secret" not in json.dumps(tree)
    assert find_node(tree, "generic") is None and find_node(tree, "InlineTextBox") is None
    assert data["count"] == len(json.dumps(tree).split('"role"')) - 1 + len(_texts(tree))
    full = await mcp.ok("accessibility_snapshot", {"interesting_only": False})
    assert full["count"] > data["count"]
    assert find_node(full["tree"], "generic") is not None
    assert find_node(full["tree"], "StaticText", "Plain words") is not None


async def test_snapshot_subtree_by_root_selector(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/a11y/subtree", PAGE)})
    data = await mcp.ok("accessibility_snapshot", {"root": "nav"})
    assert data["tree"]["role"] == "navigation" and data["tree"]["name"] == "Main"
    assert data["count"] == 6  # navigation, list, two items, two links
    assert find_node(data["tree"], "heading") is None
    wrapper = await mcp.ok("accessibility_snapshot", {"root": "form > div"})
    assert wrapper["tree"] == {"role": "generic", "children": ["Plain words"]}
    err = await mcp.fail("accessibility_snapshot", {"root": "#missing", "timeout_ms": 200})
    assert err["code"] == "element_not_found"


async def test_snapshot_inlines_same_site_and_cross_site_iframes(mcp, site):
    inner = site.route("/a11y/inner", "<title>Inner</title><button>Inside same</button>")
    cross = site.cross_site_url("/a11y/inner-cross")
    site.route("/a11y/inner-cross", "<title>Cross</title><button>Inside cross</button>")
    page = site.route("/a11y/frames", f"<h1>Outer</h1><iframe src='{inner}'></iframe><iframe src='{cross}'></iframe>")
    await mcp.ok("page_navigate", {"url": page})
    data = await mcp.ok("accessibility_snapshot", {})
    same = find_node(data["tree"], "button", "Inside same")
    other = find_node(data["tree"], "button", "Inside cross")
    assert same is not None and other is not None
    frames = [n for n in data["tree"]["children"] if n.get("role") == "Iframe"]
    assert [f["children"][0]["name"] for f in frames] == ["Inner", "Cross"]
