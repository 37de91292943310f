"""A job's crawl never waits for a level to finish (issue #23, item 4), on a real Chromium
with the in-process system: while a page of depth 1 is still audited, the pages of depth 2
its links (and those of the pages after it) lead to are admitted, audited and recorded;
the pages and their order are still exactly the level-by-level crawl's, with ``maxPages``
cutting inside depth 2 and a page of depth 1 redirected to a URL another one links to.

The slow page is a real page whose axe pass is held (the test hook below) until a page of
depth 2 is done, or for ``HOLD`` seconds: that makes the order the test checks a matter of
cause, not of timing. A page made slow by its size would need tens of seconds of axe on a
loaded machine to be reliably slower than the pages around it.
"""

from __future__ import annotations

import trio

import audit.engine as engine
from audit.axe import PartialRunner
from tests.support.site import Response

from .support import job, local_jobs, page_body

#: A bound against a regression only: with the crawl waiting for whole levels, the held
#: page would be let go after this, and the order checked below would be wrong.
HOLD = 30.0
NAME = "jobs-pipeline"


def pipeline_site(site) -> dict[str, str]:
    """/0 → /1 (slow), /2, /3; /1 → /4, /5; /2 → /x, /6, /7; /3 redirects to /x (so /x is
    seen when depth 2 is decided), whose document links to /8, /9; the rest lead home."""
    links = {0: [1, 2, 3], 1: [4, 5], 2: ["x", 6, 7], "x": [8, 9]}
    for n in [0, 1, 2, "x", 4, 5, 6, 7, 8, 9]:
        body = page_body(NAME, 1 if n == 1 else 2, [f"/{NAME}/{m}" for m in links.get(n, [0])])
        site.route(f"/{NAME}/{n}", Response(body))
    site.route(f"/{NAME}/3", Response(status=302, headers={"Location": f"/{NAME}/x"}))
    return {str(n): site.url(f"/{NAME}/{n}") for n in [0, 1, 2, 3, "x", 4, 5, 6, 7, 8, 9]}


async def test_depth_two_is_audited_while_a_slow_page_of_depth_one_still_is(site, chromium, tmp_path, monkeypatch):
    urls = pipeline_site(site)
    release, holds = trio.Event(), []

    class HeldRunner(PartialRunner):
        """axe on the slow page waits until a page of depth 2 is done."""

        async def run(self):
            if await self.page.url() == urls["1"]:
                with trio.move_on_after(HOLD):
                    await release.wait()
                holds.append(release.is_set())
            return await super().run()

    monkeypatch.setattr(engine, "PartialRunner", HeldRunner)
    depth_two = {urls[n] for n in "456789"}
    async with local_jobs(str(tmp_path / "data"), chromium.ws_url, workers=4) as jobs:
        run = await jobs.submit(job(urls["0"], depth=3, maxPages=8))
        events, last_id = [], 0
        with trio.fail_after(HOLD + 60):
            while not (await jobs.get(run.id)).finished:
                await jobs.wait_for_event(run.id, last_id, 1.0)
                events += await jobs.events_after(run.id, last_id, limit=1000)
                last_id = events[-1].id if events else last_id
                if any(e.type == "page.done" and e.data["url"] in depth_two for e in events):
                    release.set()
        events += await jobs.events_after(run.id, last_id, limit=1000)
        done = await jobs.get(run.id)
        result = await jobs.result(run.id)

    assert done.status == "completed", done.error
    assert holds == [True], "the slow page was held, and let go because a page of depth 2 was done"
    assert [p["url"] for p in result["pages"]] == [urls[n] for n in "01234567"]
    assert all(p["status"] == "ok" for p in result["pages"])
    order = [(e.type, e.data.get("url")) for e in events]
    slow_done = order.index(("page.done", urls["1"]))
    assert order.index(("page.started", urls["4"])) < slow_done, "the slow page's own links went ahead"
    assert order.index(("page.started", urls["6"])) < slow_done, "so did the links of the pages after it"
