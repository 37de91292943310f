"""a11y-judge-decorative-image: is an image left out of the accessibility tree really decorative?

ACT rule e88epe (Image not in the accessibility tree is decorative); WCAG 1.1.1 Non-text
Content (A).

``alt=""``, ``role="none"``, ``aria-hidden`` or an unnamed ``svg``/``canvas`` make an image
invisible to screen readers, which axe-core accepts. Right for fireworks behind a greeting,
wrong for a logo or a chart. This judgment check asks the LLM judge, with the picture when
images are sent, about every visible ``img``, ``canvas`` or outermost ``svg`` that assistive
technologies do not get (except inside an element named by ``aria-label``/``aria-labelledby``,
and an ``img`` that did not load).
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-judge-decorative-image",
    act_rules=("e88epe",),
    criteria=("1.1.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Asks whether each image hidden from assistive technologies is purely decorative",
    help="Images hidden from assistive technologies must be purely decorative",
    messages={
        "pass": "The image is purely decorative",
        "fail": "The image conveys information but is hidden from assistive technologies",
        "incomplete": "This image is hidden from assistive technologies: is it purely decorative "
        "(conveying no information and serving no function)?",
    },
    script=load_script(__package__, "judge_question"),
    matches=f"({load_script(__package__, 'judge_image_applies')})('hidden')",
    selector="img, canvas, svg",
    exclude_hidden=False,
    judgment_context="image",
)
