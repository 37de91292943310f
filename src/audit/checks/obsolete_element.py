"""a11y-obsolete-element: no obsolete presentational elements.

A best practice, reported only when a request asks for best practices: HTML made ``center``,
``font``, ``basefont``, ``big``, ``tt`` and ``strike`` obsolete because they say how text
looks, not what it is. Their look is lost to assistive technologies and to users' own style
sheets alike, and meaning carried by them (a struck-through price, a larger warning) reaches
nobody who does not see it. ``blink`` and ``marquee`` are left to axe-core's rules of those
names, which fail them under WCAG 2.2.2; duplicate ``accesskey`` values to axe's
``accesskeys``.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-obsolete-element",
    act_rules=(),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures no obsolete presentational elements (center, font, big, tt, strike) are used",
    help="Use CSS and meaningful elements instead of obsolete presentational ones",
    messages={
        "pass": "The element is not obsolete",
        "fail": "The <${data.element}> element is obsolete and presentational: use CSS for the look, "
        "and an element that says what the text is (em, strong, del, code) for the meaning",
    },
    script=load_script(__package__, "obsolete_element"),
    selector="center, font, basefont, big, tt, strike",
)
