from audit.findings import (
    best_practices_from,
    element_name,
    findings_from,
    number_findings,
    opening_tag,
    rules_tested,
    selector_from_target,
)

from .axe_data import (
    CONTRAST_TAGS,
    IMAGE_ALT_TAGS,
    REGION_TAGS,
    node,
    results,
    rule,
    sample_page,
)

PAGE = "https://example.com/"


def test_selector_frames_and_shadow_roots():
    assert selector_from_target(["#main"]) == "#main"
    assert (
        selector_from_target(["iframe#a", ["my-el", "button"]]) == "iframe#a >>> my-el >>> button"
    )
    assert selector_from_target([["x-app", "x-panel", "input"]]) == "x-app >>> x-panel >>> input"
    assert (
        selector_from_target(["iframe.outer", "iframe.inner", "a.more"])
        == "iframe.outer >>> iframe.inner >>> a.more"
    )
    assert selector_from_target("div") == "div"
    assert selector_from_target(None) == ""


def test_opening_tag():
    assert opening_tag('<a href="/x" title="a > b">text</a>') == '<a href="/x" title="a > b">'
    assert opening_tag("<p class='q'>Hello <b>world</b></p>") == "<p class='q'>"
    assert opening_tag("  <br>") == "<br>"
    assert opening_tag("") == ""
    long = '<img alt="' + "x" * 400 + '" src="a.png">'
    clipped = opening_tag(long)
    assert len(clipped) == 300 and clipped.startswith("<img alt=") and clipped.endswith("\u2026")
    # axe sometimes cuts the snippet before the tag closes; keep what is there.
    assert opening_tag('<div class="a b c" data-x="...') == '<div class="a b c" data-x="...'


def test_element_name():
    assert element_name('<IMG SRC="a.png">') == "img"
    assert element_name("<my-widget foo>") == "my-widget"
    assert element_name("", "div.card > button.primary") == "button"
    assert element_name(None, "iframe#a >>> my-el >>> span") == "span"
    assert element_name("", "#only-an-id") == ""


def test_findings_mapping():
    findings, review = findings_from(sample_page(), PAGE)
    assert [f.id for f in findings] == ["f1", "f2", "f3"]
    first, framed, contrast = findings
    assert first.rule_id == "image-alt"
    assert first.impact == "critical" and first.level == "A"
    assert first.success_criteria == ["1.1.1"]
    assert first.element == "img" and first.selector == "img.logo"
    assert first.html == '<img src="logo.png" class="logo">'
    assert first.help == "https://dequeuniversity.com/rules/axe/4.11/image-alt?application=axeAPI"
    assert first.help_text == "image-alt must be fine"
    assert first.description == "Ensures image-alt is fine"
    assert first.page_url == PAGE and first.source == "axe" and first.llm is None
    assert "alt attribute" in first.failure_summary
    assert framed.selector == "iframe#ads >>> ad-banner >>> img" and framed.element == "img"
    assert contrast.level == "AA" and contrast.success_criteria == ["1.4.3"]
    assert contrast.html == '<p class="faint">' and contrast.element == "p"
    # Best-practice violations never become findings.
    assert "region" not in {f.rule_id for f in findings}
    # Incomplete -> needs review only.
    assert [r.rule_id for r in review] == ["bypass"]
    (item,) = review
    assert item.id == "r1" and item.level == "A" and item.success_criteria == ["2.4.1"]
    assert item.reason == "No valid skip link found; Page has no heading"
    assert "bypass" not in {f.rule_id for f in findings}


def test_start_indexes():
    findings, review = findings_from(sample_page(), PAGE, 7, review_start_index=3)
    assert [f.id for f in findings] == ["f7", "f8", "f9"]
    assert [r.id for r in review] == ["r3"]


def test_impact_fallbacks():
    data = results(
        violations=[
            rule(
                "image-alt",
                IMAGE_ALT_TAGS,
                "serious",
                [
                    node("<img>", ["img.a"], "minor"),
                    node("<img>", ["img.b"], None),
                ],
            ),
            rule("color-contrast", CONTRAST_TAGS, None, [node("<p>", ["p"], None)]),
        ]
    )
    findings, _ = findings_from(data, PAGE)
    assert [f.impact for f in findings] == ["minor", "serious", "moderate"]


def test_duplicate_rule_selector_pairs_reported_once():
    data = results(
        violations=[
            rule(
                "image-alt",
                IMAGE_ALT_TAGS,
                "critical",
                [
                    node("<img>", ["img.a"], "critical"),
                    node("<img>", ["img.a"], "critical"),
                    node("<img>", ["img.b"], "critical"),
                ],
            ),
            rule("image-alt", IMAGE_ALT_TAGS, "critical", [node("<img>", ["img.a"], "critical")]),
        ]
    )
    findings, _ = findings_from(data, PAGE)
    assert [(f.id, f.selector) for f in findings] == [("f1", "img.a"), ("f2", "img.b")]


def test_best_practices_are_separate():
    data = sample_page()
    data["incomplete"].append(
        rule(
            "frame-tested",
            ["cat.structure", "best-practice", "review-item"],
            "critical",
            [node("<iframe>", ["iframe#x"], "critical")],
        )
    )
    items = best_practices_from(data, PAGE)
    assert [(b.id, b.rule_id, b.outcome) for b in items] == [
        ("b1", "region", "violation"),
        ("b2", "frame-tested", "needs_review"),
    ]
    findings, review = findings_from(data, PAGE)
    assert {"region", "frame-tested"}.isdisjoint({x.rule_id for x in findings + review})


def test_rules_tested():
    assert rules_tested(sample_page()) == [
        "bypass",
        "color-contrast",
        "html-has-lang",
        "image-alt",
        "label",
    ]


def test_number_findings_across_pages():
    a, _ = findings_from(sample_page(), PAGE)
    b, rb = findings_from(sample_page(), "https://example.com/about")
    numbered = number_findings(a + b)
    assert [f.id for f in numbered] == [f"f{i}" for i in range(1, 7)]
    assert numbered[3].page_url == "https://example.com/about"
    assert a[0].id == "f1" and b[0].id == "f1"  # inputs untouched
    assert [r.id for r in number_findings(rb + rb, "r")] == ["r1", "r2"]


def test_tolerates_missing_keys():
    assert findings_from({}, PAGE) == ([], [])
    data = {"violations": [{"id": "image-alt", "tags": ["wcag2a"], "nodes": [{"target": ["img"]}]}]}
    (f,), _ = findings_from(data, PAGE)
    assert f.impact == "moderate" and f.html == "" and f.element == "img" and f.help == ""


def test_non_wcag_rules_ignored_for_findings():
    data = results(violations=[rule("region", REGION_TAGS, "moderate", [node("<div>", ["div"])])])
    assert findings_from(data, PAGE) == ([], [])
