"""What changed between two runs, problem by problem (docs/problems.md, Baselines).

A problem keeps its id across runs while the same rule fails on the same component, so two
runs are compared by id: a problem of the current run the baseline lacks is ``new``, one the
baseline had and the current run no longer has is ``fixed``, and one both have is
``unchanged`` unless it now shows on pages where the baseline did not find it: then it
``spread`` (the shared component reached more pages, or a page gained it). A problem's pages
are read from its items (every finding and needs-review item names its problem), not from
``pageSample``, which holds five at most.

Pure, and on result models only: the service and the CLI read stored runs into models first.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models import AuditResult
from ..rules import IMPACT_RANK
from .schema import Problem

STATES = ("new", "fixed", "spread", "unchanged")


@dataclass(frozen=True)
class Spread:
    """A problem both runs have, found now on pages the baseline did not find it on."""

    problem: Problem
    new_pages: tuple[str, ...]


@dataclass(frozen=True)
class ProblemChanges:
    """The problems of two runs by state: ``new``, ``spread`` and ``unchanged`` as the
    current run has them (in its priority order), ``fixed`` as the baseline had them."""

    new: list[Problem]
    fixed: list[Problem]
    spread: list[Spread]
    unchanged: list[Problem]

    def counts(self) -> dict[str, int]:
        return {state: len(getattr(self, state)) for state in STATES}

    def new_at_or_above(self, impact: str) -> list[Problem]:
        """The new problems of at least ``impact`` (critical > serious > moderate > minor).
        A problem that spread is not new: its component was already known to fail."""
        threshold = IMPACT_RANK[impact]
        return [problem for problem in self.new if IMPACT_RANK.get(problem.impact, 0) >= threshold]


def problem_pages(result: AuditResult) -> dict[str, set[str]]:
    """Each problem id of ``result`` with the pages its findings and needs-review items are on."""
    pages: dict[str, set[str]] = {problem.id: set() for problem in result.problems}
    for item in (*result.findings, *result.needs_review):
        if item.problem:
            pages.setdefault(item.problem, set()).add(item.page_url)
    return pages


def compare_problems(current: AuditResult, baseline: AuditResult) -> ProblemChanges:
    """``current`` against ``baseline`` by problem id (see the module docstring)."""
    now, before = problem_pages(current), problem_pages(baseline)
    new: list[Problem] = []
    spread: list[Spread] = []
    unchanged: list[Problem] = []
    for problem in current.problems:
        if problem.id not in before:
            new.append(problem)
            continue
        reached = now.get(problem.id, set()) - before[problem.id]
        if reached:
            spread.append(Spread(problem, tuple(sorted(reached))))
        else:
            unchanged.append(problem)
    fixed = [problem for problem in baseline.problems if problem.id not in now]
    return ProblemChanges(new, fixed, spread, unchanged)


def lacks_problems(result: AuditResult) -> bool:
    """Whether ``result`` has items but no problems: a report made before problems existed,
    which cannot be compared by problem (every problem would read as new)."""
    return not result.problems and bool(result.findings or result.needs_review)
