"""a11y-radio-group: related radio buttons and checkboxes are grouped with a name.

WCAG 1.3.1 Info and Relationships (A); technique H71 (fieldset and legend for groups of
controls), ARIA17 (grouping roles). No ACT rule covers it.

The question a set of radio buttons answers ("Do you have an account?") is visible above them,
but a screen reader announces only each option's label ("Yes", "No") unless a ``fieldset``
with a ``legend``, or an element of role ``group``/``radiogroup`` with a name, holds the set.
axe-core's grouping rules were retired. The check applies to the first member of each set of
two or more radio buttons (or checkboxes) sharing a ``name`` in one form, and passes when one
named group holds them all. Radio buttons fail when visible text comes before the first of
them, in the same form and with no other field in between: the question that is not
announced. Without such text (the labels may say everything), in a table with header cells
(which can carry the question), and for checkboxes (a shared name does not make them one
question), the set needs review.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-radio-group",
    act_rules=(),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures radio buttons and checkboxes that share a name are grouped with a "
    "fieldset and legend, or a named group",
    help="Groups of radio buttons must be in a fieldset with a legend (or a named radiogroup)",
    messages={
        "pass": "The options are in a named group",
        "fail": "These radio buttons answer a question shown before them, but no fieldset with "
        "a legend (or named radiogroup) ties them to it",
        "incomplete": "These options share a name but no fieldset with a legend (or named group) "
        "holds them; if they answer one question, group them under it",
    },
    script=load_script(__package__, "radio_group"),
    matches=load_script(__package__, "radio_group_applies"),
    selector='input[type="radio"], input[type="checkbox"]',
)
