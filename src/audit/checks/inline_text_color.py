"""a11y-inline-text-color: text colour is not set in style attributes.

A best practice, reported only when a request asks for best practices: a colour set in an
element's ``style`` attribute is the hardest for a site's own themes (dark or high-contrast
modes) and user style sheets to change, it is easily left behind when the background changes,
and colour set element by element tends to carry meaning (red for required, green for done)
that only sighted users get.

The check fails an element visible on screen, with text that has a letter, whose ``style``
attribute sets ``color`` (to anything but a keyword that keeps the surrounding colour:
``inherit``, ``currentcolor``, ``initial``, ``unset``, ``revert``). ``<font color>`` is left
to ``a11y-obsolete-element``.
"""

from cdpdriver.scripts import load_script

from .spec import Check

_COLOR = load_script(__package__, "inline_text_color")

CHECK = Check(
    rule_id="a11y-inline-text-color",
    act_rules=(),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures text colour is set in style sheets, not in style attributes",
    help="Set text colour in style sheets, where themes and user styles can change it",
    messages={
        "pass": "The element's style attribute sets no text colour",
        "fail": "The style attribute sets the text colour (${data.color}); set it in a style "
        "sheet, and do not let colour alone carry meaning",
    },
    script=f"({_COLOR})('evaluate')",
    matches=f"({_COLOR})('matches')",
    selector="[style]",
)
