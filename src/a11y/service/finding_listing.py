"""Windows of a completed run's findings, filtered, in the result's order or grouped under
their problems (``GET /audits/{id}/findings``, and ``GET /audits/{id}?group=problems``).

Grouped, the listing is the run's findings ordered by their problem's place in the run's
problems (their priority order, docs/problems.md) and then by the result's order, so every
finding is in exactly one group, a problem's findings are consecutive, and windows taken one
after the other never skip or repeat one; a window cuts that list, so a problem's group may
begin in one window and go on in the next (each group says how many findings its problem
has in all). Ids stay those of the whole result (``f1`` its first finding, :mod:`jobs.store.
finding_index`).

Cost: a plain window (no filter, no grouping) is one query of the window. Any other reads the
run's index once (:mod:`jobs.store.finding_index`: row, rule, impact, page and problem of
every finding, no bodies; about 1.5 s per 100,000 findings on SQLite), keeps it while the
run is among the recently listed (:class:`IndexCache`: a completed run never changes, and a
purged run's id is never used again), and filters and orders it in memory (tenths of a
second per 100,000); then reads the
bodies of the window's findings only.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from audit.models import Finding
from audit.problems.build import ProblemBuilder, problems_of, signature_problem
from audit.problems.schema import Problem
from jobs.blocking import in_thread
from jobs.store import MAX_LIMIT, Run, Store
from jobs.store.finding_index import IndexEntry, finding_bodies, finding_index
from jobs.system import Conflict, Jobs

from .evidence import whole_result
from .jobs_schema import FindingGroupRef, ProblemSummary

_SUMMARY = set(ProblemSummary.model_fields) - {"rank"}
#: Index entries kept for all runs together (about 150 bytes each).
INDEX_CACHE_ENTRIES = 300_000


@dataclass(frozen=True)
class FindingFilter:
    """Findings of one rule, of one impact, of one page (its ``pageUrl``); None: any."""

    rule: str | None = None
    impact: str | None = None
    page: str | None = None

    def __bool__(self) -> bool:
        return any(value is not None for value in (self.rule, self.impact, self.page))

    def passes(self, entry: IndexEntry) -> bool:
        return ((self.rule is None or entry.rule == self.rule)
                and (self.impact is None or entry.impact == self.impact)
                and (self.page is None or entry.page == self.page))


@dataclass(frozen=True)
class ListingAsk:
    """A window of the findings that pass ``where`` (and are of ``problem``, when named),
    grouped under their problems or not."""

    where: FindingFilter = field(default_factory=FindingFilter)
    problem: str | None = None
    grouped: bool = False
    offset: int = 0
    limit: int = 100


@dataclass
class Group:
    """A problem and its findings in the window (JSON, with their result ids)."""

    problem: ProblemSummary
    total: int
    findings: list[dict[str, Any]] = field(default_factory=list)

    def ref(self) -> FindingGroupRef:
        return FindingGroupRef(problem=self.problem, total=self.total,
                               finding_ids=[str(f["id"]) for f in self.findings])


@dataclass
class Listing:
    total: int
    findings: list[dict[str, Any]]
    groups: list[Group]


class IndexCache:
    """The indexes of the runs listed last, by run id, the least recently used dropped when
    they hold more than ``max_entries`` entries together (a larger one is not kept)."""

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._runs: OrderedDict[str, list[IndexEntry]] = OrderedDict()
        self._size = 0

    def get(self, run_id: str) -> list[IndexEntry] | None:
        index = self._runs.get(run_id)
        if index is not None:
            self._runs.move_to_end(run_id)
        return index

    def put(self, run_id: str, index: list[IndexEntry]) -> None:
        if run_id in self._runs or len(index) > self.max_entries:
            return
        self._runs[run_id] = index
        self._size += len(index)
        while self._size > self.max_entries:
            _, dropped = self._runs.popitem(last=False)
            self._size -= len(dropped)


INDEXES = IndexCache(INDEX_CACHE_ENTRIES)


async def run_problems(jobs: Jobs, run_id: str, run: Run) -> list[dict[str, Any]]:
    """The completed run's problems (JSON), in priority order: as stored when it completed,
    or for a run completed before problems existed, made now from its items."""
    stored = (run.result or {}).get("problems")
    if stored is None:
        stored = [p.model_dump(mode="json") for p in problems_of(await whole_result(jobs, run_id))]
    return list(stored)


async def list_findings(jobs: Jobs, run_id: str, ask: ListingAsk) -> Listing:
    """The window ``ask`` names; ``Conflict`` unless the run completed."""
    run = await jobs.get(run_id)
    if run.status != "completed" or run.result is None:
        raise Conflict(f"run {run_id} is {run.status}; only a completed run has findings to list")
    if not ask.grouped and ask.problem is None and not ask.where:
        rows = await in_thread(lambda: jobs.store.findings(run_id, "finding", offset=ask.offset, limit=ask.limit))
        found = [{**row.data, "id": f"f{ask.offset + n}"} for n, row in enumerate(rows, 1)]
        return Listing(run.findings_total, found, [])
    index = INDEXES.get(run_id)
    if index is None:
        index = await in_thread(_read_index, jobs.store, run_id)
        INDEXES.put(run_id, index)
    listed = [(number, entry) for number, entry in enumerate(index, 1)
              if ask.where.passes(entry) and ask.problem in (None, entry.problem)]
    problems = await run_problems(jobs, run_id, run) if ask.grouped else []
    rank = {str(p["id"]): n for n, p in enumerate(problems)}
    if ask.grouped:  # a problem missing from the run's (never, by construction) goes last
        listed.sort(key=lambda pair: (rank.get(pair[1].problem or "", len(rank)), pair[1].problem or "", pair[0]))
    window = listed[ask.offset:ask.offset + ask.limit]
    bodies = await in_thread(finding_bodies, jobs.store, [entry.row for _, entry in window])
    found = [{**bodies[entry.row], "id": f"f{number}"} for number, entry in window]
    groups: list[Group] = []
    if ask.grouped:
        counts = Counter(entry.problem for _, entry in listed)
        for (_, entry), finding in zip(window, found, strict=True):
            problem = entry.problem or ""
            if not groups or groups[-1].problem.id != problem:
                groups.append(Group(_summary(problem, problems, rank, found), counts[problem]))
            groups[-1].findings.append(finding)
    return Listing(len(listed), found, groups)


def _read_index(store: Store, run_id: str) -> list[IndexEntry]:
    """The run's index, each finding stored without a problem (a run completed before
    problems existed) given the one :func:`audit.problems.build.problems_of` groups it by."""
    index = finding_index(store, run_id)
    missing = [n for n, entry in enumerate(index) if entry.problem is None]
    for start in range(0, len(missing), MAX_LIMIT):
        chunk = missing[start:start + MAX_LIMIT]
        bodies = finding_bodies(store, [index[n].row for n in chunk])
        for n in chunk:
            item = Finding.model_validate({**bodies[index[n].row], "id": f"f{n + 1}"})
            index[n] = replace(index[n], problem=signature_problem(item))
    return index


def _summary(problem_id: str, problems: Sequence[Mapping[str, Any]], rank: Mapping[str, int],
             window: Sequence[dict[str, Any]]) -> ProblemSummary:
    at = rank.get(problem_id)
    if at is not None:
        problem = Problem.model_validate(problems[at])
    else:  # made from the window's findings of it
        builder = ProblemBuilder(1)
        for data in window:
            item = Finding.model_validate(data)
            if (item.problem or signature_problem(item)) == problem_id:
                builder.add(item, is_finding=True)
        problem, at = builder.problems()[0], len(problems)
    return ProblemSummary.model_validate({**problem.model_dump(include=_SUMMARY), "rank": at})
