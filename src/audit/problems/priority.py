"""The order of problems: most important first, and no rule crowding out the others
(docs/problems.md, Priority).

priority = impact weight × task factor × reach × (1 + log2(instances) / 8), where the
impact weight is critical 8, serious 4, moderate 2, minor 1; the task factor is 2 for rules
whose failure keeps someone from completing a task (a keyboard trap, a form field without a
label, a control without a name, a control only a mouse can use) and 1 otherwise; and reach
is 1 + 3 × the share of the run's pages the problem is on, so a header on every page
outranks a footer link on one. Instances count only a little beyond pages: a thousand links
in one table of contents are one fix.

The order: problems with at least one finding before those that only need review; then by
rounds, the first problem of every rule before the second of any, then the next
:data:`PER_RULE_ROUND` of each rule, and so on; by priority inside a round. So a long list
of one low-impact rule never pushes another rule off the first page.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from .schema import Problem

IMPACT_WEIGHT = {"critical": 8.0, "serious": 4.0, "moderate": 2.0, "minor": 1.0}
#: Problems of one rule in each round after the first.
PER_RULE_ROUND = 3
#: Rules whose failure blocks a task: keyboard traps and keyboard-only users locked out,
#: form fields without labels, controls and links without names.
BLOCKING_RULES = frozenset(
    {
        "a11y-keyboard-trap",
        "a11y-click-without-keyboard",
        "a11y-dialog-focus",
        "label",
        "select-name",
        "aria-input-field-name",
        "aria-toggle-field-name",
        "input-image-alt",
        "button-name",
        "input-button-name",
        "link-name",
        "aria-command-name",
        "area-alt",
        "frame-focusable-content",
        "scrollable-region-focusable",
        "nested-interactive",
        "aria-hidden-focus",
    }
)


def blocks_task(rule_id: str) -> bool:
    return rule_id in BLOCKING_RULES


def priority(impact: str, rule_id: str, *, pages: int, total_pages: int, instances: int) -> float:
    """The priority score (the module docstring's formula), two decimals."""
    share = min(1.0, pages / total_pages) if total_pages > 0 else 1.0
    score = (
        IMPACT_WEIGHT.get(impact, 1.0)
        * (2.0 if blocks_task(rule_id) else 1.0)
        * (1.0 + 3.0 * share)
        * (1.0 + math.log2(max(1, instances)) / 8.0)
    )
    return round(score, 2)


def _round(rank_in_rule: int) -> int:
    return 0 if rank_in_rule == 0 else 1 + (rank_in_rule - 1) // PER_RULE_ROUND


def ordered(problems: Sequence[Problem]) -> list[Problem]:
    """``problems`` in the documented order."""
    by_priority = sorted(
        problems, key=lambda p: (p.certainty != "violation", -p.priority, p.rule_id, p.id)
    )
    seen: Counter[tuple[str, str]] = Counter()
    keyed = []
    for problem in by_priority:
        key = (problem.certainty, problem.rule_id)
        keyed.append(
            (
                (
                    problem.certainty != "violation",
                    _round(seen[key]),
                    -problem.priority,
                    problem.rule_id,
                    problem.id,
                ),
                problem,
            )
        )
        seen[key] += 1
    return [problem for _, problem in sorted(keyed, key=lambda pair: pair[0])]
