"""What changed between two runs: their items matched by fingerprint (:mod:`audit.fingerprints`).

An item of the current run whose fingerprint the baseline has is ``unchanged``, one it lacks
is ``new``, and a baseline item the current run no longer has is ``fixed``. Fingerprints are
matched as a multiset, so two items with one fingerprint (never made by one run, but
possible between runs of different versions) pair off one to one. An item stored before
fingerprints existed is given its selector-free one. Works on result models and on their
JSON alike; pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .fingerprints import selector_free_fingerprint
from .rules import IMPACT_RANK

T = TypeVar("T")
STATES = ("new", "fixed", "unchanged")


def fingerprint_of(item: Any) -> str:
    """The item's fingerprint (a model or its JSON); the selector-free one when it has none."""
    if isinstance(item, Mapping):
        fields = (item.get("ruleId"), item.get("pageUrl"), item.get("element"), item.get("html"))
        given = item.get("fingerprint")
    else:
        fields = (item.rule_id, item.page_url, item.element, item.html)
        given = getattr(item, "fingerprint", "")
    if given:
        return str(given)
    return selector_free_fingerprint(*(str(value or "") for value in fields))


def impact_of(item: Any) -> str:
    return str(item.get("impact") if isinstance(item, Mapping) else item.impact)


@dataclass(frozen=True)
class Diff(Generic[T]):
    """The items of two runs by state: ``new`` and ``unchanged`` as the current run has
    them, ``fixed`` as the baseline had them; each in its run's order."""

    new: list[T]
    fixed: list[T]
    unchanged: list[T]

    def counts(self) -> dict[str, int]:
        return {state: len(getattr(self, state)) for state in STATES}

    def new_at_or_above(self, impact: str) -> list[T]:
        """The new items of at least ``impact`` (critical > serious > moderate > minor)."""
        threshold = IMPACT_RANK[impact]
        return [item for item in self.new if IMPACT_RANK.get(impact_of(item), 0) >= threshold]


def diff_items(current: Sequence[T], baseline: Sequence[T]) -> Diff[T]:
    """``current`` against ``baseline`` by fingerprint (see the module docstring)."""
    unmatched = Counter(fingerprint_of(item) for item in baseline)
    new: list[T] = []
    unchanged: list[T] = []
    for item in current:
        key = fingerprint_of(item)
        if unmatched[key] > 0:
            unmatched[key] -= 1
            unchanged.append(item)
        else:
            new.append(item)
    still_there = Counter(fingerprint_of(item) for item in current)
    fixed: list[T] = []
    for item in baseline:
        key = fingerprint_of(item)
        if still_there[key] > 0:
            still_there[key] -= 1
        else:
            fixed.append(item)
    return Diff(new, fixed, unchanged)
