"""a11y-bypass-collapsible: repeated blocks that nothing else bypasses can be collapsed.

ACT rule 3e12e1 (Block of repeated content is collapsible), technique SCR28 (an expandable and
collapsible menu to bypass a block of content). A best practice, reported only when a request
asks for best practices.

Collapsing is one way past repeated blocks among several, and on a page that has a heading, a
``main`` landmark or a skip link to its content nobody needs it: there the check passes (its
pass message says why), so it gives no advice a page does not need. Where none of those exists
it asks whether a control before the content could collapse the blocks: a button, a
``role=button``/``role=link`` element, or a link to ``#`` or ``javascript:`` needs review
(whether it really takes the blocks out of the focus order, rather than only hiding them from
sight or from screen readers, only running it shows); no such control fails. That failure comes
with ``a11y-bypass-reaches-main``'s 2.4.1 finding, and names one way to fix it. It applies to
the top document of a page with a repeated block, and passes when nothing follows those blocks.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-bypass-collapsible",
    act_rules=("3e12e1",),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures repeated blocks that nothing else bypasses can be collapsed by a control before them",
    help="When nothing else leads past the repeated blocks, a control before them should collapse them",
    messages={
        "pass": "No collapsing is needed: a heading, a main landmark or a skip link leads past the "
        "repeated blocks, or nothing follows them",
        "fail": "Nothing leads past the repeated blocks, and no control before the content could "
        "collapse them",
        "incomplete": "A control before the content may collapse the repeated blocks: check that it "
        "takes them out of the focus order, not only out of sight",
    },
    script=load_script(__package__, "bypass_technique"),
    matches=load_script(__package__, "bypass_applies"),
    options={"technique": "collapse"},
    page_level=True,
)
