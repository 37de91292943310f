"""Synthetic axe-core results, shaped like ``axe.finishRun`` output with the v1 reporter."""

from __future__ import annotations

from typing import Any


def node(
    html: str,
    target: list[Any],
    impact: str | None = None,
    summary: str | None = None,
    messages: tuple[str, ...] = (),
) -> dict[str, Any]:
    return {
        "html": html,
        "impact": impact,
        "target": target,
        "failureSummary": summary,
        "any": [
            {"id": f"check{i}", "impact": impact, "message": m, "data": None, "relatedNodes": []}
            for i, m in enumerate(messages)
        ],
        "all": [],
        "none": [],
    }


def rule(
    rule_id: str,
    tags: list[str],
    impact: str | None = None,
    nodes: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "id": rule_id,
        "impact": impact,
        "tags": tags,
        "description": f"Ensures {rule_id} is fine",
        "help": f"{rule_id} must be fine",
        "helpUrl": f"https://dequeuniversity.com/rules/axe/4.11/{rule_id}?application=axeAPI",
        "nodes": nodes or [],
    }


def results(violations=(), passes=(), incomplete=(), inapplicable=()) -> dict[str, Any]:
    return {
        "violations": list(violations),
        "passes": list(passes),
        "incomplete": list(incomplete),
        "inapplicable": list(inapplicable),
        "testEngine": {"name": "axe-core", "version": "4.11.4"},
    }


IMAGE_ALT_TAGS = ["cat.text-alternatives", "wcag2a", "wcag111", "section508", "ACT"]
CONTRAST_TAGS = ["cat.color", "wcag2aa", "wcag143", "TTv5", "EN-301-549"]
LABEL_TAGS = ["cat.forms", "wcag2a", "wcag131", "wcag412"]
LANG_TAGS = ["cat.language", "wcag2a", "wcag311"]
BYPASS_TAGS = ["cat.keyboard", "wcag2a", "wcag241"]
TARGET_SIZE_TAGS = ["cat.sensory-and-visual-cues", "wcag22aa", "wcag258"]
SPACING_TAGS = ["cat.structure", "wcag21aa", "wcag1412"]
REGION_TAGS = ["cat.keyboard", "best-practice"]


def sample_page() -> dict[str, Any]:
    """One page: two WCAG violations (one in a frame + shadow root), a best-practice
    violation, passes, a needs-review item and an inapplicable rule."""
    return results(
        violations=[
            rule(
                "image-alt",
                IMAGE_ALT_TAGS,
                "critical",
                [
                    node(
                        '<img src="logo.png" class="logo">',
                        ["img.logo"],
                        "critical",
                        "Fix any of the following:\n  Element does not have an alt attribute",
                    ),
                    node('<IMG SRC="a.png">', ["iframe#ads", ["ad-banner", "img"]], "critical"),
                ],
            ),
            rule(
                "color-contrast",
                CONTRAST_TAGS,
                "serious",
                [node('<p class="faint">Hello <b>world</b></p>', ["p.faint"], "serious")],
            ),
            rule(
                "region", REGION_TAGS, "moderate", [node("<div>loose</div>", ["div"], "moderate")]
            ),
        ],
        passes=[
            rule("html-has-lang", LANG_TAGS, None, [node('<html lang="en">', ["html"])]),
            rule("color-contrast", CONTRAST_TAGS, None, [node("<h1>Title</h1>", ["h1"])]),
            rule("label", LABEL_TAGS, None, [node('<input id="q">', ["#q"])]),
        ],
        incomplete=[
            rule(
                "bypass",
                BYPASS_TAGS,
                "serious",
                [
                    node(
                        "<html>",
                        ["html"],
                        "serious",
                        messages=("No valid skip link found", "Page has no heading"),
                    )
                ],
            )
        ],
        inapplicable=[rule("video-caption", ["wcag2a", "wcag122"])],
    )
