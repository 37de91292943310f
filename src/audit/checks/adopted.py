"""axe-core rules we run or map differently from axe's defaults, for the ACT rules they implement.

Selection. axe-core skips a rule tagged ``deprecated`` or ``experimental`` unless those tags are
asked for, so ``audio-caption`` (ACT 2eb176, afb423; WCAG 1.2.1, A) and ``css-orientation-lock``
(ACT b33eff; WCAG 1.3.4, AA, since 2.1) never ran, though ACT maps them. An adopted rule loses
those two tags (and gains ``a11y-adopted``) when axe is loaded, so it runs exactly when the
requested version and level include its criterion, like any other rule. Whether its failure is
a finding or needs review is decided per rule (``review_on_fail``):

* ``audio-caption`` only ever answers "needs review" (an ``<audio>`` without a captions track;
  a transcript elsewhere on the page satisfies 1.2.1, and axe cannot see one): needs review.
* ``css-orientation-lock`` fails when a style sheet rotates the page by 90 degrees under an
  orientation media query, which locks the content to one orientation; that is a fact of the
  page, not a judgement: a finding.
* ``td-has-header`` (WCAG 1.3.1, A; no ACT rule) is tagged ``experimental``: every non-empty
  data cell of a table of at least 3 by 3 cells that axe's heuristics call a data table must
  have a header. Those heuristics also call some layout tables data tables (a border, 5
  columns, 20 rows, rows of alternating colours), so its failures need review; a table with no
  header at all is a finding of ``a11y-table-no-headers``.

The axe rules with ``actIds`` that are deprecated because their criterion is obsolete
(``duplicate-id``, ``duplicate-id-active``: WCAG 4.1.1, tagged ``wcag2a-obsolete``) stay out;
``duplicate-id-aria`` (4.1.2, needs review only) is superseded by ``a11y-duplicate-id-ref``.

Mapping. ``list`` checks that a ``ul``/``ol`` without a role owns only list items: the implicit
``list`` role's required owned elements, which is ACT bc4a75 (ARIA required owned elements) for
implicit roles, while axe maps only ``aria-required-children`` (explicit roles) to it.
``summary-name`` is ACT 2t702h (Summary element has non-empty accessible name), for which axe
declares no ACT id; ``aria-prohibited-attr``, with the override in
:mod:`.aria_prohibited_global`, is ACT kb1m8s (ARIA global properties not used where prohibited).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Adopted:
    rule_id: str
    #: Drop axe's ``deprecated``/``experimental`` tag, so the WCAG tags select the rule.
    select: bool = False
    #: With ``select``: a failure is a needs-review item rather than a finding.
    review_on_fail: bool = False
    #: ACT rules the rule implements beyond the ``actIds`` axe declares.
    act_rules: tuple[str, ...] = ()


ADOPTED: tuple[Adopted, ...] = (
    Adopted("audio-caption", select=True, review_on_fail=True),
    Adopted("css-orientation-lock", select=True, review_on_fail=False),
    Adopted("td-has-header", select=True, review_on_fail=True),
    Adopted("list", act_rules=("bc4a75",)),
    Adopted("summary-name", act_rules=("2t702h",)),
    Adopted("aria-prohibited-attr", act_rules=("kb1m8s",)),
)
