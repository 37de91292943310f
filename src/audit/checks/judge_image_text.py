"""a11y-judge-image-text: does an image hold text that should be real text?

ACT rule 0va7u6 (HTML images contain no text); WCAG 1.4.5 Images of Text (AA) and 1.4.9
Images of Text (No Exception) (AAA).

Text baked into a picture cannot be resized, restyled or reflowed. Whether a picture holds text,
and whether that text is incidental, decorative or essential (a logo), takes looking at it: this
judgment check asks the LLM judge, with the picture when images are sent, about every visible
element that renders an image resource (a loaded ``img``, an image button, an ``svg`` ``image``,
an ``object`` showing an image, a ``url()`` background), decorative ones included.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-judge-image-text",
    act_rules=("0va7u6",),
    criteria=("1.4.5", "1.4.9"),
    level="AA",
    since="2.0",
    impact="moderate",
    description="Asks whether each rendered image contains significant text that is not "
    "decorative or essential",
    help="Images must not contain text, unless decorative, incidental or essential (a logo)",
    messages={
        "pass": "The image contains no significant text",
        "fail": "The image contains text that should be real text",
        "incomplete": "Does this image contain visible text that is a significant part of it, "
        "where the image is not purely decorative and that presentation of the text is not "
        "essential (such as a logo)?",
    },
    script=load_script(__package__, "judge_question"),
    matches=load_script(__package__, "judge_image_text_applies"),
    selector="*",
    exclude_hidden=False,
    judgment_context="image",
)
