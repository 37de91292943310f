"""a11y-frame-name-purpose: frames with the same name embed the same thing.

ACT rule 4b1c6c (Iframe elements with identical accessible names have equivalent purpose); WCAG
4.1.2 Name, Role, Value (A).

axe-core's ``frame-title-unique`` compares ``title`` attributes only, and asks for review of any
two frames sharing one, even when both embed the same document. The name a screen reader
announces may come from ``aria-label`` or ``aria-labelledby`` as well, and two frames that show
the same resource under the same name are fine. This check takes over (``frame-title-unique``
no longer applies): it compares accessible names across every frame of the page, passes frames
that share a name and embed the same resource (the same resolved ``src``, or the same
``srcdoc``), and asks for review where the resources differ, since two documents can still serve
one purpose.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-frame-name-purpose",
    act_rules=("4b1c6c",),
    criteria=("4.1.2",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures frames that share an accessible name embed the same or an equivalent "
    "resource",
    help="Frames with the same accessible name must serve the same purpose",
    messages={
        "pass": "No other frame has this name with a different resource",
        "fail": "Another frame has the same accessible name but embeds a different resource; "
        "check that both serve the same purpose",
    },
    script=load_script(__package__, "frame_name_purpose"),
    after=load_script(__package__, "frame_name_purpose_after"),
    matches=load_script(__package__, "has_accessible_name"),
    selector="iframe, frame",
    review_on_fail=True,
    supersedes=("frame-title-unique",),
)
