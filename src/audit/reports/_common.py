"""Ordering and grouping shared by the human-readable reports."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..models import Finding
from ..rules import IMPACT_RANK


@dataclass
class RuleGroup:
    """All findings of one rule, most severe rules first when sorted."""

    rule_id: str
    impact: str
    level: str
    help_text: str
    description: str
    help_url: str
    success_criteria: list[str]
    findings: list[Finding] = field(default_factory=list)


def group_by_rule(findings: Sequence[Finding]) -> list[RuleGroup]:
    """Findings grouped by rule: most severe impact first, then rule id; findings keep
    their order inside a group. A group's impact is the worst of its findings."""
    groups: dict[str, RuleGroup] = {}
    for f in findings:
        g = groups.get(f.rule_id)
        if g is None:
            g = groups[f.rule_id] = RuleGroup(
                rule_id=f.rule_id,
                impact=f.impact,
                level=f.level,
                help_text=f.help_text,
                description=f.description,
                help_url=f.help,
                success_criteria=list(f.success_criteria),
            )
        if IMPACT_RANK[f.impact] > IMPACT_RANK[g.impact]:
            g.impact = f.impact
        g.findings.append(f)
    return sorted(groups.values(), key=lambda g: (-IMPACT_RANK[g.impact], g.rule_id))


# C0 and C1 control characters other than tab and newline: terminal escape sequences in a
# text report, parse errors in HTML and illegal in XML 1.0.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: object) -> str:
    """``text`` as a string with control characters replaced by U+FFFD, for page-derived
    strings that end up in a terminal or a document."""
    return _CONTROL.sub("\ufffd", str(text))


def fmt_score(score: float | None) -> str:
    return "-" if score is None else f"{score:.1f}"
