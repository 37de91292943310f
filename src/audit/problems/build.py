"""``problems[]`` of a run from its findings and needs-review items, one item at a time, so
a run whose items are read from the store window by window never holds them all
(:class:`ProblemBuilder`); :func:`build_problems` for the lists of one result."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from ..models import AuditResult
from ..rules import IMPACT_RANK
from .assign import Groupable, ensure_problems, signature_of
from .pattern import selector_pattern
from .priority import blocks_task, ordered, priority
from .schema import Problem, ProblemInstance
from .signature import component_css, problem_id
from .where import element_compound, fix_location

PAGE_SAMPLE = 5
EXAMPLES = 10
#: Selectors kept per problem to make its pattern from.
PATTERN_SAMPLE = 200


class Item(Groupable, Protocol):
    """A finding or needs-review item as the builder reads it."""

    id: str
    impact: str
    level: str
    success_criteria: list[str]
    help: str
    help_text: str
    description: str
    page_url: str
    fingerprint: str


@dataclass
class _Growing:
    """One problem while its items arrive."""

    first: Item
    violation: bool = False
    impact: str = "minor"
    instances: int = 0
    pages: dict[str, None] = field(default_factory=dict)  # ordered set
    one_per_page: list[Item] = field(default_factory=list)
    more: list[Item] = field(default_factory=list)
    selectors: list[str] = field(default_factory=list)

    @property
    def examples(self) -> list[Item]:
        """Up to :data:`EXAMPLES` instances, one per page first."""
        return (self.one_per_page + self.more)[:EXAMPLES]

    def add(self, item: Item, is_finding: bool) -> None:
        self.instances += 1
        self.violation = self.violation or is_finding
        if IMPACT_RANK.get(item.impact, 0) > IMPACT_RANK.get(self.impact, 0) or self.instances == 1:
            self.impact = item.impact
        new_page = item.page_url not in self.pages
        self.pages.setdefault(item.page_url, None)
        if new_page and len(self.one_per_page) < EXAMPLES:
            self.one_per_page.append(item)
        elif not new_page and len(self.more) < EXAMPLES:
            self.more.append(item)
        if len(self.selectors) < PATTERN_SAMPLE:
            self.selectors.append(item.selector)


def signature_problem(item: Groupable) -> str:
    """The problem id an item without one gets (from its markup and selector)."""
    return problem_id(item.rule_id, signature_of(item, None))


def _instance(item: Item) -> ProblemInstance:
    return ProblemInstance(
        item_id=item.id,
        page_url=item.page_url,
        selector=item.selector,
        html=item.html,
        fingerprint=item.fingerprint,
    )


class ProblemBuilder:
    """Collects items (findings first, then needs-review items, each in the result's order)
    and makes the problems of a run of ``total_pages`` audited pages."""

    def __init__(self, total_pages: int) -> None:
        self.total_pages = total_pages
        self._growing: dict[str, _Growing] = {}

    def add(self, item: Item, *, is_finding: bool) -> None:
        ensure_problems([item])
        growing = self._growing.get(item.problem)
        if growing is None:
            growing = self._growing[item.problem] = _Growing(first=item)
        growing.add(item, is_finding)

    def problems(self) -> list[Problem]:
        """The problems, in priority order (:func:`.priority.ordered`)."""
        made = [self._made(problem_id, growing) for problem_id, growing in self._growing.items()]
        return ordered(made)

    def _made(self, problem_id: str, growing: _Growing) -> Problem:
        first = growing.first
        pages = len(growing.pages)
        total = max(self.total_pages, pages)
        return Problem(
            id=problem_id,
            rule_id=first.rule_id,
            title=first.help_text or first.description or first.rule_id,
            impact=growing.impact,
            level=first.level,
            success_criteria=list(first.success_criteria),
            help=first.help,
            certainty="violation" if growing.violation else "needs_review",
            component=first.component,
            selector_pattern=selector_pattern(
                growing.selectors,
                component_css(first.component),
                element_compound(first.element, first.html),
            ),
            fix_location=fix_location(
                first.rule_id,
                first.component,
                first.element,
                first.html,
                pages=pages,
                total_pages=total,
                instances=growing.instances,
            ),
            instances=growing.instances,
            pages=pages,
            page_sample=list(growing.pages)[:PAGE_SAMPLE],
            priority=priority(
                growing.impact,
                first.rule_id,
                pages=pages,
                total_pages=total,
                instances=growing.instances,
            ),
            blocks_task=blocks_task(first.rule_id),
            representative=_instance(first),
            examples=[_instance(item) for item in growing.examples],
        )


def problems_of(result: AuditResult) -> list[Problem]:
    """The result's problems: its own, or for a result assembled without them (an older
    stored run, a result built from axe output alone) made now from copies of its items."""
    if result.problems or not (result.findings or result.needs_review):
        return list(result.problems)
    total = sum(1 for page in result.pages if page.status == "ok") or 1
    return build_problems(
        [f.model_copy() for f in result.findings],
        [r.model_copy() for r in result.needs_review],
        total,
    )


def instances_by_problem(result: AuditResult, problems: Iterable[Problem]) -> dict[str, list[Item]]:
    """Every finding and needs-review item of the result under its problem's id (the items
    of a result without problems are matched as :func:`problems_of` grouped them)."""
    wanted = {problem.id: [] for problem in problems}
    for item in [*result.findings, *result.needs_review]:
        problem = item.problem or signature_problem(item)
        if problem in wanted:
            wanted[problem].append(item)
    return wanted


def build_problems(
    findings: Iterable[Item], needs_review: Iterable[Item], total_pages: int
) -> list[Problem]:
    """The problems of one result's findings and needs-review items."""
    builder = ProblemBuilder(total_pages)
    for item in findings:
        builder.add(item, is_finding=True)
    for item in needs_review:
        builder.add(item, is_finding=False)
    return builder.problems()
