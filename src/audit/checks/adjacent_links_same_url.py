"""a11y-adjacent-links-same-url: an image link and a text link to one place are one link.

A best practice (WCAG technique H2, combining adjacent image and text links for the same
resource); no success criterion fails for it, so it is reported only when a request asks for
best practices.

Cards and lists often put a thumbnail link and a title link to the same page side by side. A
screen reader reads both, and a keyboard user tabs through both, for one destination; when the
image's text alternative repeats the title, the same words are heard twice. The check fails a
link whose previous link in the document leads to the same resolved address with nothing but
white space between them (no text, image or control), when both are exposed to assistive
technologies and in the focus order. The common accessible pattern, an image link taken out of
the focus order and hidden (``tabindex="-1" aria-hidden="true"``), passes, and so do links to
``#`` or ``javascript:``, which scripts give their meaning.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-adjacent-links-same-url",
    act_rules=(),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures adjacent links to the same address are combined into one link",
    help="Combine an image link and a text link that lead to the same place",
    messages={
        "pass": "The link before this one leads elsewhere, or something lies between them",
        "fail": "This link and the one just before it lead to the same address with nothing "
        "between them: screen reader and keyboard users meet the same link twice; combine them",
    },
    script=load_script(__package__, "adjacent_links"),
    selector="a[href]",
)
