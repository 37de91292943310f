"""What a run's result and report add from its stored images and its site's runs: links
to its screenshots (``GET /audits/{id}?include=screenshots``), and the screenshots inline
with the site's trend and what changed since the site's baseline, problem by problem
(``GET /audits/{id}/report?format=html``, and the dashboard's view of a run, which fetches
the images by name instead)."""

from __future__ import annotations

from typing import Any

from audit.models import AuditResult
from audit.problems.changes import ProblemChanges, compare_problems, lacks_problems
from audit.screenshots import ScreenshotIndex
from jobs.blocking import in_thread
from jobs.screenshots import link_screenshots, stored_index
from jobs.store import NotFound
from jobs.store.sites import get_baseline, site_history
from jobs.system import Conflict, Jobs

from .jobs_schema import FINDINGS_PAGE
from .sites_schema import HistoryRun

#: Runs of the site shown in a report's trend (the newest, up to the report's run).
TREND_RUNS = 60
#: The lists of a result that are paginated (each by the same offset and limit).
ITEM_LISTS = ("findings", "needsReview", "bestPractices")


def artifact_base(run_id: str) -> str:
    """Where a run's artifacts are served: ``href`` = this + name."""
    return f"/audits/{run_id}/artifacts/"


async def with_screenshot_links(jobs: Jobs, run_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """``?include=screenshots``: the run's answer with its result's items and pages linked
    to their images (:func:`jobs.screenshots.link_screenshots`)."""
    result = body.get("result")
    if isinstance(result, dict):
        index = await in_thread(stored_index, jobs.store, run_id, with_data=False)
        link_screenshots(result, index, artifact_base(run_id))
    return body


async def report_evidence(jobs: Jobs, run_id: str, *, inline: bool) -> tuple[ScreenshotIndex, list[dict[str, Any]]]:
    """What the HTML report of a run shows besides its result: its screenshots (their bytes
    ``inline``, else by name) and the trend of its site up to it."""
    run = await jobs.get(run_id)
    index = await in_thread(stored_index, jobs.store, run_id, with_data=inline)
    runs = await in_thread(site_history, jobs.store, run.site, limit=TREND_RUNS)
    history = [HistoryRun.of(r).model_dump(mode="json") for r in runs if r.created_at <= run.created_at]
    return index, history


async def whole_result(jobs: Jobs, run_id: str) -> AuditResult:
    """The completed run's whole result (every finding), read window by window."""
    whole = await jobs.result(run_id, offset=0, limit=FINDINGS_PAGE)
    offset = FINDINGS_PAGE
    while any(len(whole[name]) >= offset for name in ITEM_LISTS):
        window = await jobs.result(run_id, offset=offset, limit=FINDINGS_PAGE)
        for name in ITEM_LISTS:
            whole[name].extend(window[name])
        offset += FINDINGS_PAGE
    return AuditResult.model_validate(whole)


async def baseline_changes(jobs: Jobs, run_id: str, result: AuditResult) -> ProblemChanges | None:
    """The run's problems against its site's baseline, for its report's overview; None when
    the site has no baseline, the run is the baseline, or the baseline cannot be compared by
    problem (deleted meanwhile, or stored before problems existed)."""
    run = await jobs.get(run_id)
    baseline = await in_thread(get_baseline, jobs.store, run.site)
    if baseline is None or baseline.run_id == run_id:
        return None
    try:
        earlier = await whole_result(jobs, baseline.run_id)
    except (NotFound, Conflict):
        return None
    return None if lacks_problems(earlier) else compare_problems(result, earlier)
