"""a11y-judge-heading: does each heading describe the content it introduces?

ACT rule b49b2e (Heading is descriptive); WCAG 2.4.6 Headings and Labels (AA).

No rule can tell that "Weather" is the wrong heading for opening hours. This judgment check asks
the LLM judge about every heading exposed to assistive technologies with a non-empty name
(visible on screen or not: a heading moved off-screen still reaches screen-reader users), with
the text that follows it up to the next heading of the same or a higher level.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-judge-heading",
    act_rules=("b49b2e",),
    criteria=("2.4.6",),
    level="AA",
    since="2.0",
    impact="moderate",
    description="Asks whether each heading describes the topic or purpose of the content after it",
    help="Headings must describe the topic or purpose of their content",
    messages={
        "pass": "The heading describes the content after it",
        "fail": "The heading does not describe the content after it",
        "incomplete": "Does this heading describe the topic or purpose of the content that follows it?",
    },
    script=load_script(__package__, "judge_question"),
    matches=load_script(__package__, "judge_heading_applies"),
    selector='h1, h2, h3, h4, h5, h6, [role~="heading"]',
    exclude_hidden=False,
    judgment_context="heading",
)
