"""a11y-orientation-without-styles: a page without style sheets cannot lock its orientation.

ACT rule b33eff (Orientation of the page is not restricted using CSS transforms); WCAG 1.3.4
Orientation (AA, since 2.1).

axe-core's ``css-orientation-lock`` (run since we adopt it, :mod:`.adopted`) answers "cannot be
determined" when it was given no style sheets, which is also what a page without any style
sheet gives it: every such page would need review for nothing. The override passes a document
that has no style sheet at all; where sheets exist but could not be read, axe's answer stands.
"""

from cdpdriver.scripts import load_script

from .spec import Override

OVERRIDE = Override(
    name="a11y-orientation-without-styles",
    rules=("css-orientation-lock",),
    part="evaluate",
    targets=("css-orientation-lock",),
    script=load_script(__package__, "orientation_without_styles"),
    act_rules=("b33eff",),
    criteria=("1.3.4",),
    description="Passes pages without style sheets instead of asking for review",
)
