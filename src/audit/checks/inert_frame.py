"""a11y-inert-frame: a frame made inert is not asked to be reachable by keyboard.

ACT rule akn7bn (Iframe with interactive elements is not excluded from tab-order); WCAG 2.1.1
Keyboard (A).

axe-core's ``frame-focusable-content`` fails a frame taken out of the tab order
(``tabindex="-1"``) that holds focusable content. ACT does not apply to a frame that is inert,
for example while a modal dialog is open (a page often sets the tabindex as it opens one): no
element in it can be focused either way. The override leaves out a frame whose element is inert;
where the parent document is another origin the frame element cannot be seen and axe decides.
"""

from cdpdriver.scripts import load_script

from .spec import Override

OVERRIDE = Override(
    name="a11y-inert-frame",
    rules=("frame-focusable-content",),
    part="matches",
    targets=("frame-focusable-content",),
    script=load_script(__package__, "inert_frame"),
    act_rules=("akn7bn",),
    criteria=("2.1.1",),
    description="Leaves out frames that are inert, for example behind a modal dialog",
)
