"""a11y-judge-page-title: does the page title describe the page?

ACT rule c4a8a4 (HTML page title is descriptive); WCAG 2.4.2 Page Titled (A).

axe-core's ``document-title`` only asks that a title exists. Whether "University of Arkham" fits
a page of search results, or "Apple harvesting season" a page about clementines, takes reading
the page: a judgment check, asked of the LLM judge with the title, the page's headings and the
start of its text. It applies to the document title of the top-level page (its first ``title``
element, even one misplaced in the body; titles of frames are not page titles) when that title
has text.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-judge-page-title",
    act_rules=("c4a8a4",),
    criteria=("2.4.2",),
    level="A",
    since="2.0",
    impact="serious",
    description="Asks whether the page title describes the topic or purpose of the page",
    help="The page title must describe the topic or purpose of the page",
    messages={
        "pass": "The page title describes the page",
        "fail": "The page title does not describe the page",
        "incomplete": "Does this page title describe the topic or purpose of the page's content?",
    },
    script=load_script(__package__, "judge_question"),
    matches=load_script(__package__, "judge_page_title_applies"),
    selector="title",
    exclude_hidden=False,
    judgment_context="title",
)
