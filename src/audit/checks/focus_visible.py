"""a11y-focus-visible: focusing an element changes how the page looks.

ACT rule oj04fd (Element in sequential focus order has visible focus); WCAG 2.4.7 Focus Visible
(AA).

axe-core has no rule for it: whether focus shows depends on styles that apply only while an
element has focus. The check focuses each element of the top document that is in sequential
focus order (as the keyboard would, ``focusVisible``, without scrolling), lets the transitions
that starts run to their end, and compares how things look focused and unfocused: the element's
computed outline, shadow, borders, background, colours, text decoration, opacity, transform and
box, its ``::before``/``::after``, what it contains (its first elements), its five nearest
ancestors, its nearest sibling on each side, and every element the page's focus handlers
changed. No
difference fails; a text field with no difference needs review (its caret may be all the sign
it has). Focus, selection, scroll position and transitions are put back as they were, so the
rules after it see the page as before. The cost is bounded: the first 25 such elements of a run,
in document order (about 1 to 2 ms each), are judged and the rest are not; 300 ms of measuring
stops it early on a page where focusing is slow. Frames are left out (moving focus into one
would move it in the page around it), and so is a document without focus, where no focus style
applies: the engine's tabs emulate a focused page (:mod:`audit.tab_setup`) so that every audit, one
tab or many, judges the same elements.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-focus-visible",
    act_rules=("oj04fd",),
    criteria=("2.4.7",),
    level="AA",
    since="2.0",
    impact="serious",
    description="Ensures an element in sequential focus order looks different when it has focus",
    help="Keyboard focus must be visible",
    messages={
        "pass": "Focusing the element changes how it or something near it looks",
        "fail": "Focusing the element changes nothing on the page: keyboard users cannot see where "
        "focus is",
        "incomplete": "Focusing the text field changes no style; check that more than its caret "
        "shows focus",
    },
    script=load_script(__package__, "focus_visible"),
    matches=load_script(__package__, "focus_visible_applies"),
    selector='a[href], area[href], button, input:not([type="hidden"]), select, textarea, summary, '
    'iframe, audio[controls], video[controls], [tabindex], [contenteditable]:not([contenteditable="false"])',
)
