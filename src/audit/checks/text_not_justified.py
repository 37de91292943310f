"""a11y-text-not-justified: running text is not justified.

WCAG 1.4.8 Visual Presentation (AAA); failure technique F88 (text that is justified, aligned to
both the left and the right margins). No ACT rule.

Justified text stretches the spaces between words to fill each line; the uneven gaps ("rivers
of white") make lines harder to track for readers with dyslexia or low vision. The check
applies to blocks of running text that wrap (8 words or more of prose, on 2 lines or more,
visible; code, preformatted text and controls left out) and fails one whose computed
``text-align`` is ``justify`` when its text has spaces to stretch (Chinese or Japanese text
without spaces between words is not judged). 1.4.8 is also met by a mechanism that removes the
justification (a style switcher), which a check cannot see: the finding names F88 so a
reviewer who knows of one can dismiss it.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-text-not-justified",
    act_rules=(),
    criteria=("1.4.8",),
    level="AAA",
    since="2.0",
    impact="moderate",
    description="Ensures blocks of running text are not justified",
    help="Running text must not be justified (aligned to both margins)",
    messages={
        "pass": "The text is not justified",
        "fail": "The text is justified (text-align: justify): the uneven spaces between words "
        "make lines hard to follow (F88)",
    },
    script=load_script(__package__, "text_justified"),
    matches=f"({load_script(__package__, 'running_text')})('justify')",
    selector="body *",
    exclude_hidden=False,
)
