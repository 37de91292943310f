import copy
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import jsonschema
import pytest

from audit.findings import best_practices_from, findings_from, number_findings, rules_tested
from audit.models import (
    AuditResult,
    EngineInfo,
    ErrorInfo,
    FindingReview,
    LlmSummary,
    PageResult,
)
from audit.reports import FORMATS, render
from audit.reports.html import PALETTE, report_script
from audit.reports.sarif import sarif_log
from audit.scoring import conformant, overall_score, page_score, stats
from tests.support.sarif import validate_sarif

from .axe_data import IMAGE_ALT_TAGS, node, results, rule, sample_page

EVIL_URL = 'https://example.com/?q=<script>alert("x")</script>&a=1'
EVIL_HTML = '<img alt="" onerror="alert(\'&\')" src="x.png">'


def evil_page() -> dict:
    return results(
        violations=[
            rule(
                "image-alt",
                IMAGE_ALT_TAGS,
                "critical",
                [
                    node(
                        EVIL_HTML,
                        ['img[onerror="<b>"]'],
                        "critical",
                        "Fix any of the following:\n  <script>bad()</script> & more\x01",
                    ),
                ],
            )
        ]
    )


def build_result(best_practices: bool = True) -> AuditResult:
    """A two-page audit plus one failed page, assembled with the pure functions only."""
    pages_axe = [("https://example.com/", sample_page()), (EVIL_URL, evil_page())]
    findings, review, bps, pages, scores = [], [], [], [], []
    for url, axe in pages_axe:
        f, r = findings_from(axe, url)
        findings += f
        review += r
        if best_practices:
            bps += best_practices_from(axe, url)
        score = page_score(axe)
        scores.append(score)
        pages.append(
            PageResult(
                url=url,
                status="ok",
                http_status=200,
                score=score,
                findings=len(f),
                rules_tested=rules_tested(axe),
                untested_frames=["iframe#closed"] if url == EVIL_URL else [],
            )
        )
    pages.append(
        PageResult(
            url="https://example.com/down",
            status="failed",
            error=ErrorInfo(code="navigation_failed", message="net::ERR_CONNECTION_REFUSED\x1b[2J"),
        )
    )
    findings = number_findings(findings)
    findings[0] = findings[0].model_copy(
        update={
            "llm": FindingReview(
                verdict="confirmed",
                confidence=0.9,
                reasoning="Logo <img> has no alt",
                suggested_fix='<img alt="ACME" src="logo.png">',
            )
        }
    )
    return AuditResult(
        url="https://example.com/",
        wcag_version="2.2",
        wcag_level="AA",
        score=overall_score(scores),
        conformant=conformant(pages, findings),
        stats=stats(findings, len(pages)),
        findings=findings,
        needs_review=number_findings(review, "r"),
        best_practices=number_findings(bps, "b"),
        pages=pages,
        duration_ms=4321,
        engine=EngineInfo(version="4.11.4"),
        llm=LlmSummary(provider="anthropic", model="claude-x", reviewed=1, tokens_used=900),
    )


@pytest.fixture
def result() -> AuditResult:
    return build_result()


def test_render_dispatch(result):
    for fmt in FORMATS:
        out = render(result, fmt)
        assert isinstance(out, str) and out.strip()
    assert render(result, "JSON") == render(result, "json")
    with pytest.raises(ValueError):
        render(result, "pdf")


def test_json_round_trip(result):
    data = json.loads(render(result, "json"))
    assert data["wcagVersion"] == "2.2" and data["stats"]["totalFindings"] == 4
    assert AuditResult.model_validate(data) == result


def test_text_report(result):
    text = render(result, "text")
    assert "Accessibility audit of https://example.com/" in text
    assert f"Score:       {result.score:.1f} / 100" in text
    assert "Conformant:  no" in text
    assert "critical 3, serious 1" in text
    # Grouped by rule, most severe first, with selector and success criteria.
    assert text.index("[critical] image-alt") < text.index("[serious] color-contrast")
    assert "success criteria 1.1.1" in text and "success criteria 1.4.3" in text
    assert "iframe#ads >>> ad-banner >>> img" in text
    assert "navigation_failed" in text and "untested frame: iframe#closed" in text
    assert "Needs review" in text and "No valid skip link found" in text
    assert "Best practices" in text and "region" in text
    assert "\x1b" not in text  # no terminal escape sequences from page data


# -- SARIF -------------------------------------------------------------------


