"""a11y-placeholder-label: a field has a label other than its placeholder.

WCAG 3.3.2 Labels or Instructions (A). No ACT rule covers it.

A placeholder is shown only while a field is empty: once the user types, or when the browser
fills the field in, nothing on screen says what the field is for, and its pale text often
fails contrast. axe-core accepts a placeholder as a field's accessible name, so a form labelled
only by placeholders passes it. The check applies to an enabled text field or text area with a
placeholder and fails it when nothing else labels it: no ``label`` with text, no
``aria-label``, no ``aria-labelledby`` with text, no ``title``. A button with text right beside
it (a search box and its Search button, technique G167) may label its purpose instead: that
needs review.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-placeholder-label",
    act_rules=(),
    criteria=("3.3.2",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures fields are not labelled by their placeholder alone",
    help="A placeholder must not be a field's only label",
    messages={
        "pass": "The field has a label besides its placeholder",
        "fail": "The placeholder is this field's only label, and it disappears once the user "
        "types: add a visible label element",
        "incomplete": "The placeholder is this field's only label; a button beside it may say "
        "what the field is for, but a visible label is clearer",
    },
    script=load_script(__package__, "placeholder_label"),
    matches=load_script(__package__, "placeholder_applies"),
    selector="input[placeholder], textarea[placeholder]",
)
