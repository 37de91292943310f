"""a11y-asterisk-required: a required field says so in words, not only with an asterisk.

WCAG 3.3.2 Labels or Instructions (A); techniques H90 (indicating required controls), ARIA2
(aria-required). No ACT rule covers it.

An asterisk in a label means "required" only to users who know the convention, and screen
readers say "star" or nothing. It is enough when the page explains it ("* required fields")
or when the field is required programmatically (``required``, ``aria-required``), which
screen readers announce. The check applies to a field whose label (a ``label`` or an
``aria-labelledby`` target) shows an asterisk, alone or at either end of its text, and fails
it when there is no ``required`` or ``aria-required="true"``, no word for "required" in its
label (visible or not, titles included), and no text of the page that explains the asterisk
(a word for "required" near one, or a line that starts with one, as a footnote that gives it
another meaning does).
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-asterisk-required",
    act_rules=(),
    criteria=("3.3.2",),
    level="A",
    since="2.0",
    impact="moderate",
    description="Ensures required fields marked with an asterisk are also required in code or "
    "explained in words",
    help="An asterisk alone must not mark a required field",
    messages={
        "pass": "The field's requirement is stated in words or in code",
        "fail": "The label's asterisk is the only sign this field is required: add the required "
        "attribute and explain the asterisk on the page (\"* required\")",
    },
    script=load_script(__package__, "asterisk_required"),
    matches=load_script(__package__, "asterisk_applies"),
    selector="input, select, textarea",
)
