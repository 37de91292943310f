"""a11y-link-text-alone: a link's text alone says where it leads.

WCAG 2.4.9 Link Purpose (Link Only) (AAA); failure technique F84 (a non-specific link such as
"click here" or "more" without a mechanism to change the link text). ACT rule aizyf1 (Link is
descriptive): this check decides the links whose text certainly says nothing alone, and asks
about the ones that may; whether any other text describes its link is the LLM judge's question
(``a11y-judge-link-purpose``).

At level AAA the context does not count: a link whose accessible name is "click here", "read
more", "more", "here", "go", "this", "learn more" or the like (the list of
``a11y-link-text-in-context``) fails, whatever surrounds it, and so does one named only by a
file format ("HTML", "PDF", "EPUB", "Plain text"): it says which format, not which document
(unless the link's fragment or last path segment is named after that word, "csv" to
``whatsnew.html#csv``: then the word names a topic, as in technical documentation). A
name that is a bare web address needs review (an address can say where a link leads, or not),
and so does "this" or "that" with one word ("this product"), which points at something only
its context names.
"""

from cdpdriver.scripts import load_script

from .spec import Check

_LINK_TEXT = load_script(__package__, "link_text")

CHECK = Check(
    rule_id="a11y-link-text-alone",
    act_rules=("aizyf1",),
    criteria=("2.4.9",),
    level="AAA",
    since="2.0",
    impact="moderate",
    description='Ensures no link is named only "click here", "read more", a file format or the like',
    help="The text of a link alone must tell its purpose",
    messages={
        "pass": "The link's text tells where it leads",
        "fail": 'The link text "${data.name}" does not say where the link leads; a user who '
        "lists the links of the page cannot tell",
        "incomplete": 'The link text "${data.name}" ${data.why}',
    },
    script=f"({_LINK_TEXT})('alone', 'evaluate')",
    matches=f"({_LINK_TEXT})('alone', 'matches')",
    selector="a, area, [role]",
    exclude_hidden=False,
)
