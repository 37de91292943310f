"""a11y-image-name-meaningful: an image's text alternative is not a file name or a placeholder.

WCAG 1.1.1 Non-text Content (A); failure technique F30 (text alternatives that are not
alternatives, such as file names or placeholder text). No ACT rule: qt1vmo (image accessible
name is descriptive) asks a question of judgment, and none of its test cases has a file name
or a placeholder for a name, so a mapping would only show the rule as missing its failures.

axe-core's ``image-alt``, ``input-image-alt``, ``area-alt`` and ``role-img-alt`` pass any
non-empty name, so ``IMG_0042.jpg``, ``photo`` or ``spacer`` read out to a screen reader user
passes axe. This check fails an exposed image (``img``, image button, ``area`` link, role
``img``) whose accessible name is the image's own address, a file name (an image extension
and no space, a camera or screenshot file name, a ``@2x``/``-300x250`` size suffix, the
source's file name when it has an underscore, a long number or a ``-2x`` suffix), or a
placeholder word alone
("image", "photo", "picture", "graphic", "spacer", "untitled", "alt text", "image 3", ...).
When the image is all a link or button holds, a word naming the kind of control ("button",
"click here", "icon", "arrow") fails too: the name of the control is that word. Words that can
be a true name stay out: "logo", "submit" (technique H36's own example of an image button),
"go". What may still be fine needs review: a web address (it can name a site), a name that
ends like a file name but has spaces, one starting "image of" (screen readers announce the
image already), one over 150 characters (a description belongs beside the image). Images
named by an ancestor's ``aria-label`` or ``aria-labelledby`` are left out: that name replaces
theirs.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-image-name-meaningful",
    act_rules=(),
    criteria=("1.1.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures an image's accessible name is not a file name, an address or a "
    "placeholder word",
    help="The text alternative of an image must say what the image shows or does",
    messages={
        "pass": "The image's accessible name is not a file name or a placeholder",
        "fail": 'The accessible name "${data.name}" ${data.reason}: it does not say what the '
        "image shows or does",
        "incomplete": 'The accessible name "${data.name}" ${data.reason}; check that it says '
        "briefly what the image shows or does",
    },
    script=load_script(__package__, "image_name_meaningful"),
    matches=load_script(__package__, "image_name_applies"),
    selector="img, input, area, [role]",
)
