"""a11y-aria-prohibited-global: prohibited braille and role description properties are found.

ACT rule kb1m8s (ARIA global properties not used where prohibited), which axe's
``aria-prohibited-attr`` implements once it also knows the properties below (its ACT mapping is
added in :mod:`.adopted`); that rule's WCAG 4.1.2 Name, Role, Value (A).

axe-core knows ``aria-braillelabel``, ``aria-brailleroledescription`` and
``aria-roledescription`` as global properties but prohibits only ``aria-label`` and
``aria-labelledby``. WAI-ARIA prohibits a braille label wherever it prohibits a label, and a role
description (braille or not) on an element without a role to describe: a generic element, one
with no role, or one whose ``none``/``presentation`` role stands (neither focusable nor carrying a
global property that role allows; the prohibited ones are ignored, so they cannot override it).
Such a property is ignored by assistive technologies. The verdict is axe's own: a failure when
the element has no text, needs review when its text still says what the property meant to.
"""

from cdpdriver.scripts import load_script

from .spec import Override

OVERRIDE = Override(
    name="a11y-aria-prohibited-global",
    rules=("aria-prohibited-attr",),
    part="evaluate",
    targets=("aria-prohibited-attr",),
    script=load_script(__package__, "aria_prohibited_global"),
    act_rules=("kb1m8s",),
    criteria=("4.1.2",),
    description="Also finds braille labels and role descriptions where the role prohibits them",
)
