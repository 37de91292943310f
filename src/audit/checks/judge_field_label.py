"""a11y-judge-field-label: does the label of a form field describe what to enter?

ACT rule cc0f0a (Form field label is descriptive); WCAG 2.4.6 Headings and Labels (AA).

axe-core checks that a field has a name, not that "Menu" is a poor label for a first name. This
judgment check asks the LLM judge about each visible programmatic label (a ``label`` element, or
an element ``aria-labelledby`` points to) of a visible form field, with the field's role, type
and autocomplete and the label's visual context (fieldset legend, heading before it).
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-judge-field-label",
    act_rules=("cc0f0a",),
    criteria=("2.4.6",),
    level="AA",
    since="2.0",
    impact="moderate",
    description="Asks whether each visible label of a form field, in its visual context, "
    "describes the field's purpose",
    help="Labels of form fields must describe their purpose",
    messages={
        "pass": "The label describes the field's purpose",
        "fail": "The label does not describe the field's purpose",
        "incomplete": "Does this label, together with its visual context, describe the purpose "
        "of the form field it labels?",
    },
    script=load_script(__package__, "judge_question"),
    matches=load_script(__package__, "judge_field_label_applies"),
    selector="label, [id]",
    exclude_hidden=False,
    judgment_context="label",
)
