import pytest

from audit.models import AuditResult, EngineInfo, Finding, PageResult, Stats
from audit.scoring import conformant, exit_code, overall_score, page_score, stats

from .axe_data import (
    BYPASS_TAGS,
    CONTRAST_TAGS,
    IMAGE_ALT_TAGS,
    LABEL_TAGS,
    LANG_TAGS,
    REGION_TAGS,
    node,
    results,
    rule,
    sample_page,
)


def test_page_score_hand_computed():
    # Applicable WCAG rules and weights:
    #   image-alt      failed  critical (reported)            10
    #   color-contrast failed  serious (violation wins)        7
    #   html-has-lang  passed  impact null, no map -> moderate 3
    #   label          passed  impact null, no map -> moderate 3
    #   bypass         incomplete -> passed, serious          7
    #   region (best-practice) and video-caption (inapplicable) are left out.
    # passed = 3 + 3 + 7 = 13, total = 10 + 7 + 3 + 3 + 7 = 30
    assert page_score(sample_page()) == pytest.approx(100 * 13 / 30)


def test_page_score_uses_rule_metadata_impacts():
    impacts = {"label": "critical", "html-has-lang": "serious", "image-alt": "critical"}
    # passed = 7 (lang) + 10 (label) + 7 (bypass) = 24; total = 10 + 7 + 7 + 10 + 7 = 41
    assert page_score(sample_page(), impacts) == pytest.approx(100 * 24 / 41)


def test_metadata_impact_wins_over_reported_impact():
    data = results(
        violations=[rule("image-alt", IMAGE_ALT_TAGS, "minor", [node("<img>", ["img"], "minor")])],
        passes=[rule("label", LABEL_TAGS)],
    )
    # Without metadata: failed minor 1, passed moderate 3 -> 75.
    assert page_score(data) == pytest.approx(75.0)
    # With metadata: failed critical 10, passed minor 1 -> 100/11.
    assert page_score(data, {"image-alt": "critical", "label": "minor"}) == pytest.approx(100 / 11)


def test_all_passed_and_all_failed():
    passes = results(passes=[rule("label", LABEL_TAGS), rule("html-has-lang", LANG_TAGS)])
    assert page_score(passes) == 100.0
    fails = results(
        violations=[rule("image-alt", IMAGE_ALT_TAGS, "critical", [node("<img>", ["img"])])]
    )
    assert page_score(fails) == 0.0


def test_no_applicable_rule_scores_100():
    assert page_score(results()) == 100.0
    only_inapplicable = results(inapplicable=[rule("video-caption", ["wcag2a", "wcag122"])])
    assert page_score(only_inapplicable) == 100.0
    only_best_practice = results(
        violations=[rule("region", REGION_TAGS, "moderate", [node("<div>", ["div"])])]
    )
    assert page_score(only_best_practice) == 100.0


def test_incomplete_counts_as_passed():
    data = results(
        violations=[rule("color-contrast", CONTRAST_TAGS, "serious", [node("<p>", ["p"])])],
        incomplete=[rule("bypass", BYPASS_TAGS, "serious", [node("<html>", ["html"])])],
    )
    assert page_score(data) == pytest.approx(50.0)


def test_overall_score():
    assert overall_score([100 * 13 / 30, 100.0]) == 71.7  # (43.33 + 100) / 2 = 71.67
    assert overall_score([92.25]) == 92.3  # half up, not banker's rounding
    assert overall_score([80.0, None, 90.0]) == 85.0
    assert overall_score([]) == 0.0
    assert overall_score([None]) == 0.0


def page(status="ok", url="https://example.com/") -> PageResult:
    return PageResult(url=url, status=status, score=100.0 if status == "ok" else None)


def finding(impact="serious", fid="f1") -> Finding:
    return Finding(
        id=fid,
        rule_id="r",
        description="d",
        impact=impact,
        level="A",
        element="p",
        selector="p",
        html="<p>",
        help="https://h",
    )


def test_conformant():
    assert conformant([page()], []) is True
    assert conformant([page(), page("skipped", "https://example.com/a.pdf")], []) is True
    assert conformant([page()], [finding("minor")]) is False
    assert conformant([page(), page("failed", "https://example.com/x")], []) is False
    assert conformant([], []) is False
    assert conformant([page("skipped")], []) is False


def test_stats():
    fs = [finding("critical"), finding("serious"), finding("serious"), finding("minor")]
    assert stats(fs, 3) == Stats(
        total_pages=3, total_findings=4, critical=1, serious=2, moderate=0, minor=1
    )
    assert stats([], 1).model_dump() == {
        "totalPages": 1,
        "totalFindings": 0,
        "critical": 0,
        "serious": 0,
        "moderate": 0,
        "minor": 0,
    }


def result_with(*impacts: str) -> AuditResult:
    fs = [finding(i, f"f{n}") for n, i in enumerate(impacts, 1)]
    return AuditResult(
        url="https://example.com/",
        wcag_version="2.2",
        wcag_level="AA",
        score=50.0,
        conformant=not fs,
        stats=stats(fs, 1),
        findings=fs,
        pages=[page()],
        engine=EngineInfo(version="4.11.4"),
    )


@pytest.mark.parametrize(
    ("impacts", "fail_on", "code"),
    [
        (("critical",), None, 0),
        ((), "minor", 0),
        (("moderate",), "serious", 0),
        (("moderate", "minor"), "serious", 0),
        (("serious",), "serious", 1),
        (("critical",), "serious", 1),
        (("minor",), "minor", 1),
        (("minor",), "moderate", 0),
        (("moderate",), "moderate", 1),
        (("serious",), "critical", 0),
        (("critical",), "CRITICAL", 1),
    ],
)
def test_exit_code(impacts, fail_on, code):
    assert exit_code(result_with(*impacts), fail_on) == code


def test_exit_code_rejects_unknown_threshold():
    with pytest.raises(ValueError):
        exit_code(result_with(), "blocker")
