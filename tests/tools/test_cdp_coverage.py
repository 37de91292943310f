"""cdp_start_coverage / cdp_stop_coverage: unused JavaScript and CSS are reported as unused."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.site import Response
from tools.coverage import flatten, script_usage, stylesheet_usage

PAGE = """<title>coverage</title>
<link rel=stylesheet href="/cov/site.css">
<style>.inline-used { color: red } .inline-unused-rule { color: blue }</style>
<p class="used inline-used">hello</p>
<script src="/cov/app.js"></script>"""
APP = """function usedFunction() { return 1 + 1; }
function neverCalledFunction() { const a = []; for (let i = 0; i < 10; i++) a.push(i); return a; }
usedFunction();
"""
CSS = ".used { color: green }\n.never-matches-anything { color: purple; margin: 3px }\n"


async def test_unused_function_and_rule_are_reported(mcp, site):
    site.route("/cov/app.js", Response(APP, content_type="application/javascript"))
    site.route("/cov/site.css", Response(CSS, content_type="text/css"))
    url = site.route("/cov/page", PAGE)
    await mcp.ok("page_navigate", {"url": url})
    await mcp.ok("cdp_start_coverage", {"call_count": True, "detailed": True})
    assert (await mcp.fail("cdp_start_coverage"))["code"] == "already_started"
    await mcp.ok("page_navigate", {"url": url})
    data = await mcp.ok("cdp_stop_coverage")

    scripts = {s["url"]: s for s in data["js"]["scripts"]}
    app = scripts[site.url("/cov/app.js")]
    assert app["total_bytes"] == len(APP)
    assert 0 < app["used_bytes"] < app["total_bytes"]
    assert app["unused_functions"] == ["neverCalledFunction"]
    start = APP.index("function neverCalledFunction")
    assert any(r["start"] <= start + len("function ") and r["end"] >= APP.index("return a;") for r in app["unused_ranges"])
    names = {f["name"]: f for f in app["functions"]}
    assert names["usedFunction"]["count"] == 1 and names["neverCalledFunction"]["count"] == 0
    assert any(s["url"] == site.url("/cov/app.js") for s in data["scripts"])

    sheets = {s["url"]: s for s in data["css"]["stylesheets"]}
    external = sheets[site.url("/cov/site.css")]
    assert [r["rule"] for r in external["unused_rules"]] == [".never-matches-anything"]
    assert external["used_bytes"] == len(".used { color: green }")
    assert external["total_bytes"] == len(CSS)
    inline = [s for s in data["css"]["stylesheets"] if s["inline"]]
    assert inline and [r["rule"] for r in inline[0]["unused_rules"]] == [".inline-unused-rule"]

    report = json.loads(Path(data["report_path"]).read_text())
    assert report["js"]["scripts"] and report["css"]["stylesheets"]
    assert (await mcp.fail("cdp_stop_coverage"))["code"] == "not_started"


async def test_css_only_and_bad_arguments(mcp, site):
    site.route("/cov/site.css", Response(CSS, content_type="text/css"))
    url = site.route("/cov/css-only", "<link rel=stylesheet href='/cov/site.css'><p class=used>x</p>")
    await mcp.ok("page_navigate", {"url": url})
    await mcp.ok("cdp_start_coverage", {"js": False})
    await mcp.ok("page_navigate", {"url": url})
    data = await mcp.ok("cdp_stop_coverage")
    assert data["js"] is None and data["scripts"] == []
    assert data["css"]["stylesheets"]
    assert (await mcp.fail("cdp_start_coverage", {"js": False, "css": False}))["code"] == "invalid_arguments"
    err = await mcp.fail("cdp_start_coverage", {"detailed": "very"})
    assert err["details"][0]["field"] == "detailed"


def test_nested_ranges_flatten_to_the_innermost_count():
    assert flatten([(0, 100, 1), (10, 20, 0), (30, 60, 0), (40, 50, 2)]) == [
        (0, 10, 1), (10, 20, 0), (20, 30, 1), (30, 40, 0), (40, 50, 2), (50, 60, 0), (60, 100, 1)]
    usage = script_usage([{"ranges": [{"startOffset": 0, "endOffset": 100, "count": 1}]},
                          {"ranges": [{"startOffset": 10, "endOffset": 30, "count": 0}]}])
    assert usage == {"used_bytes": 80, "total_bytes": 100, "unused_ranges": [{"start": 10, "end": 30}]}
    sheet = stylesheet_usage([{"startOffset": 0, "endOffset": 5, "used": True},
                              {"startOffset": 6, "endOffset": 12, "used": False}], "a{x:y}\nb{c:d}", None)
    assert (sheet["used_bytes"], sheet["unused_bytes"], sheet["unused_rules"][0]["rule"]) == (5, 6, "b")
