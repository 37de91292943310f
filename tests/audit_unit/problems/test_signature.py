"""Component signatures and problem ids, pure: churn (texts, hrefs, ids, positions, state
classes and attributes, generated classes, nesting depth) keeps the id; a different
component, rule or style does not; elements that were not described fall back to their
markup and selector."""

from __future__ import annotations

import copy

from audit.problems.signature import (
    component_css,
    component_signature,
    fallback_signature,
    folded_path,
    problem_id,
    readable_component,
)

NAV_LINK = {
    "tag": "a",
    "classes": ["nav-link"],
    "role": "",
    "computedRole": "link",
    "type": "",
    "aria": [],
    "path": [
        {"tag": "li", "classes": ["item"], "role": ""},
        {"tag": "ul", "classes": ["menu"], "role": ""},
        {"tag": "nav", "classes": ["main-nav"], "role": ""},
        {"tag": "header", "classes": ["site-header"], "role": ""},
    ],
    "landmarks": [["banner", ""], ["navigation", "Main"]],
    "style": {"color": "rgb(0, 0, 238)", "background": "rgb(255, 255, 255)", "fontSize": "16px"},
}


def pid(rule_id: str, component: dict) -> str:
    return problem_id(rule_id, component_signature(rule_id, component))


def churned(**changes) -> dict:
    component = copy.deepcopy(NAV_LINK)
    component.update(changes)
    return component


def test_churn_keeps_the_problem():
    base = pid("link-name", NAV_LINK)
    assert len(base) == 16
    state = churned(
        classes=["nav-link", "active", "is-current", "css-1q2w3e"],
        aria=["aria-current", "aria-expanded"],
        path=[
            {"tag": "li", "classes": ["item", "current", "selected"], "role": ""},
            *NAV_LINK["path"][1:],
        ],
    )
    renamed_landmark = churned(landmarks=[["banner", ""], ["navigation", "Primary menu"]])
    for other in (state, renamed_landmark, churned(style={"color": "red"})):
        assert pid("link-name", other) == base


def test_a_different_component_rule_or_style_is_another_problem():
    base = pid("link-name", NAV_LINK)
    footer = churned(
        landmarks=[["contentinfo", ""]],
        path=[
            {"tag": "li", "classes": ["item"], "role": ""},
            {"tag": "ul", "classes": ["menu"], "role": ""},
        ],
    )
    look_alike = churned(
        path=[
            {"tag": "li", "classes": ["item"], "role": ""},
            {"tag": "ul", "classes": ["tabs"], "role": ""},
        ]
    )
    others = {
        pid("link-name", footer),
        pid("link-name", look_alike),
        pid("link-name", churned(classes=["nav-link", "button"])),
        pid("link-name", churned(aria=["aria-describedby"])),
        pid("link-in-text-block", NAV_LINK),
        base,
    }
    assert len(others) == 6
    # A visual rule groups by the element and its style, wherever it is...
    moved = churned(landmarks=[["main", ""]], path=[{"tag": "p", "classes": [], "role": ""}])
    assert pid("color-contrast", moved) == pid("color-contrast", NAV_LINK)
    # ...and a different colour is another fix.
    recoloured = churned(style={**NAV_LINK["style"], "color": "rgb(170, 170, 170)"})
    assert pid("color-contrast", recoloured) != pid("color-contrast", NAV_LINK)


def test_folded_path_forgets_nesting_depth_and_stays_a_matching_selector():
    steps = [
        {"tag": "p"},
        {"tag": "section"},
        {"tag": "section"},
        {"tag": "section"},
        {"tag": "div", "classes": ["body"]},
    ]
    assert folded_path(steps) == ["div.body", "section >", "p >"]
    assert folded_path(steps[:2] + steps[4:]) == ["div.body >", "section >", "p >"]
    signature = component_signature("link-name", churned(path=steps))
    deeper = component_signature("link-name", churned(path=[steps[0], *steps[1:2] * 6, steps[4]]))
    assert problem_id("link-name", signature) == problem_id("link-name", deeper)
    assert folded_path(steps, depth=2) == ["section >", "p >"]  # its nearest section is the parent


def test_readable_component_and_its_selector():
    text = readable_component("link-name", component_signature("link-name", NAV_LINK))
    assert text == (
        "header \u203a navigation \u203a header.site-header > nav.main-nav > ul.menu > li.item > a.nav-link"
    )
    assert (
        component_css(text) == "header.site-header > nav.main-nav > ul.menu > li.item > a.nav-link"
    )
    visual = readable_component("color-contrast", component_signature("color-contrast", NAV_LINK))
    assert visual.startswith("a.nav-link: color rgb(0, 0, 238), background rgb(255, 255, 255)")
    assert component_css(visual) == "a.nav-link"


def test_fallback_from_markup_and_selector():
    one = fallback_signature(
        "link-name",
        "a",
        '<a class="nav-link active" href="/a" id="x1">',
        "#top > ul > li:nth-child(2) > a",
    )
    two = fallback_signature(
        "link-name",
        "a",
        '<a href="/b" class="nav-link">Other</a>',
        "#top > ul > li:nth-child(7) > a",
    )
    assert one == two == {"tag": "a", "classes": ["nav-link"], "selectorPath": ["ul >", "li >"]}
    framed = fallback_signature("image-alt", "img", "<img>", "iframe#ad >>> div > img")
    assert framed["frames"] == 1
    sibling = fallback_signature("link-name", "a", "<a>", "h2 + p > a")
    assert sibling["selectorPath"] == ["p >"]  # a sibling is no ancestor
    button = fallback_signature(
        "button-name",
        "button",
        '<button type="submit" role="tab" aria-selected="true" aria-controls="p">',
        "button",
    )
    assert (
        button["type"] == "submit"
        and button["role"] == "tab"
        and button["aria"] == ["aria-controls"]
    )
