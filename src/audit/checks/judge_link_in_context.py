"""a11y-judge-link-in-context: does the link's name, with its context, say what it is for?

ACT rule 5effbb (Link in context is descriptive); WCAG 2.4.4 Link Purpose (In Context) (A).

"HTML" under the heading "Ulysses" in a list is fine; "Workshop" after a paragraph about
another matter is not. The context a screen reader can reach counts: the link's sentence,
paragraph, list item or table cell (with its headers), the heading before it, and its
``aria-describedby`` description. This judgment check asks the LLM judge about every element
of a link role exposed to assistive technologies with a non-empty accessible name.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-judge-link-in-context",
    act_rules=("5effbb",),
    criteria=("2.4.4",),
    level="A",
    since="2.0",
    impact="serious",
    description="Asks whether each link's accessible name together with its context describes "
    "its purpose",
    help="The name of a link, with its context, must describe its purpose",
    messages={
        "pass": "The link's name and context describe its purpose",
        "fail": "The link's name and context do not describe its purpose",
        "incomplete": "Does this link's accessible name, together with its context (sentence, "
        "paragraph, list item, table cell and headers, preceding heading, description), describe "
        "the link's purpose?",
    },
    script=load_script(__package__, "judge_question"),
    matches=load_script(__package__, "judge_link_applies"),
    selector="a, area, [role]",
    exclude_hidden=False,
    judgment_context="link",
)
