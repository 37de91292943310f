"""a11y-bypass-heading: the content after the repeated blocks has a heading to jump to.

ACT rule 047fe0 (Document has heading for non-repeated content), technique H69 (heading
elements at the beginning of each section of content). A best practice, reported only when a
request asks for best practices.

A heading is one of three ways past repeated blocks (with a ``main`` landmark and a skip link),
so a page without one does not fail WCAG 2.4.1 while another way exists: that verdict is
``a11y-bypass-reaches-main``'s. This check answers the technique's own question, for users who
move by headings: is there a visible heading, exposed to assistive technologies, outside the
navigation, banner, complementary and content-info blocks? A heading only inside the
navigation, moved off-screen or hidden with ``aria-hidden`` does not count. It applies to the
top document of a page with a repeated block, and passes when nothing follows those blocks.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-bypass-heading",
    act_rules=("047fe0",),
    criteria=(),
    best_practice=True,
    impact="moderate",
    description="Ensures the content after the repeated blocks of a page has a visible heading",
    help="Start the main content with a heading, so users who move by headings can reach it",
    messages={
        "pass": "A visible heading outside the repeated blocks leads to the content, or nothing follows them",
        "fail": "No visible heading exposed to assistive technologies outside the repeated blocks: "
        "users who move from heading to heading cannot jump to the content",
    },
    script=load_script(__package__, "bypass_technique"),
    matches=load_script(__package__, "bypass_applies"),
    options={"technique": "heading"},
    page_level=True,
)
