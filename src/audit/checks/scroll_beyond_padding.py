"""a11y-scroll-beyond-padding: a region that scrolls no further than its padding is left alone.

ACT rule 0ssw9k (Scrollable content can be reached with sequential focus navigation); WCAG
2.1.1 Keyboard (A).

axe-core's ``scrollable-region-focusable`` applies to any element whose content overflows it.
ACT applies only where the scroll distance is greater than the element's padding on that axis
(measured as the two sides together, as ACT's examples do):
content that overflows into the padding is already visible, so scrolling reveals nothing and the
region needs no keyboard access. The override adds that condition to axe's.
"""

from cdpdriver.scripts import load_script

from .spec import Override

OVERRIDE = Override(
    name="a11y-scroll-beyond-padding",
    rules=("scrollable-region-focusable",),
    part="matches",
    targets=("scrollable-region-focusable",),
    script=load_script(__package__, "scroll_beyond_padding"),
    act_rules=("0ssw9k",),
    criteria=("2.1.1",),
    description="Judges only regions that scroll further than their padding",
)
