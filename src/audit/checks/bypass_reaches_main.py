"""a11y-bypass-reaches-main: something lets users past the repeated blocks to the content.

ACT rule cf77f2 (Bypass Blocks of Repeated Content); WCAG 2.4.1 Bypass Blocks (A).

Its atomic parts (047fe0 heading, b40fd1 landmark, ye5d6e skip link, 3e12e1 collapsible
blocks) are separate best-practice checks (``bypass_heading``, ``bypass_landmark``,
``bypass_skip_link``, ``bypass_collapsible``): a page that lacks one technique but uses another
does not fail 2.4.1, so only this composite check claims the criterion.

axe-core's ``bypass`` passes as soon as the page has any heading, any ``main`` landmark or any
same-page link, wherever they are and wherever the link leads. This check asks whether one of
them reaches the content that follows the repeated blocks (navigation, banner, complementary and
content-info landmarks): a heading that is visible, exposed and outside those blocks; a ``main``
landmark with content; or a same-page link whose target is followed by that content (a broken
fragment, or one that lands inside a repeated block, does not count). A button, or a link to
``#``, before the content may be a script-driven skip link or toggle: then the element needs
review instead of failing. The check applies to the top document of a page that has a repeated
block at all.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-bypass-reaches-main",
    act_rules=("cf77f2",),
    criteria=("2.4.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures a heading, a main landmark or a working skip link reaches the content "
    "after the repeated blocks of a page",
    help="Users must be able to bypass repeated blocks and reach the main content",
    messages={
        "pass": "The content after the repeated blocks can be reached directly",
        "fail": "No visible heading or main landmark outside the repeated blocks, and no skip "
        "link whose target leads to the content after them",
        "incomplete": "A control before the content may skip or collapse the repeated blocks; "
        "check that it moves focus to the content",
    },
    script=load_script(__package__, "bypass_technique"),
    matches=load_script(__package__, "bypass_applies"),
    options={"technique": "any"},
    page_level=True,
)
