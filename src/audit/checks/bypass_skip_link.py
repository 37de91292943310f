"""a11y-bypass-skip-link: a link before the repeated blocks moves focus past them.

ACT rule ye5d6e (Document has an instrument to move focus to non-repeated content), techniques
G1 (a link at the top of the page to the main content), G123 (a link at the start of a block of
repeated content to its end) and G124 (links at the top of the page to each area of content).
A best practice, reported only when a request asks for best practices.

A skip link is one of three ways past repeated blocks (with a ``main`` landmark and a heading),
so a page without one does not fail WCAG 2.4.1 while another way exists: that verdict is
``a11y-bypass-reaches-main``'s. This check answers the technique's own question, for keyboard
users who see the page and have no landmark or heading navigation: does a same-page link that
comes before the content lead to a point followed by it? A link to a fragment that matches no
element, or to a point inside a repeated block, does not count. A button, a ``role=link``
element, or a link to ``#`` or ``javascript:`` before the content may be a script-driven skip
link, which only running it would show: the page then needs review. It applies to the top
document of a page with a repeated block, and passes when nothing follows those blocks.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-bypass-skip-link",
    act_rules=("ye5d6e",),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures a skip link before the repeated blocks of a page moves focus to the content after them",
    help="Add a skip link at the top of the page whose target is the main content",
    messages={
        "pass": "A same-page link before the content leads to it, or nothing follows the repeated blocks",
        "fail": "No link before the content moves focus to it (a skip link that leads nowhere or "
        "into a repeated block does not): keyboard users must tab through every repeated block",
        "incomplete": "A control before the content may be a skip link run by a script: check "
        "that it moves focus to the content",
    },
    script=load_script(__package__, "bypass_technique"),
    matches=load_script(__package__, "bypass_applies"),
    options={"technique": "skip"},
    page_level=True,
)
