"""What a job's page may still shoot (:func:`jobs.screenshots.page_budget`): the run's byte
budget less what its pages stored, and each problem's shots so far, read from the store that
every worker writes to, so a problem on every page of a crawl is shot as many times in the
run as a report shows, not once a page."""

from __future__ import annotations

from audit.screenshots import ScreenshotPolicy
from jobs.screenshots import page_budget
from jobs.store.artifacts import NewArtifact, put_artifacts

from .helpers import running_run

JPEG = b"\xff\xd8\xff\xd9"


def _shot(name: str, problem: str | None) -> NewArtifact:
    meta = {"kind": "finding", "ruleId": "target-size", "selector": "a"}
    if problem:
        meta["problem"] = problem
    return NewArtifact(name, "image/jpeg", JPEG, meta)


def test_a_page_starts_from_the_runs_problem_shots_and_bytes(store):
    run_id = running_run(store)
    other = running_run(store)
    assert page_budget(store, run_id, None) is None  # screenshots off
    fresh = page_budget(store, run_id, ScreenshotPolicy())
    assert fresh is not None and fresh.spent == 0 and not fresh.problem_shots

    put_artifacts(store, run_id, [
        NewArtifact("thumb-0.jpg", "image/jpeg", JPEG, {"kind": "thumbnail", "problem": "ignored"}),
        _shot("shot-0-1.jpg", "p1"), _shot("shot-1-1.jpg", "p1"), _shot("shot-1-2.jpg", "p2"),
        _shot("shot-2-1.jpg", None),  # a state shot of an item without a problem
    ])
    put_artifacts(store, other, [_shot("shot-0-1.jpg", "p2")])  # another run's shots are its own
    budget = page_budget(store, run_id, ScreenshotPolicy(per_problem=2))
    assert budget is not None
    assert budget.spent == 5 * len(JPEG)
    assert dict(budget.problem_shots) == {"p1": 2, "p2": 1}
    assert budget.remaining == ScreenshotPolicy().max_bytes - 5 * len(JPEG)
