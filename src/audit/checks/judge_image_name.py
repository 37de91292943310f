"""a11y-judge-image-name: does the image's accessible name serve the image's purpose?

ACT rule qt1vmo (Image accessible name is descriptive); WCAG 1.1.1 Non-text Content (A).

axe-core's ``image-alt`` passes any alt text, "ERCIM logo" on the W3C logo included. This
judgment check asks the LLM judge, with the picture when images are sent, about every visible
``img``, ``canvas`` or outermost ``svg`` exposed with a non-empty accessible name; not about
images inside an element named by ``aria-label``/``aria-labelledby`` (that name replaces theirs)
nor about an ``img`` that did not load.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-judge-image-name",
    act_rules=("qt1vmo",),
    criteria=("1.1.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Asks whether each image's accessible name serves the purpose of the image",
    help="The accessible name of an image must convey what the image does or shows",
    messages={
        "pass": "The accessible name serves the purpose of the image",
        "fail": "The accessible name does not serve the purpose of the image",
        "incomplete": "Does this image's accessible name serve the same purpose as the image "
        "(convey what it shows or does)?",
    },
    script=load_script(__package__, "judge_question"),
    matches=f"({load_script(__package__, 'judge_image_applies')})('named')",
    selector="img, canvas, svg",
    exclude_hidden=False,
    judgment_context="image",
)
