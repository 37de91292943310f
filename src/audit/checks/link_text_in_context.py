"""a11y-link-text-in-context: a link that says "click here" has context that says more.

WCAG 2.4.4 Link Purpose (In Context) (A); failure technique F63 (link context not related to
the link), sufficient techniques H77-H81 and G53 (the context that counts). No ACT rule:
5effbb (link in context is descriptive) is a question of judgment for every link, asked by
``a11y-judge-link-in-context``; this check is the part a program can decide.

axe-core checks only that a link has a name. A name such as "click here", "read more", "more",
"here", "this" or "learn more" (and their common French, German, Spanish, Italian, Dutch,
Nordic, Portuguese and Polish forms) tells nothing by itself, so its context must (a name
written as code, such as the function ``info()`` or the option ``--details``, is an identifier
and not such a phrase): the
link's sentence or paragraph (the inline content around it in its block), its list, its table
cell with its row and header cells, the heading before it in its section (H80) or the
section's own name, its ``aria-describedby`` description or a ``title`` that says more (for a
link in a shadow tree, also the context of its host). When none of these has a word
(links that say nothing themselves do not count), nothing a screen reader can reach says where
the link leads: the link fails. When some context exists, whether it tells the purpose is a
judgment: the link needs review. A link whose name is a bare web address may tell its purpose
through the address; it needs review only when it has no context either.
"""

from cdpdriver.scripts import load_script

from .spec import Check

_LINK_TEXT = load_script(__package__, "link_text")

CHECK = Check(
    rule_id="a11y-link-text-in-context",
    act_rules=(),
    criteria=("2.4.4",),
    level="A",
    since="2.0",
    impact="serious",
    description='Ensures a link named "click here", "read more" or the like has context that '
    "tells its purpose",
    help="The purpose of a link must be clear from its text or its context",
    messages={
        "pass": "The link's text or its context tells where it leads",
        "fail": 'The link text "${data.name}" says nothing by itself, and it has no context '
        "that says more: no sentence, paragraph, list, table cell, heading before it, "
        "description or title",
        "incomplete": 'The link text "${data.name}" ${data.why}',
    },
    script=f"({_LINK_TEXT})('context', 'evaluate')",
    matches=f"({_LINK_TEXT})('context', 'matches')",
    selector="a, area, [role]",
    exclude_hidden=False,
)
