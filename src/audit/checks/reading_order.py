"""a11y-reading-order: the order content is read in matches the order it is shown in.

WCAG 1.3.2 Meaningful Sequence (A); failure techniques F1 (CSS positioning changes meaning)
and C27 (DOM order matches visual order). No ACT rule covers it.

Screen readers and the keyboard follow the DOM; CSS can show the same content in another
order (``order``, ``flex-direction: row-reverse`` or ``column-reverse``, blocks floated right
one after another, absolute or fixed positioning). Whether the change alters meaning (a price
before its product, step 2 before step 1) is for a person, so this check only ever asks for
review: when the children with text of a reordered flex or grid container, or of an element
whose children float against the direction of text, are shown in another order than the
DOM's; and when an absolutely positioned or fixed block of text is drawn entirely above text
that comes before it in the DOM. Tooltips, menus, dialogs and list boxes, which float by
design, are left out.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-reading-order",
    act_rules=(),
    criteria=("1.3.2",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures content shown in another order than the DOM's keeps its meaning",
    help="The reading order must match the visual order where order matters",
    messages={
        "pass": "The content is shown in DOM order",
        "fail": "The content is shown in another order than it is read in",
        "incomplete": "CSS shows this content in another order than screen readers and the "
        "keyboard follow; check that the DOM order still makes sense",
    },
    script=load_script(__package__, "reading_order"),
    matches=load_script(__package__, "reading_order_applies"),
    # Every element; the matches leave out what is not under the body (axe's own "body *"
    # costs more than the elements it selects).
    selector="*",
)
