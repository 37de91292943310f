"""a11y-spacing-markup: no empty paragraphs or runs of line breaks for vertical space.

A best practice, reported only when a request asks for best practices (WCAG technique G115,
semantic elements for structure; H48 for lists and paragraphs): a paragraph with nothing in it
is announced by screen readers as an empty paragraph or a blank line, a run of ``<br>``
elements as blank lines, and neither scales with text spacing the way CSS margins do.

The check fails a ``p`` with nothing in it but white space, no-break spaces or line breaks when
it still takes room on the page (an empty ``<p></p>``, which collapses, passes), and the first
``br`` of a run of 2 or more (white space and comments between them aside).
"""

from cdpdriver.scripts import load_script

from .spec import Check

_SPACING = load_script(__package__, "spacing_markup")

CHECK = Check(
    rule_id="a11y-spacing-markup",
    act_rules=(),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures empty paragraphs and runs of line breaks are not used for vertical space",
    help="Use CSS margins, not empty paragraphs or repeated line breaks, for vertical space",
    messages={
        "pass": "The element is not there only for spacing",
        "fail": "${data.what} makes vertical space: screen readers announce it as blank; use "
        "CSS margins instead",
    },
    script=f"({_SPACING})('evaluate')",
    matches=f"({_SPACING})('matches')",
    selector="p, br",
)
