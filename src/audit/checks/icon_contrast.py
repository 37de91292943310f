"""a11y-icon-contrast: the icon that is all a button or link shows reaches 3:1.

WCAG 1.4.11 Non-text Contrast (AA, since 2.1): graphical objects needed to understand the
content, and what identifies a user interface component, reach 3:1 against the colours next to
them. No ACT rule covers it, and axe-core measures text only: an icon font's private-use glyph
and an ``svg`` are not text it judges.

A button or link that shows no text but an icon (a magnifier, a cross, a menu's three bars) is
known by that icon alone; pale grey icons on white are a common style, and people with low
vision then cannot tell the control is there or what it does. The check applies to an enabled
button or link with no visible letter or digit (its accessible name may come from
``aria-label``: that helps screen readers, not eyes) that shows an ``svg`` of 8 px or more or
an icon-font glyph (private use area) in its text, ``::before`` or ``::after``. It reads every
colour the icon is painted in (fills and strokes of 1 px or more of the svg's shapes, through
``<use>`` to a symbol of the same document; the glyph's colour), at its opacity, against the
colour behind it (its own and its ancestors' backgrounds over the canvas). It passes when one
colour reaches 3:1, fails when none does, and asks for review when a paint or the colour behind
cannot be read (a gradient or pattern, an image in or behind the icon, a sprite in another file).

Limits: icons outside buttons and links (status and rating icons) are not judged, since whether
they are needed to understand the content is a judgment; icons drawn as CSS background images
or masks are not read.
"""

from cdpdriver.scripts import load_script

from .colours import with_colours
from .spec import Check

CHECK = Check(
    rule_id="a11y-icon-contrast",
    act_rules=(),
    criteria=("1.4.11",),
    level="AA",
    since="2.1",
    impact="serious",
    description="Ensures the icon that is all a button or link shows has 3:1 contrast with what is behind it",
    help="Icons that identify a control must have sufficient contrast",
    messages={
        "pass": "The icon reaches 3:1 against what is behind it",
        "fail": "The icon is all this control shows, and its colours reach only ${data.ratio}:1 "
        "(${data.fg} on ${data.bg}), below the 3:1 it needs: darken it",
        "incomplete": "Whether the icon reaches 3:1 could not be decided: ${data.why}",
    },
    script=with_colours(load_script(__package__, "icon_contrast")),
    matches=load_script(__package__, "icon_control_applies"),
    selector='button, a[href], [role="button"], [role="link"], summary',
)
