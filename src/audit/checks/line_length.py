"""a11y-line-length: lines of running text are not longer than 80 characters.

WCAG 1.4.8 Visual Presentation (AAA): "width is no more than 80 characters or glyphs (40 if
CJK)". No ACT rule.

The check applies to blocks of running text of 3 lines or more (as ``a11y-text-not-justified``
defines them) and counts the characters of each rendered line, word by word (for Chinese,
Japanese or Korean text, glyphs by the width of the line in ems, against 40). Two lines longer
than the limit, the last line aside, are too long at the audited window size. The criterion is
also met when the lines get short enough as the window narrows (technique G204, not
interfering with the browser's reflow; C20, relative widths), which a check that sees one
window cannot try. So the block fails only when it cannot get narrow enough: it, or an element
around it, has a width or minimum width in absolute units (from its ``style`` attribute or a
style rule outside any media, container or size condition, and in force) that keeps the lines
over the limit, nothing between them is restyled by a size condition, and every style sheet of
the page could be read. Otherwise the block needs review: check that narrowing the window
reflows it.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-line-length",
    act_rules=(),
    criteria=("1.4.8",),
    level="AAA",
    since="2.0",
    impact="moderate",
    description="Ensures lines of running text are not longer than 80 characters (40 CJK glyphs)",
    help="Lines of running text must not be longer than 80 characters",
    messages={
        "pass": "The lines of the text are 80 characters or shorter",
        "fail": "Lines of this text are up to ${data.chars} characters long, more than "
        "${data.limit}, and a fixed width keeps them so when the window narrows",
        "incomplete": "Lines of this text are up to ${data.chars} characters long, more than "
        "${data.limit}; check that narrowing the window reflows them to ${data.limit} or fewer",
    },
    script=load_script(__package__, "line_length"),
    matches=f"({load_script(__package__, 'running_text')})('length')",
    selector="body *",
    exclude_hidden=False,
)
