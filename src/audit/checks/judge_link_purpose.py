"""a11y-judge-link-purpose: does the link's name alone say where it goes or what it does?

ACT rule aizyf1 (Link is descriptive); WCAG 2.4.9 Link Purpose (Link Only) (AAA).

"More", "Go" or "this product" satisfy every rule a tool can run. At AAA the name alone must
tell the link's purpose. This judgment check asks the LLM judge about every element of a link
role exposed to assistive technologies with a non-empty accessible name.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-judge-link-purpose",
    act_rules=("aizyf1",),
    criteria=("2.4.9",),
    level="AAA",
    since="2.0",
    impact="moderate",
    description="Asks whether each link's accessible name alone describes its purpose",
    help="The name of a link must describe its purpose on its own",
    messages={
        "pass": "The link's name describes its purpose",
        "fail": "The link's name does not describe its purpose",
        "incomplete": "Does this link's accessible name alone, without its context, describe the "
        "link's purpose?",
    },
    script=load_script(__package__, "judge_question"),
    matches=load_script(__package__, "judge_link_applies"),
    selector="a, area, [role]",
    exclude_hidden=False,
    judgment_context="link",
)
