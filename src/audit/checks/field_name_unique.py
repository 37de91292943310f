"""a11y-field-name-unique: the fields of one form can be told apart by their names.

WCAG 2.4.6 Headings and Labels (AA). No ACT rule covers it.

Two fields of one form announced with the same name ("Name", "Name") leave a screen-reader
user guessing which is which, though the layout may make it plain to the eye (two columns,
first name and last name). Fields in differently named groups (a "Street" in Billing address
and one in Delivery address) or with different descriptions are told apart and pass. What a
field asks for is a matter of judgment, so the check only asks for review: of a visible field
whose accessible name an earlier visible field of the same form has, in the same named group
(or none), with the same description.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-field-name-unique",
    act_rules=(),
    criteria=("2.4.6",),
    level="AA",
    since="2.0",
    impact="moderate",
    description="Flags fields of one form that share an accessible name for review",
    help="Fields of one form should have names that tell them apart",
    messages={
        "pass": "No earlier field of the form has this name",
        "fail": "An earlier field of the form has the same name",
        "incomplete": "An earlier field of this form has the same accessible name and "
        "description; give each a label that says what it is for",
    },
    script=load_script(__package__, "field_name_unique"),
    matches=load_script(__package__, "field_in_form_applies"),
    selector="input, select, textarea",
)
