"""What a run's result and report add from its stored images and its site's runs: links
to its screenshots (``GET /audits/{id}?include=screenshots``), and the screenshots inline
with the site's trend (``GET /audits/{id}/report?format=html``, and the dashboard's view of
a run, which fetches the images by name instead)."""

from __future__ import annotations

from typing import Any

from audit.screenshots import ScreenshotIndex
from jobs.blocking import in_thread
from jobs.screenshots import link_screenshots, stored_index
from jobs.store.sites import site_history
from jobs.system import Jobs

from .sites_schema import HistoryRun

#: Runs of the site shown in a report's trend (the newest, up to the report's run).
TREND_RUNS = 60


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
