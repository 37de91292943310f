"""cdp_run_quality_audit through MCP: SEO low without title/description, higher when fixed."""

from __future__ import annotations

import json
from pathlib import Path

from tools.namespaces.cdp_quality import log_normal_score

BARE = "<html><body><p>hello</p><a href='javascript:void 0'>click here</a><img src='/x.png'></body></html>"
FIXED = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fixed page</title><meta name="description" content="A page that passes the SEO checks.">
</head><body><main><h1>Fixed</h1><p>hello</p><a href="/about">About our shop</a></main></body></html>"""


def test_log_normal_curve_matches_lighthouse_control_points():
    assert abs(log_normal_score(2400, 1200, 2400) - 0.5) < 1e-9
    assert abs(log_normal_score(1200, 1200, 2400) - 0.9) < 1e-6
    assert log_normal_score(0, 0.1, 0.25) == 1.0


async def test_quality_audit_scores_and_reports(mcp, site):
    bare = site.route("/quality/bare", BARE)
    fixed = site.route("/quality/fixed", FIXED)
    await mcp.ok("page_navigate", {"url": bare})
    low = await mcp.ok("cdp_run_quality_audit", {})
    assert set(low["scores"]) == {"performance", "accessibility", "seo", "best-practices"}
    assert all(0 <= s <= 100 for s in low["scores"].values())
    failed_seo = {c["id"] for c in low["categories"]["seo"]["failed"]}
    assert {"document-title", "meta-description", "html-lang", "link-text", "crawlable-links"} <= failed_seo
    assert "doctype" in {c["id"] for c in low["categories"]["best-practices"]["failed"]}
    assert low["metrics"]["fcp"] is not None
    report = json.loads(Path(low["report_paths"]["json"]).read_text())
    assert report["url"] == bare
    assert Path(low["report_paths"]["html"]).read_text().startswith("<!doctype html>")

    high = await mcp.ok("cdp_run_quality_audit", {"url": fixed, "categories": ["seo", "accessibility"],
                                                  "output_dir": "reports"})
    assert set(high["scores"]) == {"seo", "accessibility"}
    assert high["scores"]["seo"] > low["scores"]["seo"]
    assert high["scores"]["seo"] == 100.0
    assert high["scores"]["accessibility"] >= low["scores"]["accessibility"]
    assert "/reports/" in high["report_paths"]["json"]


async def test_quality_audit_mobile_and_bad_input(mcp, site):
    url = site.route("/quality/mobile", FIXED)
    data = await mcp.ok("cdp_run_quality_audit", {"url": url, "device": "mobile", "categories": ["performance"]})
    assert 0 <= data["scores"]["performance"] <= 100
    assert data["metrics"]["lcp"] is not None
    err = await mcp.fail("cdp_run_quality_audit", {"device": "tablet"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "device"
    err = await mcp.fail("cdp_run_quality_audit", {"categories": ["speed"]})
    assert err["code"] == "invalid_arguments"
    err = await mcp.fail("cdp_run_quality_audit", {"url": url, "output_dir": "../../escape"})
    assert err["code"] == "invalid_path"
