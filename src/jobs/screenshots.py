"""A run's screenshots (:mod:`audit.screenshots`) in the store and back: written as artifacts
when its pages are recorded, found again by the items of its result.

Every path that stores a run takes them: a job's worker page by page (each page gets what is
left of the run's byte budget, counted from what its pages stored before; pages audited at
the same time can each use that rest, so the budget may be overshot by what they take), and
``POST /audit`` with its result. No URL in an artifact's description keeps a
``user:password@``: the pages of a site the request gave credentials for are loaded with
them and stored without, as their findings are.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from audit.models import AuditResult
from audit.screenshots import PageShots, RunScreenshots, ScreenshotIndex, ScreenshotPolicy
from audit.urls import scrub_credentials

from .store import Store
from .store.artifacts import artifact_spending, list_artifacts, put_artifacts

#: The lists of a result whose items may have a screenshot, and the kind each one's is.
_ITEM_KINDS = (("findings", "finding"), ("needsReview", "review"))


def page_budget(store: Store, run_id: str, policy: ScreenshotPolicy | None) -> RunScreenshots | None:
    """Where one page of a job puts its screenshots (None: screenshots are off): the run's
    budget less what its pages have stored already, and its problems' shots so far, so that
    a problem on every page is shot as many times in the run as a report shows, not on each
    page."""
    if policy is None:
        return None
    spent, metas = artifact_spending(store, run_id, "shot-")
    problems = Counter(str(meta["problem"]) for meta in metas if meta.get("problem"))
    return RunScreenshots(policy, spent=spent, problem_shots=problems)


def keep_page_shots(store: Store, run_id: str, seq: int, shots: PageShots | None) -> int:
    """Store one page's images (the page numbered ``seq`` in its run); how many."""
    if shots is None:
        return 0
    rows = [(name, media_type, data, scrub_credentials(meta))
            for name, media_type, data, meta in shots.artifacts(seq)]
    return put_artifacts(store, run_id, rows)


def keep_result_shots(store: Store, run_id: str, result: AuditResult, shots: RunScreenshots | None) -> int:
    """Store the images of a whole audit, its pages numbered as in ``result.pages``."""
    if shots is None:
        return 0
    return sum(keep_page_shots(store, run_id, seq, shots.pages.get(page.url))
               for seq, page in enumerate(result.pages))


def stored_index(store: Store, run_id: str, *, with_data: bool) -> ScreenshotIndex:
    """The run's images by the items and pages they show; inline with their bytes only
    ``with_data`` (a self-contained report), else by name."""
    stored = list_artifacts(store, run_id, with_data=with_data)
    return ScreenshotIndex.of_artifacts((a.name, a.media_type, a.meta, a.data) for a in stored)


def link_screenshots(result: dict[str, Any], index: ScreenshotIndex, base: str) -> dict[str, Any]:
    """``?include=screenshots``: each finding and needs-review item of ``result`` (JSON) that
    has a shot gets ``screenshot``, each page with a thumbnail ``thumbnail``, as
    ``{name, href, mediaType, width, height}`` (``href``: ``base`` + the name)."""
    for list_name, kind in _ITEM_KINDS:
        for item in result.get(list_name) or []:
            key = (kind, str(item.get("pageUrl", "")), str(item.get("ruleId", "")),
                   str(item.get("selector", "")), str(item.get("viewport") or ""))
            image = index.items.get(key)
            if image is not None:
                item["screenshot"] = _link(image.name, image.media_type, image.width, image.height, base)
    for page in result.get("pages") or []:
        image = index.for_page(str(page.get("url", "")))
        if image is not None:
            page["thumbnail"] = _link(image.name, image.media_type, image.width, image.height, base)
    return result


def _link(name: str, media_type: str, width: int, height: int, base: str) -> dict[str, Any]:
    return {"name": name, "href": f"{base}{name}", "mediaType": media_type, "width": width,
            "height": height}
