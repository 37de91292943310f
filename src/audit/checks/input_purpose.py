"""a11y-input-purpose: a field that asks for the user's own details says which, with autocomplete.

WCAG 1.3.5 Identify Input Purpose (AA, since 2.1); sufficient technique H98 (HTML
``autocomplete``). No ACT rule: ACT's 73f2c2 and axe-core's ``autocomplete-valid`` judge the
token a field has, and neither asks for one that is missing.

A field whose purpose is programmatically determined lets browsers fill it in and lets tools
show a familiar icon or wording for it: people with memory or motor impairments then need not
type their email address or postcode again. The check applies to an enabled, editable text,
email, telephone or password field, select or text area, exposed to assistive technology,
that asks for information about the user: its accessible name (required markers and a leading
"your" aside) is one of the usual English labels of a purpose WCAG lists (email address, first
name, last name, telephone, date of birth, password, card number), or its type is email, tel
or password. Labels that name something else as often as a person ("Name", "Address", "Town",
"Country", "Postcode", "Company", "Username") count only in a form that also asks for one of
those. A field whose name or group legend makes the details someone else's (a friend's email,
an emergency contact, a recipient) does not apply. It fails without an ``autocomplete``
token; a field (or its form) with ``autocomplete="off"`` or ``"on"`` needs review, since
neither names the purpose; any other token passes here (axe's ``autocomplete-valid`` judges
whether it is a valid one).
"""

from cdpdriver.scripts import load_script

from .spec import Check

_PURPOSE = load_script(__package__, "input_purpose")

CHECK = Check(
    rule_id="a11y-input-purpose",
    act_rules=(),
    criteria=("1.3.5",),
    level="AA",
    since="2.1",
    impact="serious",
    description="Ensures a field that asks for the user's own details identifies its purpose with autocomplete",
    help="Fields for the user's own details must have an autocomplete token",
    messages={
        "pass": "The field has an autocomplete token that names its purpose",
        "fail": 'The field asks for the user\'s ${data.purpose} but has no autocomplete attribute: add '
        'autocomplete="${data.purpose}" so browsers and assistive tools can fill it in',
        "incomplete": 'The field asks for the user\'s ${data.purpose}, and autocomplete="${data.setting}" '
        "(on the field or its form) does not name the purpose: check whether it should",
    },
    script=f"({_PURPOSE})('evaluate')",
    matches=f"({_PURPOSE})('matches')",
    selector="input, select, textarea",
)
