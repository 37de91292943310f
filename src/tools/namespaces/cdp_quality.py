"""cdp_run_quality_audit: Lighthouse-style category scores computed over CDP alone.

Accessibility is the audit engine's axe score; performance puts measured
metrics on Lighthouse's published log-normal curves; SEO and best practices
are documented checks, each listed as passed or failed with what was found.
"""

from __future__ import annotations

import html
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ..errors import ToolError
from ..models import ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession


Category = Literal["performance", "accessibility", "seo", "best-practices"]
ALL_CATEGORIES: list[Category] = ["performance", "accessibility", "seo", "best-practices"]

# Lighthouse 10+ scoring: (p10, median) per metric and device, and the metric weights.
CURVES = {
    "desktop": {"fcp": (934, 1600), "speed_index": (1311, 2300), "lcp": (1200, 2400),
                "tbt": (150, 350), "cls": (0.1, 0.25)},
    "mobile": {"fcp": (1800, 3000), "speed_index": (3387, 5800), "lcp": (2500, 4000),
               "tbt": (200, 600), "cls": (0.1, 0.25)},
}
WEIGHTS = {"fcp": 10, "speed_index": 10, "lcp": 25, "tbt": 30, "cls": 25}

# Lighthouse's mobile profile: a mid-range phone, 4x CPU slowdown, slow 4G.
DEVICES = {
    "desktop": {"metrics": {"width": 1350, "height": 940, "deviceScaleFactor": 1, "mobile": False},
                "cpu": 1, "network": None},
    "mobile": {"metrics": {"width": 412, "height": 823, "deviceScaleFactor": 1.75, "mobile": True},
               "cpu": 4, "network": {"offline": False, "latency": 150, "downloadThroughput": 1_638_400 * 0.9 / 8,
                                     "uploadThroughput": 750_000 * 0.9 / 8}},
}


def log_normal_score(value: float | None, p10: float, median: float) -> float | None:
    """Lighthouse's curve: the median scores 0.5 and p10 scores 0.9."""
    if value is None:
        return None
    if value <= 0:
        return 1.0
    sigma = (math.log(median) - math.log(p10)) / 1.2815515655446004
    z = (math.log(value) - math.log(median)) / (sigma * math.sqrt(2))
    return max(0.0, min(1.0, 0.5 * math.erfc(z)))


@dataclass(frozen=True)
class Check:
    id: str
    category: str
    title: str
    test: Callable[[dict[str, Any]], tuple[bool, str]]


def _listed(items: list[str], what: str) -> tuple[bool, str]:
    return (not items, f"{len(items)} {what}" + (f": {', '.join(items[:5])}" if items else ""))


CHECKS = [
    Check("document-title", "seo", "Document has a <title>", lambda f: (bool(f["title"]), f["title"] or "no title")),
    Check("meta-description", "seo", "Document has a meta description",
          lambda f: (bool(f["description"]), f["description"][:80] or "no meta description")),
    Check("viewport", "seo", "Has a <meta name=viewport> with width or initial-scale",
          lambda f: (bool(f["viewport"]) and ("width" in f["viewport"] or "initial-scale" in f["viewport"]),
                     f["viewport"] or "no viewport meta")),
    Check("html-lang", "seo", "<html> has a lang attribute", lambda f: (bool(f["lang"]), f["lang"] or "no lang")),
    Check("crawlable-links", "seo", "Links have crawlable href values",
          lambda f: (f["uncrawlable"] == 0, f"{f['uncrawlable']} links without a crawlable href")),
    Check("link-text", "seo", "Links have descriptive text", lambda f: _listed(f["genericLinks"], "generic link texts")),
    Check("is-crawlable", "seo", "Page is not blocked from indexing",
          lambda f: ("noindex" not in f["robots"], f"robots: {f['robots'] or 'none'}")),
    Check("canonical", "seo", "rel=canonical is absent or a valid absolute URL",
          lambda f: (f["canonical"] is None or f["canonical"].startswith(("http://", "https://")),
                     f["canonical"] or "no canonical")),
    Check("http-status-code", "seo", "Page has a successful HTTP status",
          lambda f: (f["status"] is None or f["status"] < 400, f"status {f['status']}")),
    Check("image-alt", "seo", "Images have alt attributes", lambda f: _listed(f["imagesWithoutAlt"], "images without alt")),
    Check("is-on-https", "best-practices", "Uses HTTPS (loopback exempt)",
          lambda f: (f["protocol"] == "https:" or f["hostname"] in ("localhost", "127.0.0.1", "[::1]"), f["protocol"])),
    Check("errors-in-console", "best-practices", "No errors logged to the console",
          lambda f: _listed(f["consoleErrors"], "console errors")),
    Check("deprecations", "best-practices", "Uses no deprecated APIs", lambda f: _listed(f["deprecations"], "deprecations")),
    Check("doctype", "best-practices", "Page has the HTML doctype",
          lambda f: (f["doctype"] == "html", f"doctype {f['doctype'] or 'missing'}")),
    Check("charset", "best-practices", "Declares a UTF-8 character set",
          lambda f: (f["charsetDeclared"] and f["charset"].lower() == "utf-8", f"{f['charset']} declared={f['charsetDeclared']}")),
    Check("image-aspect-ratio", "best-practices", "Images are shown with their natural aspect ratio",
          lambda f: _listed(f["distortedImages"], "distorted images")),
]


