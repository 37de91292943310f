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
    review_signature,
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
        "header \u203a navigation \u203a ul.menu li.item a.nav-link"
    )
    assert component_css(text) == "ul.menu li.item a.nav-link"
    visual = readable_component("color-contrast", component_signature("color-contrast", NAV_LINK))
    assert visual == "a.nav-link: color rgb(0, 0, 238)"
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
    assert one == two == {"tag": "a", "classes": ["nav-link"], "selectorPath": ["ul", "li"]}
    framed = fallback_signature("image-alt", "img", "<img>", "iframe#ad >>> div > img")
    assert framed["frames"] == 1
    sibling = fallback_signature("link-name", "a", "<a>", "h2 + p > a")
    assert sibling["selectorPath"] == ["p"]  # a sibling is no ancestor
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


def test_the_path_ends_at_the_component_and_what_holds_it():
    """A script's button added to every code block is one component, whichever wrapper the
    block sits in; the wrappers beyond the second named ancestor are where a page put it."""
    def button_in(*outer: dict) -> dict:
        return churned(
            tag="span",
            classes=["copybutton"],
            landmarks=[["main", ""]],
            path=[
                {"tag": "div", "classes": ["highlight"], "role": ""},
                {"tag": "div", "classes": ["highlight-python3"], "role": ""},
                *outer,
            ],
        )

    in_a_section = button_in({"tag": "section"}, {"tag": "div", "classes": ["body"], "role": "main"})
    in_a_definition = button_in(
        {"tag": "dd"}, {"tag": "dl", "classes": ["function"]}, {"tag": "section"}
    )
    assert pid("a11y-click-without-keyboard", in_a_section) == pid(
        "a11y-click-without-keyboard", in_a_definition
    )
    other_holder = button_in()
    other_holder["path"][1] = {"tag": "div", "classes": ["listing"], "role": ""}
    assert pid("a11y-click-without-keyboard", other_holder) != pid(
        "a11y-click-without-keyboard", in_a_section
    )
    steps = [{"tag": "a"}, {"tag": "b", "classes": ["x"]}, {"tag": "c"}, {"tag": "d", "role": "main"}]
    assert folded_path(steps) == ["d[role=main] >", "c >", "b.x >", "a >"]
    assert folded_path(steps, named=1) == ["b.x >", "a >"]


def test_a_nested_list_is_one_component_at_every_depth():
    """``ul > li`` repeated is nesting, not another component; the folded path stays a
    selector that matches the element at any depth."""
    def link_at(depth: int) -> dict:
        nesting = [{"tag": "li"}, {"tag": "ul"}] * depth
        return churned(path=[*nesting, {"tag": "nav", "classes": ["toc"]}, {"tag": "div", "classes": ["side"]}])

    ids = {pid("link-name", link_at(depth)) for depth in (1, 2, 3, 5)}
    assert len(ids) == 1
    assert folded_path(link_at(3)["path"]) == ["div.side >", "nav.toc", "ul >", "li >"]


def test_a_colour_is_one_fix_on_any_background():
    """Contrast failures of one text colour on one element kind are one problem, whatever
    background or size the text meets; another colour is another fix."""
    on_grey = churned(style={**NAV_LINK["style"], "background": "rgb(214, 214, 214)", "fontSize": "13px"})
    assert pid("color-contrast", on_grey) == pid("color-contrast", NAV_LINK)


def test_undecided_items_of_a_visual_rule_are_one_question_per_reason():
    hidden = "Element's background color could not be determined because it's partially obscured"
    assert review_signature("color-contrast", hidden) == review_signature("color-contrast", hidden)
    ratio = review_signature("color-contrast", 'Contrast of 4.1 for "Buy now" could not be decided')
    assert ratio == review_signature("color-contrast", 'Contrast of 3.7 for "Sell" could not be decided')
    assert ratio != review_signature("color-contrast", hidden)
    assert review_signature("link-name", hidden) is None  # other rules group by component
    text = readable_component("color-contrast", review_signature("color-contrast", hidden))
    assert text.startswith("undecided: Element's background") and component_css(text) == ""


def code_block(*wrapper_classes: str, inner: str = "highlight") -> dict:
    """A code block's ``pre`` as Sphinx writes it: ``div.highlight-<language> >
    div.highlight > pre``, the wrapper's class varying by language."""
    return churned(
        tag="pre",
        classes=[],
        landmarks=[["main", ""]],
        path=[
            {"tag": "div", "classes": [inner], "role": ""},
            {"tag": "div", "classes": list(wrapper_classes), "role": ""},
            {"tag": "section", "classes": [], "role": ""},
        ],
    )


