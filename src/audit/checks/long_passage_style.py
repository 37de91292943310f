"""a11y-long-passage-style: long passages are not set in italics or in capitals.

A best practice, reported only when a request asks for best practices: no success criterion
fails for it (1.4.8 lists what users must be able to change, and typeface is not among its
requirements), but long passages in italics or in capital letters are markedly harder to read
for people with dyslexia or low vision, and capitals are spelled out by some screen readers.

The check applies to blocks of running text of 200 characters or more (as
``a11y-text-not-justified`` defines them) that are passages: 3 sentences, or 400 characters.
It fails one when 90% of its characters are in an italic or oblique font, or 90% of its
letters (150 at least) are capitals, by ``text-transform: uppercase`` or as written. Headings,
captions and short notes stay under the length and are not judged.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-long-passage-style",
    act_rules=(),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures long passages of text are not set in italics or in capital letters",
    help="Do not set long passages of text in italics or in capital letters",
    messages={
        "pass": "The passage is not set in italics or capital letters",
        "fail": "This passage of ${data.length} characters is set in ${data.style}, which is hard "
        "to read at length; keep italics and capitals for short emphasis",
    },
    script=load_script(__package__, "long_passage_style"),
    matches=f"({load_script(__package__, 'running_text')})('style')",
    selector="body *",
    exclude_hidden=False,
)
