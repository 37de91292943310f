"""a11y-visual-heading: text that looks like a heading is marked up as one.

WCAG 1.3.1 Info and Relationships (A); failure technique F2 (changes in text presentation
without the markup). No ACT rule covers it.

A sighted reader sees a short, bold or larger line above a paragraph and takes it for the
title of what follows; a screen-reader user who lists or jumps between headings never meets it,
and axe-core cannot tell such a ``p`` or ``div`` from any other. The check looks at short
blocks of inline text (not inside headings, labels, controls, links, table cells, list items or
navigation) that sit on one line, are clearly larger (1.2 times the page's body text) or bold
where body text is not, and are followed below by smaller or lighter body text. Most of those
need a person: a price, a label or a card title can look the same. It fails one only when the
page itself shows what it is: the block has exactly the look (size, weight, family, style,
case) of a real heading of the page that is clearly larger than body text.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-visual-heading",
    act_rules=(),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="moderate",
    description="Ensures text styled as a heading is marked up as a heading",
    help="Text that looks like a heading must be a heading element",
    messages={
        "pass": "The text does not look like a heading, or is one",
        "fail": "This text looks exactly like the page's headings but is not marked up as a heading",
        "incomplete": "This short line is styled like a heading above body text but is not marked up "
        "as one; if it titles the content after it, make it a heading (h2-h6)",
    },
    script=load_script(__package__, "visual_heading"),
    matches=load_script(__package__, "visual_heading_applies"),
    selector="p, div, span, b, strong, font, center",
)
