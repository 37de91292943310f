"""a11y-bypass-landmark: the content after the repeated blocks is in a landmark.

ACT rule b40fd1 (Document has a landmark with non-repeated content), technique ARIA11 (ARIA
landmarks to identify regions of a page). A best practice, reported only when a request asks
for best practices.

A landmark is one of three ways past repeated blocks (with a heading and a skip link), so a
page without one does not fail WCAG 2.4.1 while another way exists: that verdict is
``a11y-bypass-reaches-main``'s. This check answers the technique's own question, for users who
move by landmarks: is there a ``main`` landmark, exposed to assistive technologies, that holds
content, or a region, form or search landmark around the first content after the navigation,
banner, complementary and content-info blocks? A ``main`` hidden with ``aria-hidden`` does not
count. It passes when nothing follows those blocks. On a page where no landmark marks a
repeated block, a page that opens with links or a list followed by other text, and has no
``main`` landmark with content, needs review: they may be a navigation block nobody marked;
any other page passes.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-bypass-landmark",
    act_rules=("b40fd1",),
    criteria=(),
    best_practice=True,
    impact="moderate",
    description="Ensures the content after the repeated blocks of a page is inside a main landmark",
    help="Put the main content in a main element, so users who move by landmarks can reach it",
    messages={
        "pass": "A main landmark (or a named region) holds the content after the repeated blocks, "
        "or nothing follows them",
        "fail": "The content after the repeated blocks is in no landmark exposed to assistive "
        "technologies: users who move by landmarks cannot jump to it",
        "incomplete": "The page opens with links or a list and has no main landmark: if they repeat on "
        "every page, mark them as navigation and put the content after them in a main element",
    },
    script=load_script(__package__, "bypass_technique"),
    matches=load_script(__package__, "bypass_landmark_applies"),
    options={"technique": "landmark"},
    page_level=True,
)
