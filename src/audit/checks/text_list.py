"""a11y-text-list: a list is marked up as a list, not drawn with characters and line breaks.

WCAG 1.3.1 Info and Relationships (A); technique H48 (ol, ul and dl for lists). No ACT rule
covers it.

Lines that start with "•", "-", "*" or "1.", "2.", "3." and are separated by ``<br>`` look
like a list, but a screen reader announces neither that a list starts, nor how many items it
has, nor where it ends, and list navigation skips it. axe-core's list rules judge ``ul``/``ol``
markup only. Three consecutive lines of an element's own text, split by ``<br>``, that start
with the same bullet character or with consecutive numbers or letters fail. Three consecutive
paragraphs that do need review instead: numbered paragraphs of a document are not always a
list. Preformatted text, code and editable regions are left out.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-text-list",
    act_rules=(),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="moderate",
    description="Ensures lists are marked up with list elements, not typed with bullet "
    "characters or numbers and line breaks",
    help="Lists must be marked up as lists",
    messages={
        "pass": "No line-by-line list written with characters",
        "fail": "Lines separated by <br> start with bullet characters or numbers: this is a list "
        "only to the eye; use ul or ol with li",
        "incomplete": "Consecutive paragraphs start with bullet characters or numbers; if they "
        "form a list, mark them up with ul or ol",
    },
    script=load_script(__package__, "text_list"),
    matches=load_script(__package__, "text_list_applies"),
    selector="body, body *",
)
