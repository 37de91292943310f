"""a11y-duplicate-id-ref: an id that something refers to belongs to one element only.

WCAG 1.3.1 Info and Relationships (A) and 4.1.2 Name, Role, Value (A). No ACT rule covers it
(ACT 3ea0c8, any duplicate id, was retired with WCAG 4.1.1).

``aria-labelledby``, ``aria-describedby``, ``aria-controls``, ``aria-owns``,
``aria-activedescendant``, ``aria-errormessage``, ``aria-details``, ``aria-flowto``, ``label
for`` and ``headers`` all resolve an id to the first element that has it. When a second
element repeats the id, every reference meant for it reaches the first one instead: a field
gets another field's label or error, a button controls the wrong panel, a cell the wrong
header. WCAG 4.1.1, which forbade duplicate ids as such, is obsolete; the harm to names,
relationships and states remains. axe-core's ``duplicate-id-aria`` only asks for review and
ignores ``headers``; this check supersedes it. It applies to each element, after the first,
of a document or shadow root that repeats an id some element of that root refers to. Which of
the elements a reference is meant for is read from the tree: the one nearest to it (the
deepest common ancestor; for ``label for``, the nearest labelable element), as duplicated
components (a form row, a menu and its button) keep them together. A reference meant for this
element reaches the first one instead: it fails; if every such reference is a name or a
description and both elements have the same text, what is announced may be right anyway, and
it needs review, as when this element and the first are equally near. When every reference is
meant for the first element, nothing goes astray and it passes.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-duplicate-id-ref",
    act_rules=(),
    criteria=("1.3.1", "4.1.2"),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures ids that labels, descriptions, ARIA relationships or table headers "
    "refer to are unique",
    help="Referenced ids must be unique",
    messages={
        "pass": "The id is unique",
        "fail": "Another element earlier in the document has the same id, so the references to "
        "this id meant for this element (label for, aria-labelledby, aria-describedby, "
        "aria-controls, headers...) reach that element instead",
        "incomplete": "An earlier element has the same id; references to the id reach that "
        "element, which may or may not be the one they are meant for",
    },
    script=load_script(__package__, "duplicate_id_ref"),
    matches=load_script(__package__, "duplicate_id_ref_applies"),
    selector="[id]",
    exclude_hidden=False,
    supersedes=("duplicate-id-aria",),
)