def test_sarif_structure(result):
    log = json.loads(render(result, "sarif"))
    assert log == sarif_log(result)
    validate_sarif(log)
    assert log["version"] == "2.1.0"
    assert log["$schema"].startswith("https://") and "sarif-2.1.0" in log["$schema"]
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "a11y"
    rules = driver["rules"]
    ids = [r["id"] for r in rules]
    assert len(ids) == len(set(ids))
    assert {"image-alt", "color-contrast", "bypass", "region"} <= set(ids)
    image_alt = rules[ids.index("image-alt")]
    assert image_alt["helpUri"].startswith("https://dequeuniversity.com/rules/")
    assert "WCAG-1.1.1" in image_alt["properties"]["tags"]
    for res in run["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        loc = res["locations"][0]
        assert loc["physicalLocation"]["artifactLocation"]["uri"]
        assert loc["logicalLocations"][0]["fullyQualifiedName"]
        if res["kind"] != "fail":
            assert res["level"] == "none"  # SARIF: non-fail results have level none
    fails = [
        r for r in run["results"] if r["kind"] == "fail" and "bestPractice" not in r["properties"]
    ]
    assert len(fails) == len(result.findings)
    levels = {(r["properties"]["impact"], r["level"]) for r in fails}
    assert levels == {("critical", "error"), ("serious", "error")}
    framed = next(
        r
        for r in fails
        if "iframe#ads" in r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
    )
    assert framed["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "https://example.com/"
    )
    assert [r["kind"] for r in run["results"]].count("review") == len(result.needs_review)
    (inv,) = run["invocations"]
    assert inv["executionSuccessful"] is False
    assert "ERR_CONNECTION_REFUSED" in inv["toolExecutionNotifications"][0]["message"]["text"]


def test_sarif_level_mapping():
    from audit.reports.sarif import LEVEL_BY_IMPACT

    assert LEVEL_BY_IMPACT == {
        "critical": "error",
        "serious": "error",
        "moderate": "warning",
        "minor": "note",
    }


@pytest.mark.parametrize(
    "breakage",
    [
        pytest.param(lambda log: log.update(version="2.0.0"), id="wrong-version"),
        pytest.param(lambda log: log["runs"][0]["results"][0].pop("message"), id="no-message"),
        pytest.param(
            lambda log: log["runs"][0]["results"][0].update(level="fatal"), id="bad-level"
        ),
        pytest.param(lambda log: log["runs"][0]["tool"].pop("driver"), id="no-driver"),
    ],
)
def test_sarif_validator_rejects_a_broken_log(result, breakage):
    log = sarif_log(result)
    validate_sarif(log)  # the intact log passes, so the failure below is the breakage's
    broken = copy.deepcopy(log)
    breakage(broken)
    with pytest.raises(jsonschema.ValidationError):
        validate_sarif(broken)


# -- JUnit -------------------------------------------------------------------


def test_junit_parses_back(result):
    xml = render(result, "junit")
    root = ET.fromstring(xml.encode("utf-8"))
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [p.url for p in result.pages]
    home, evil, down = suites
    cases = {c.get("name"): c for c in home.findall("testcase")}
    assert set(cases) == set(result.pages[0].rules_tested)
    assert cases["image-alt"].find("failure") is not None
    assert cases["color-contrast"].find("failure") is not None
    assert cases["label"].find("failure") is None
    assert "No valid skip link found" in cases["bypass"].find("system-out").text
    failure = cases["image-alt"].find("failure")
    assert failure.get("type") == "critical"
    assert "img.logo" in failure.text and "iframe#ads >>> ad-banner >>> img" in failure.text
    assert home.get("tests") == "5" and home.get("failures") == "2"
    evil_case = evil.find("testcase[@name='image-alt']/failure")
    assert "<script>bad()</script>" in evil_case.text  # escaped in XML, intact when parsed
    assert "\x01" not in evil_case.text
    assert down.find("testcase/error").get("type") == "navigation_failed"
    assert root.get("tests") == str(sum(int(s.get("tests")) for s in suites))
    assert root.get("failures") == "3" and root.get("errors") == "1"


def test_junit_without_pages():
    res = build_result().model_copy(update={"pages": []})
    root = ET.fromstring(render(res, "junit"))
    (suite,) = root.findall("testsuite")
    assert int(suite.get("failures")) == 2  # image-alt and color-contrast; no finding lost


# -- HTML --------------------------------------------------------------------


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _luminance(hex_color: str) -> float:
    rgb = [int(hex_color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_html_escapes_page_strings(result):
    html = render(result, "html")
    # The one script is the report's own (filters), inline; no page string can reach it.
    assert html.lower().count("<script") == 1 and f"<script>{report_script()}</script>" in html
    assert EVIL_HTML not in html
    assert "&lt;img alt=&quot;&quot; onerror=&quot;alert(&#x27;&amp;&#x27;)&quot;" in html
    assert "q=&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;a=1" in html
    assert "img[onerror=&quot;&lt;b&gt;&quot;]" in html
    assert "Logo &lt;img&gt; has no alt" in html
    assert "\x01" not in html and "\x1b" not in html


def test_html_self_contained(result):
    html = render(result, "html")
    parser = _Collector()
    parser.feed(html)
    help_urls = {f.help for f in result.findings} | {r.help for r in result.needs_review}
    for tag, attrs in parser.tags:
        assert tag not in ("link", "img", "iframe", "object", "embed")  # no screenshots given
        assert "src" not in attrs  # the report's script is inline
        if "href" in attrs:
            assert attrs["href"].startswith("#") or attrs["href"] in help_urls, attrs
    assert not re.search(r"url\(|@import", html)


def test_html_is_accessible(result):
    html = render(result, "html")
    parser = _Collector()
    parser.feed(html)
    tags = [t for t, _ in parser.tags]
    assert ("html", {"lang": "en"}) in parser.tags
    assert "title" in tags and tags.count("h1") == 1
    levels = [int(t[1]) for t in tags if re.fullmatch(r"h[1-6]", t)]
    assert levels[0] == 1 and all(b - a <= 1 for a, b in zip(levels, levels[1:], strict=False))
    assert tags.count("table") == tags.count("caption")
    ths = [a for t, a in parser.tags if t == "th"]
    assert ths and all(a.get("scope") in ("col", "row") for a in ths)
    for name, (fg, bg) in PALETTE.items():
        assert _contrast(fg, bg) >= 4.5, name


def test_html_no_findings():
    res = build_result(best_practices=False).model_copy(
        update={"findings": [], "needs_review": [], "conformant": True}
    )
    html = render(res, "html")
    assert "No WCAG findings." in html and "Best practices" not in html
