"""a11y-red-border-invalid: an error is not shown by a red border alone.

WCAG 1.4.1 Use of Color (A) and 3.3.1 Error Identification (A); failure technique F81 (colour
alone identifies required or error fields). No ACT rule covers it.

A field in error drawn with a red border tells nothing to users who cannot tell red from the
other borders, or who cannot see it, unless text or ``aria-invalid`` says so too. A red border
may also just be the site's style, or a focus ring, so the check only asks for review: of a
visible text field, text area or select whose border is clearly red while other visible fields
of its form (or page) have borders that are not, with no ``aria-invalid``, no
``aria-errormessage`` or ``aria-describedby``, and no text in its own group (its nearest
ancestors that hold no other field) that names an error.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-red-border-invalid",
    act_rules=(),
    criteria=("1.4.1", "3.3.1"),
    level="A",
    since="2.0",
    impact="serious",
    description="Flags fields marked by a red border alone for review",
    help="Fields in error must say so in text, not only with a red border",
    messages={
        "pass": "The field is not marked by colour alone",
        "fail": "Only a red border marks this field",
        "incomplete": "Only a red border sets this field apart from the others; if it marks an "
        "error, say so in text tied to the field and set aria-invalid",
    },
    script=load_script(__package__, "red_border_invalid"),
    matches=load_script(__package__, "text_field_applies"),
    selector="input, select, textarea",
)
