"""a11y-field-boundary-contrast: a field's outline is drawn at 3:1 or not relied on.

WCAG 1.4.11 Non-text Contrast (AA, since 2.1): the visual information needed to identify a
user interface component has a contrast ratio of at least 3:1 against the colours next to it.
No ACT rule covers it, and axe-core has no rule for it: ``color-contrast`` judges text only.

A text field is found by where it is drawn: its border, its fill, a shadow, or a wrapper
drawn around it (a search box around its field and button). Pale grey lines on white
(``#ddd``: 1.4:1) and fields filled with a tint of the page's colour are common design-system
styles, and they leave people with low vision looking for the field. The check applies to an
enabled, editable text field, text area or select, and to checkboxes and radio buttons the
author draws (``appearance: none``; the browser's own are exempt), and reads what the control
and a wrapper hugging it (up to three levels, holding no other field) draw: each border side,
the fill, the outline and each box shadow, composed over the colour around it (its
ancestors' backgrounds over the canvas). It passes when one of them reaches 3:1, or when
nothing is drawn at all (the control is then found by its label or text, which other rules
judge); it fails when something is drawn and all of it stays below 3:1; and it asks for review
when the colour around cannot be read (an image or a gradient) or a soft shadow (blurred,
without spread) might set the control apart.

Limits: the control is read as the page shows it at load, not hovered; content painted
behind it by positioning, rather than by its ancestors, is not seen.
"""

from cdpdriver.scripts import load_script

from .colours import with_colours
from .spec import Check

CHECK = Check(
    rule_id="a11y-field-boundary-contrast",
    act_rules=(),
    criteria=("1.4.11",),
    level="AA",
    since="2.1",
    impact="serious",
    description="Ensures the outline that shows where a form field is has 3:1 contrast with its surroundings",
    help="Form fields must be drawn with sufficient contrast against the page",
    messages={
        "pass": "What shows where the field is reaches 3:1 against its surroundings",
        "fail": "The field is drawn only by its ${data.what} at ${data.ratio}:1 (${data.fg} on ${data.bg}), "
        "below the 3:1 a control's outline needs: darken the border or the fill",
        "incomplete": "Whether the field stands out at 3:1 could not be decided: ${data.why}",
    },
    script=with_colours(load_script(__package__, "field_boundary_contrast")),
    matches=load_script(__package__, "field_boundary_applies"),
    selector="input, select, textarea",
)
