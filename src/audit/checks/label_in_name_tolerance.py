"""a11y-label-in-name-tolerance: axe's ``label-content-name-mismatch`` without its false alarms.

ACT rule 2ee8b8 (Visible label is part of accessible name); WCAG 2.5.3 Label in Name (A).

axe-core fails a control whose visible text is not found in its accessible name, but it judges
some text ACT does not: a trailing ellipsis ("Next…" named "Next": the ellipsis is not a letter
or digit, so ACT's label-in-name algorithm drops it), an abbreviation ("University Ave." named
"University Avenue": ACT's rule does not apply when label or name abbreviates), a word hyphenated
differently ("nonstandard" named "non-standard": likewise out of scope), and text a ligature icon
font draws as a picture (a Material Icons "search" glyph named "Find": the glyph is non-text
content, not a label). Where axe fails an element for one of these reasons only, the override
passes it; every other verdict stays axe's.
"""

from cdpdriver.scripts import load_script

from .spec import Override

OVERRIDE = Override(
    name="a11y-label-in-name-tolerance",
    rules=("label-content-name-mismatch",),
    part="evaluate",
    targets=("label-content-name-mismatch",),
    script=load_script(__package__, "label_in_name_tolerance"),
    act_rules=("2ee8b8",),
    criteria=("2.5.3",),
    description="Passes labels that differ from the name only by punctuation, an abbreviation, "
    "hyphenation or icon-font text",
)
