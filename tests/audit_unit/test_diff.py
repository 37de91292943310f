"""Diffs by fingerprint, the pure half of fingerprints, and SARIF's baseline states
(validated against the official SARIF 2.1.0 schema)."""

from __future__ import annotations

import jsonschema
import pytest

from audit.diff import diff_items, fingerprint_of
from audit.fingerprints import (
    SARIF_KEY,
    element_identity,
    fingerprint,
    looks_generated,
    normalize_page_url,
)
from audit.models import AuditResult, EngineInfo, Finding, NeedsReviewItem, Stats
from audit.reports.sarif import sarif_log
from tests.support.sarif import validate_sarif

PAGE = "https://example.com/shop"


def finding(fp: str, impact: str = "serious", rule: str = "image-alt", **more) -> Finding:
    return Finding(
        id="f1", rule_id=rule, description="d", impact=impact, element="img", selector=f"#{fp}",
        html="<img>", help="https://example.com/help", page_url=PAGE, level="A", fingerprint=fp,
        **more,
    )


def result_of(findings: list[Finding], review: list[NeedsReviewItem] = ()) -> AuditResult:
    return AuditResult(
        url=PAGE, wcag_version="2.2", wcag_level="AA", score=50.0, conformant=not findings,
        stats=Stats(total_pages=1, total_findings=len(findings)), findings=findings,
        needs_review=list(review), engine=EngineInfo(version="4.11.4"),
    )


@pytest.mark.parametrize(
    ("url", "normal"),
    [
        ("HTTPS://Example.COM:443/shop/?b=2&a=1#top", "https://example.com/shop?a=1&b=2"),
        ("http://user:pw@example.com:8080", "http://example.com:8080/"),
        ("http://example.com/a/b/", "http://example.com/a/b"),
        ("about:srcdoc", "about:srcdoc"),
    ],
)
def test_page_urls_are_normalized(url, normal):
    assert normalize_page_url(url) == normal


def test_generated_ids_are_told_from_written_ones():
    for generated in (":r1:", "ember123", "css-1q2w3e", "input-8f3a2c9d", "x12",
                      "3f2504e0-4f89-11d3-9a0c-0305e82c3301"):
        assert looks_generated(generated), generated
    for written in ("search", "main-nav", "h1", "section2", "email_field", "step-2"):
        assert not looks_generated(written), written


def test_identity_drops_generated_ids_and_empty_parts_and_keeps_frames_only_in_frames():
    raw = {"tag": "input", "role": "textbox", "name": "", "attrs": {"id": "input-8f3a2c9d",
           "for": "", "name": "email"}, "landmarks": [["main", ""]], "documentUrl": "http://a/"}
    assert element_identity(raw) == {
        "tag": "input", "role": "textbox", "attrs": {"name": "email"}, "landmarks": [["main", ""]],
    }
    assert element_identity(raw, in_frame=True)["frame"] == "http://a/"
    same = fingerprint("label", "https://EXAMPLE.com/shop/", element_identity(raw))
    assert same == fingerprint("label", PAGE + "#x", element_identity(raw))
    assert same != fingerprint("label", PAGE, element_identity(raw), occurrence=1)
    assert same != fingerprint("label", PAGE, element_identity(raw), viewport="mobile")
    assert same == fingerprint("label", PAGE, element_identity(raw), viewport="desktop")


def test_diff_by_fingerprint_as_a_multiset_for_models_and_json():
    current = [finding("a"), finding("b"), finding("b"), finding("n1", "minor"), finding("n2", "critical")]
    baseline = [finding("a"), finding("b"), finding("gone")]
    diff = diff_items(current, baseline)
    assert diff.counts() == {"new": 3, "fixed": 1, "unchanged": 2}
    assert [f.fingerprint for f in diff.new] == ["b", "n1", "n2"]
    assert [f.fingerprint for f in diff.fixed] == ["gone"]
    assert [f.fingerprint for f in diff.new_at_or_above("serious")] == ["b", "n2"]
    assert [f.fingerprint for f in diff.new_at_or_above("critical")] == ["n2"]
    as_json = diff_items([f.model_dump(mode="json") for f in current],
                         [f.model_dump(mode="json") for f in baseline])
    assert as_json.counts() == diff.counts()
    # An item stored before fingerprints existed gets its selector-free one.
    legacy = finding("").model_dump(mode="json")
    legacy.pop("fingerprint")
    assert fingerprint_of(legacy) == fingerprint_of(finding("")) != ""


def test_sarif_marks_baseline_states_and_fingerprints():
    review = NeedsReviewItem(
        id="r1", rule_id="color-contrast", description="d", impact="serious", element="p",
        selector="p", html="<p>", help="https://example.com/help", page_url=PAGE, level="AA",
        reason="unsure", fingerprint="rv",
    )
    current = result_of([finding("kept"), finding("fresh", "critical")], [review])
    baseline = result_of([finding("kept"), finding("gone", "minor", rule="link-name")])

    plain = sarif_log(current)
    validate_sarif(plain)
    for res in plain["runs"][0]["results"]:
        assert "baselineState" not in res and res["partialFingerprints"][SARIF_KEY]

    log = sarif_log(current, baseline)
    validate_sarif(log)
    run = log["runs"][0]
    states = {res["partialFingerprints"][SARIF_KEY]: (res["baselineState"], res["kind"])
              for res in run["results"]}
    assert states == {"kept": ("unchanged", "fail"), "fresh": ("new", "fail"),
                      "rv": ("new", "review"), "gone": ("absent", "pass")}
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    for res in run["results"]:
        assert rules[res["ruleIndex"]] == res["ruleId"]
    broken = sarif_log(current, baseline)
    broken["runs"][0]["results"][0]["baselineState"] = "gone"
    with pytest.raises(jsonschema.ValidationError, match="gone"):
        validate_sarif(broken)
