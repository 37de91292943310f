"""a11y-aria-prohibited-use: no ARIA property is used where the element's role prohibits it.

ACT rule kb1m8s (ARIA global properties not used where prohibited), whose requirement is
conformance to WAI-ARIA 1.2 (5.2.5 Prohibited States and Properties) and no WCAG success
criterion (1.3.1 is secondary: less strict than the rule). A best practice, reported only
when a request asks for best practices.

WCAG's verdict on the same elements stays ``aria-prohibited-attr``'s (4.1.2, with the override
:mod:`.aria_prohibited_global`): a failure when the element has no text, needs review when its
text still says what the property meant to, since then a screen reader user may lose nothing.
Whether the markup conforms to WAI-ARIA is a fact, not a judgment: a label, a braille label or
a role description on an element whose role prohibits it (a paragraph, generic text, emphasis,
an element without a role to describe) is an authoring error that assistive technologies
ignore, whatever text the element has. This check reports that fact. It asks axe's own
``aria-prohibited-attr`` evaluation, with the override (so it knows the same properties and
roles), and fails every element it does not pass; elements hidden from assistive technologies
are left out, as axe leaves them out.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-aria-prohibited-use",
    act_rules=("kb1m8s",),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures ARIA properties are not used on elements whose role prohibits them (WAI-ARIA 1.2)",
    help="Do not use aria-label, aria-labelledby, aria-braillelabel or a role description where the role prohibits it",
    messages={
        "pass": "The element's role allows the ARIA properties it has",
        "fail": "The element's role prohibits ${data.prohibited} (WAI-ARIA 1.2, 5.2.5): assistive "
        "technologies ignore it. Remove it, or give the element a role that allows it",
    },
    script=load_script(__package__, "aria_prohibited_use"),
    matches=load_script(__package__, "aria_prohibited_use_applies"),
    selector="[aria-label], [aria-labelledby], [aria-braillelabel], [aria-roledescription], "
    "[aria-brailleroledescription]",
)
