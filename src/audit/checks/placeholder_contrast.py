"""a11y-placeholder-contrast: a field's placeholder is as readable as any other text.

WCAG 1.4.3 Contrast (Minimum) (AA); technique G18. No ACT rule
covers it, and axe-core's ``color-contrast`` leaves placeholders out: they are not text nodes
of the document, so its pale-grey-on-white placeholders pass every axe run.

Placeholder text is text, and 1.4.3 has no exception for it: a hint or an example written in
a placeholder must reach 4.5:1 (3:1 when large: 24 px, or 18.66 px bold). The check applies
to an enabled, empty text field or text area with a placeholder (the placeholder is shown)
and compares the computed ``::placeholder`` colour, at its opacity, with the field's
background as axe-core reads it (its own and what shows through). It fails below the ratio,
and asks for review when the background cannot be read (an image or a gradient).
"""

from cdpdriver.scripts import load_script

from .spec import Check

_APPLIES = load_script(__package__, "placeholder_applies")

CHECK = Check(
    rule_id="a11y-placeholder-contrast",
    act_rules=(),
    criteria=("1.4.3",),
    level="AA",
    since="2.0",
    impact="serious",
    description="Ensures a field's placeholder text has enough contrast with its background",
    help="Placeholder text must have sufficient colour contrast",
    messages={
        "pass": "The placeholder's contrast is sufficient",
        "fail": "The placeholder's contrast is ${data.ratio}:1 (${data.fg} on ${data.bg}), below the "
        "${data.needed}:1 text needs: darken it",
        "incomplete": "The placeholder's contrast could not be measured: ${data.why}",
    },
    script=load_script(__package__, "placeholder_contrast"),
    # The placeholder shows only while the field is empty.
    matches=f"(function (node) {{ return ({_APPLIES})(node) && !node.value; }})",
    selector="input[placeholder], textarea[placeholder]",
)
