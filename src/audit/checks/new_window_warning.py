"""a11y-new-window-warning: a link that opens a new window or tab says so.

WCAG 3.2.5 Change on Request (AAA); failure technique F22 (opening windows that are not
requested by the user), sufficient technique G201 (giving users advance warning when opening a
new window). No ACT rule.

A link with ``target="_blank"`` (or a target no frame of the page has) opens another window
or tab. A user who was not told finds the Back button dead, and a screen reader user may not
notice the page changed at all. The check applies to an exposed, named link with an address
(not ``#…``, ``javascript:``, ``mailto:``, ``tel:``; not a ``download``) whose target opens a
new browsing context. It passes when the link's accessible name, its ``aria-describedby``
description, its ``title`` or the text just after it says so ("opens in a new tab", "(new
window)", and the same in French, German, Spanish, Portuguese, Italian, Dutch, the Nordic
languages, Polish, Japanese and Chinese, read in the link's declared language). It fails when
none does. It asks for review when the link's language is not one of those, or not declared
(a warning in another language cannot be read), and when the link holds a picture or a mark
drawn by CSS with nothing to read: an arrow-box icon may warn sighted users, though it tells a
screen reader user nothing.
"""

from cdpdriver.scripts import load_script

from .spec import Check

_TEXT_AFTER = load_script(__package__, "text_after_link")
_NEW_WINDOW = load_script(__package__, "new_window")

CHECK = Check(
    rule_id="a11y-new-window-warning",
    act_rules=(),
    criteria=("3.2.5",),
    level="AAA",
    since="2.0",
    impact="moderate",
    description="Ensures a link that opens a new window or tab tells users so in advance",
    help="Warn users when a link opens a new window or tab",
    messages={
        "pass": "The link says that it opens a new window or tab",
        "fail": "The link opens a new window or tab (its target) and nothing in its text, description or title "
        "says so: users find the Back button dead and may not notice the change (F22)",
        "incomplete": "The link opens a new window or tab, and its wording ${data.why}: check that it tells "
        "users in advance",
    },
    script=f"({_NEW_WINDOW})('evaluate', {_TEXT_AFTER})",
    matches=f"({_NEW_WINDOW})('matches')",
    selector="a[href][target], area[href][target]",
)
