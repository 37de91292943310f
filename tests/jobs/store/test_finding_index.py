"""A run's findings as a light index (:mod:`jobs.store.finding_index`), on SQLite and
PostgreSQL: in the result's order (so each entry's place is its number in the result) with
rule, impact, page and problem, needs-review items never in it, a finding stored without a
problem saying so, and the bodies of any rows read back."""

from __future__ import annotations

import itertools

import pytest

from jobs.store import FindingRecord
from jobs.store.finding_index import IndexEntry, finding_bodies, finding_index
from tests.jobs.store.helpers import page_result, running_run, site_pages

RULES = ("image-alt", "label", "color-contrast")
IMPACTS = ("critical", "serious", "minor")


def _seed(store) -> tuple[str, list[dict]]:
    """Three pages, their findings cycling through rules, impacts and problems (every
    seventh without one), a needs-review item between them; the findings in result order."""
    run_id = running_run(store, 3)
    pages = site_pages(3)
    counter = itertools.count()
    for page in reversed(pages):  # recorded out of order: the result's order is the pages' seq
        records = []
        for _ in range(5):
            k = next(counter)
            data = {"ruleId": RULES[k % 3], "impact": IMPACTS[k % 3], "pageUrl": page.url, "k": k}
            if k % 7:
                data["problem"] = f"{k % 4:016x}"
            records.append(FindingRecord("finding", data))
            records.append(FindingRecord("review", {"ruleId": "label", "impact": "serious", "pageUrl": page.url}))
        store.record_page(run_id, page.url_key, "ok", page_result(page.url), records)
    return run_id, [row.data for row in store.findings(run_id, "finding", limit=100)]


def test_the_index_is_the_result_order_without_bodies(store):
    run_id, whole = _seed(store)
    assert [d["pageUrl"] for d in whole] == sorted(d["pageUrl"] for d in whole)
    index = finding_index(store, run_id)
    assert [(e.rule, e.impact, e.page, e.problem) for e in index] == [
        (d["ruleId"], d["impact"], d["pageUrl"], d.get("problem")) for d in whole]
    assert all(isinstance(e, IndexEntry) for e in index)
    bodies = finding_bodies(store, [e.row for e in index])
    assert [bodies[e.row] for e in index] == whole
    assert finding_index(store, running_run(store)) == []


def test_bodies_are_read_a_window_at_a_time(store):
    run_id, _ = _seed(store)
    assert finding_bodies(store, []) == {}
    with pytest.raises(ValueError):
        finding_bodies(store, list(range(1001)))