class QualityInput(ToolInput):
    categories: list[Category] = Field(default_factory=lambda: list(ALL_CATEGORIES), min_length=1)
    device: Literal["desktop", "mobile"] = "desktop"
    output_dir: str | None = None
    url: str | None = None
    timeout_ms: int = Field(default=60000, ge=1000, le=600000)


class QualityOutput(ToolOutput):
    url: str
    scores: dict[str, float] = Field(description="0-100 per requested category")
    passed_audits: int
    failed_audits: int
    report_paths: dict[str, str] = Field(description="json and html report files")
    categories: dict[str, Any] = Field(description="Per category: score, passed and failed checks")
    metrics: dict[str, Any] = Field(default_factory=dict, description="Measured performance metrics (ms; CLS unitless)")


async def _measure(session: ToolSession, url: str, device: str, timeout: float) -> dict[str, Any]:
    """Load ``url`` in a fresh context under the device profile and collect facts and metrics.

    The vitals observer is installed before any page script, so it sees the whole load (paint,
    layout shifts); one pass of ``quality_collect`` over the loaded page then gathers the
    metrics and the facts the SEO and best-practice checks need.
    """
    import trio

    from cdpdriver.scripts import load_script

    browser = await session.ensure_browser()
    profile = DEVICES[device]
    async with browser.context() as ctx, ctx.page() as page:
        s = page.session
        await s.send("Emulation.setDeviceMetricsOverride", profile["metrics"])
        if profile["metrics"]["mobile"]:
            await s.send("Emulation.setTouchEmulationEnabled", {"enabled": True})
        if profile["cpu"] > 1:
            await s.send("Emulation.setCPUThrottlingRate", {"rate": profile["cpu"]})
        await s.send("Page.addScriptToEvaluateOnNewDocument", {"source": load_script("tools", "quality_vitals_observer")})
        errors: list[str] = []
        deprecations: list[str] = []
        with s.listen(["Runtime.exceptionThrown", "Runtime.consoleAPICalled", "Log.entryAdded",
                       "Audits.issueAdded"], raw=True) as events:
            for domain in ("Runtime", "Log", "Audits"):
                await s.send(f"{domain}.enable")
            if profile["network"]:
                await s.send("Network.enable")
                await s.send("Network.emulateNetworkConditions", profile["network"])
            started = time.perf_counter()
            await page.navigate(url, wait_until="networkidle", timeout=timeout)
            await trio.sleep(0.3)  # let the last LCP / layout-shift entries land
            facts = await page.evaluate(load_script("tools", "quality_collect"))
            facts["wall_ms"] = round((time.perf_counter() - started) * 1000)
            while True:
                try:
                    event = events.receive_nowait()
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
                _classify(event.method, event.params, errors, deprecations)
    facts["consoleErrors"], facts["deprecations"] = errors, sorted(set(deprecations))
    return facts


def _classify(method: str, params: dict[str, Any], errors: list[str], deprecations: list[str]) -> None:
    if method == "Runtime.exceptionThrown":
        details = params.get("exceptionDetails") or {}
        errors.append(str((details.get("exception") or {}).get("description") or details.get("text", "")).split("\n")[0])
    elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
        errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args") or []))
    elif method == "Log.entryAdded":
        entry = params.get("entry") or {}
        if entry.get("source") == "deprecation":
            deprecations.append(entry.get("text", ""))
        elif entry.get("level") == "error":
            errors.append(entry.get("text", ""))
    elif method == "Audits.issueAdded":
        issue = params.get("issue") or {}
        if issue.get("code") == "DeprecationIssue":
            details = (issue.get("details") or {}).get("deprecationIssueDetails") or {}
            deprecations.append(str(details.get("type", "deprecated API")))


def _performance(facts: dict[str, Any], device: str) -> tuple[float, dict[str, Any], list[dict], list[dict]]:
    values = {"fcp": facts["fcp"], "lcp": facts["lcp"], "tbt": facts["tbt"], "cls": facts["cls"]}
    if facts["fcp"] is not None and facts["lcp"] is not None:
        values["speed_index"] = (facts["fcp"] + facts["lcp"]) / 2  # nearest CDP-only stand-in
    else:
        values["speed_index"] = facts["fcp"]
    passed, failed, total, weight = [], [], 0.0, 0
    for metric, (p10, median) in CURVES[device].items():
        score = log_normal_score(values.get(metric), p10, median)
        if score is None:
            failed.append({"id": metric, "title": f"{metric} could not be measured", "detail": None})
            continue
        entry = {"id": metric, "title": metric, "value": round(values[metric], 3), "score": round(score, 3)}
        (passed if score >= 0.9 else failed).append(entry)
        total += score * WEIGHTS[metric]
        weight += WEIGHTS[metric]
    metrics = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in values.items()}
    metrics["lcp_element"] = facts.get("lcpElement")
    return (round(100 * total / weight, 1) if weight else 0.0), metrics, passed, failed


