"""a11y-hint-described: hints and error messages beside a field are tied to it.

WCAG 1.3.1 Info and Relationships (A) and 3.3.1 Error Identification (A); technique ARIA1
(aria-describedby), ARIA21 (aria-invalid with an error message). No ACT rule covers it.

A format hint ("For example, JH 21 90 0A") or an error ("Enter a date in the past") shown next
to a field is read by the eye with the field, but a screen reader announces a field with its
name and description only: text that is neither stays unheard while the user is in the field.
The check looks in a field's own group (its nearest ancestors, up to three, that hold no
other field) for visible text that reads as a hint or an error: a class or id naming a hint,
help, error, instructions, invalid or feedback, or words such as "must", "required",
"invalid", "format", "at least", "for example". Text that is part of the field's name or is
referenced by ``aria-describedby``, ``aria-errormessage`` or ``aria-labelledby`` is tied to
it. Whether the rest belongs to the field is for a person: the check only asks for review.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-hint-described",
    act_rules=(),
    criteria=("1.3.1", "3.3.1"),
    level="A",
    since="2.0",
    impact="moderate",
    description="Flags hint and error text beside a field that the field does not reference",
    help="Hints and error messages must be tied to their field with aria-describedby",
    messages={
        "pass": "No hint or error text beside the field is left untied",
        "fail": "Hint or error text beside the field is not tied to it",
        "incomplete": "Text beside this field reads as a hint or an error message but is not "
        "referenced by its aria-describedby (or aria-errormessage); screen readers do not "
        "announce it with the field",
    },
    script=load_script(__package__, "hint_described"),
    matches=load_script(__package__, "text_field_applies"),
    selector="input, select, textarea",
)