def test_a_wrapper_named_after_its_component_is_one_component_in_every_variant():
    """A wrapper class that is the inner component's class plus a suffix
    (``highlight-python3`` around ``highlight``) names a variant of that component: code
    blocks in any language are one problem, and the selector still matches them all."""
    rule = "scrollable-region-focusable"
    languages = ("python3", "pycon", "default", "c", "none", "shell-session")
    ids = {pid(rule, code_block(f"highlight-{lang}", "notranslate")) for lang in languages}
    assert len(ids) == 1
    text = readable_component(rule, component_signature(rule, code_block("highlight-c", "notranslate")))
    assert component_css(text) == 'div.notranslate[class*="highlight-"] div.highlight pre'
    assert folded_path(code_block("highlight-c")["path"], own=[])[-2:] == [
        'div[class*="highlight-"] >',
        "div.highlight >",
    ]
    # The wrapper's other classes still count: a doctest block is written differently.
    assert pid(rule, code_block("doctest", "highlight-default", "notranslate")) not in ids


def test_a_modifier_on_the_element_itself_is_a_variant_of_its_base():
    """BEM's ``btn--primary`` beside ``btn``, ``card_wide`` beside ``card``: one component."""
    base = pid("link-name", churned(classes=["nav-link", "btn"]))
    for variant in (["btn", "btn--primary"], ["btn", "btn--danger"], ["btn", "btn_small"]):
        assert pid("link-name", churned(classes=["nav-link", *variant])) == base
    modified = component_signature("link-name", churned(classes=["btn", "btn--primary"]))
    assert modified["classes"] == ["btn"]


def test_look_alikes_of_a_modifier_stay_apart():
    """Two components never merge through the rule: a wrapper not named after what it holds,
    a part named after its container (``card-header`` inside ``card``), a modifier whose base
    is not there, and names that merely share a prefix."""
    rule = "scrollable-region-focusable"
    python = pid(rule, code_block("highlight-python3"))
    assert pid(rule, code_block("listing")) != python
    assert pid(rule, code_block("highlight-python3", inner="codeblock")) != python
    assert pid(rule, code_block("highlighter", inner="highlight")) != pid(
        rule, code_block("highlighted-code", inner="highlight")
    )

    def button_in(part: str) -> dict:
        return churned(
            tag="button",
            classes=["action"],
            path=[{"tag": "div", "classes": [part]}, {"tag": "div", "classes": ["card"]}],
        )

    assert pid("button-name", button_in("card-header")) != pid("button-name", button_in("card-body"))
    assert pid("link-name", churned(classes=["btn-group"])) != pid(
        "link-name", churned(classes=["btn-toolbar"])
    )
    assert pid("link-name", churned(classes=["nav-link", "menu", "menu-"])) != pid(
        "link-name", churned(classes=["nav-link", "menu"])
    )  # a separator with no suffix modifies nothing
    # The look-alike menus of the header: neither class extends the other.
    tabs = churned(path=[{"tag": "li", "classes": ["item"]}, {"tag": "ul", "classes": ["tabs"]}])
    assert pid("link-name", tabs) != pid("link-name", NAV_LINK)


def _signature_line(entry_kind: str, white_space: str = "nowrap") -> dict:
    """A Sphinx-like API signature line (``dt.sig``) inside one kind of entry (``dl.class``,
    ``dl.function``...), in the page's main landmark."""
    return {
        "tag": "dt", "classes": ["sig", "sig-object", "py"], "role": "", "computedRole": "term",
        "type": "", "aria": [],
        "path": [
            {"tag": "dl", "classes": [entry_kind, "py"], "role": ""},
            {"tag": "section", "classes": [], "role": ""},
            {"tag": "div", "classes": ["body"], "role": "main"},
        ],
        "landmarks": [["main", ""]],
        "style": {"display": "block", "whiteSpace": white_space, "color": "rgb(0, 0, 0)"},
    }


def test_a_box_that_does_not_reflow_is_one_style_wherever_it_sits():
    """Reflow findings of one kind of box with one wrapping style are one problem, whatever
    entry or template holds them; another white-space, another element or another landmark
    is another fix. Other structural rules keep the template position apart."""
    kinds = [_signature_line(kind) for kind in ("class", "function", "method", "exception")]
    assert len({pid("a11y-reflow", line) for line in kinds}) == 1
    assert len({pid("a11y-focus-order", line) for line in kinds}) == len(kinds)
    wraps = _signature_line("class", white_space="normal")
    assert pid("a11y-reflow", wraps) != pid("a11y-reflow", kinds[0])
    in_sidebar = {**kinds[0], "landmarks": [["complementary", ""]]}
    assert pid("a11y-reflow", in_sidebar) != pid("a11y-reflow", kinds[0])
    a_table = {**kinds[0], "tag": "table", "classes": ["indextable"]}
    assert pid("a11y-reflow", a_table) != pid("a11y-reflow", kinds[0])
    assert readable_component("a11y-reflow", component_signature("a11y-reflow", kinds[0])) == (
        "main content › dt.py.sig: display block, whiteSpace nowrap"
    )