def _checks(facts: dict[str, Any], category: str) -> tuple[float, list[dict], list[dict]]:
    passed, failed = [], []
    for check in (c for c in CHECKS if c.category == category):
        ok, detail = check.test(facts)
        (passed if ok else failed).append({"id": check.id, "title": check.title, "detail": detail})
    total = len(passed) + len(failed)
    return round(100 * len(passed) / total, 1) if total else 100.0, passed, failed


async def _accessibility(session: ToolSession, url: str, timeout: float) -> tuple[float, list[dict], list[dict]]:
    import trio

    from audit.engine import audit_page
    from audit.failures import AuditFailed
    from audit.models import AuditRequest

    browser = await session.ensure_browser()
    try:
        with trio.fail_after(timeout):
            audit = await audit_page(browser, url, AuditRequest.model_validate({"url": url}))
    except AuditFailed as exc:
        raise ToolError(exc.code, f"the accessibility audit failed: {exc}") from exc
    failing = {f.rule_id for f in audit.findings}
    passed = [{"id": r, "title": r, "detail": None} for r in audit.page.rules_tested if r not in failing]
    failed = [{"id": r, "title": r, "detail": f"{sum(f.rule_id == r for f in audit.findings)} elements"}
              for r in sorted(failing)]
    return float(audit.page.score if audit.page.score is not None else 100.0), passed, failed


@tool("cdp_run_quality_audit", QualityInput, QualityOutput, effect="acts", open_world=True, long=True)
async def cdp_run_quality_audit(session: ToolSession, args: QualityInput) -> QualityOutput:
    """Lighthouse-style 0-100 scores (performance, accessibility, SEO, best practices) with reports;
    takes seconds."""
    url = args.url or await (await session.tab()).url()
    if not url.startswith(("http://", "https://")):
        raise ToolError("invalid_arguments", f"url: {url!r} is not an http(s) page; navigate first or pass url")
    timeout = args.timeout_ms / 1000
    categories: dict[str, Any] = {}
    metrics: dict[str, Any] = {}
    wanted = list(dict.fromkeys(args.categories))
    measures = bool({"performance", "seo", "best-practices"} & set(wanted))
    phases = measures + ("accessibility" in wanted) + 1  # the last: writing the reports
    done = 0
    if measures:
        await session.report(done, phases, f"loading {url} on {args.device} to measure it")
        facts = await _measure(session, url, args.device, timeout)
        done += 1
        if "performance" in wanted:
            score, metrics, passed, failed = _performance(facts, args.device)
            categories["performance"] = {"score": score, "passed": passed, "failed": failed}
        for name in ("seo", "best-practices"):
            if name in wanted:
                score, passed, failed = _checks(facts, name)
                categories[name] = {"score": score, "passed": passed, "failed": failed}
    if "accessibility" in wanted:
        await session.report(done, phases, "auditing accessibility")
        score, passed, failed = await _accessibility(session, url, timeout)
        done += 1
        categories["accessibility"] = {"score": score, "passed": passed, "failed": failed}
    categories = {name: categories[name] for name in wanted}
    await session.report(done, phases, "writing the reports")
    report = {"url": url, "device": args.device, "categories": categories, "metrics": metrics}
    stem = f"quality-{time.strftime('%Y%m%d-%H%M%S')}"
    folder = f"{args.output_dir.rstrip('/')}/" if args.output_dir else ""
    json_path = session.output_path(f"{folder}{stem}.json", f"{stem}.json")
    html_path = session.output_path(f"{folder}{stem}.html", f"{stem}.html")
    json_path.write_text(json.dumps(report, indent=2))
    html_path.write_text(_html(report))
    return QualityOutput(
        url=url,
        scores={name: c["score"] for name, c in categories.items()},
        passed_audits=sum(len(c["passed"]) for c in categories.values()),
        failed_audits=sum(len(c["failed"]) for c in categories.values()),
        report_paths={"json": str(json_path), "html": str(html_path)},
        categories=categories,
        metrics=metrics,
    )


def _html(report: dict[str, Any]) -> str:
    esc = html.escape
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8><title>Quality report: {esc(report['url'])}</title>",
             "<style>body{font:16px system-ui;margin:2rem;color:#111}td,th{padding:.25rem .5rem;text-align:left}"
             ".fail{color:#a00000}.pass{color:#05610f}</style>",
             f"<h1>Quality report</h1><p>{esc(report['url'])} ({esc(report['device'])})</p>"]
    for name, cat in report["categories"].items():
        parts.append(f"<h2>{esc(name)}: {cat['score']}</h2><table><tr><th scope=col>Check</th>"
                     "<th scope=col>Result</th><th scope=col>Detail</th></tr>")
        for verdict, rows in (("fail", cat["failed"]), ("pass", cat["passed"])):
            for row in rows:
                parts.append(f"<tr><td>{esc(str(row['title']))}</td><td class={verdict}>{verdict}ed</td>"
                             f"<td>{esc(str(row.get('detail') or row.get('value') or ''))}</td></tr>")
        parts.append("</table>")
    return "".join(parts) + "</html>"
