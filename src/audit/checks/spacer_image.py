"""a11y-spacer-image: no images used to make room.

A best practice, reported only when a request asks for best practices: layout done with
transparent 1-pixel images stretched to size does not reflow or resize with text the way CSS
margins do, and an image that is not marked decorative is announced by screen readers.

The check applies to a rendered ``img`` with no text alternative (``alt=""``, no ``alt``, or
hidden from assistive technologies; one with a name is judged as an image by
``a11y-image-name-meaningful``) and fails it when its picture is 1 or 2 pixels square or its
file is named like a spacer (``spacer.gif``, ``blank.gif``, ``shim.gif``, ``clear.gif``,
``transparent.png``, ``pixel.gif``, ``1x1.gif``, ``s.gif``) and it is drawn 4 pixels or more
wide or high. A tracking pixel drawn at 1 by 1 makes no room and passes.
"""

from cdpdriver.scripts import load_script

from .spec import Check

_SPACER = load_script(__package__, "spacer_image")

CHECK = Check(
    rule_id="a11y-spacer-image",
    act_rules=(),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures no transparent or 1-pixel images are stretched to make room on the page",
    help="Use CSS margins and padding, not spacer images, for layout",
    messages={
        "pass": "The image is not a spacer",
        "fail": "A spacer image stretched to ${data.width} by ${data.height} pixels makes room "
        "on the page; use CSS margins or padding instead",
    },
    script=f"({_SPACER})('evaluate')",
    matches=f"({_SPACER})('matches')",
    selector="img",
    exclude_hidden=False,
)
