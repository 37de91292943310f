"""The dashboard shows only what its token allows, in the project's own Chromium: a ``read``
token gets no form to start audits and no baseline button, ``submit`` gets the form but not
the button, an ``admin`` token limited to one site gets both and only that site's runs."""

from __future__ import annotations

import json

from jobs.store import open_store
from jobs.store.tokens import create_token
from tests.service.conftest import service_for
from tests.service.test_dashboard import open_run, wait_for
from tests.support.seeded_runs import completed_run

SITE_A, SITE_B = "http://shop-a.test", "http://shop-b.test"

RUN_IDS = "Array.from(document.querySelectorAll('#runs tbody tr'), r => r.dataset.run).sort()"
HIDDEN = "[document.getElementById('start-panel').hidden, document.getElementById('baseline-controls').hidden]"


async def test_each_token_sees_the_controls_and_runs_it_may_use(chromium, browser, tmp_path):
    with open_store(tmp_path) as store:
        runs = {site: completed_run(store, f"{site}/").id for site in (SITE_A, SITE_B)}
        tokens = {
            "read": create_token(store, "viewer", "read")[1],
            "submit": create_token(store, "ci", "submit")[1],
            "admin-a": create_token(store, "shop-a-admin", "admin", [SITE_A])[1],
        }
    async with service_for(chromium, data_dir=str(tmp_path), workers=0) as svc, \
            browser.context() as ctx, ctx.page() as page:
        # The read token, entered in the form the page shows when the API asks for one.
        await page.navigate(svc.url + "/", wait_until="load")
        await wait_for(page, "!document.getElementById('token-panel').hidden")
        assert await page.evaluate(HIDDEN) == [True, True]  # nothing offered before the answer
        await page.evaluate(f"document.getElementById('token').value = {json.dumps(tokens['read'])};"
                            "document.querySelector('#token-form button').click()")
        await wait_for(page, "document.getElementById('runs-status').textContent === '2 runs.'")
        assert await page.evaluate(RUN_IDS) == sorted(runs.values())
        await open_run(page, runs[SITE_A])
        assert await page.evaluate(HIDDEN) == [True, True]

        for who, controls, shown in (("submit", [False, True], [SITE_A, SITE_B]),
                                     ("admin-a", [False, False], [SITE_A])):
            await page.evaluate(f"sessionStorage.setItem('a11y.token', {json.dumps(tokens[who])})")
            await page.navigate(svc.url + "/", wait_until="load")
            await wait_for(page, f"document.getElementById('runs-status').textContent === '{len(shown)} runs.'")
            assert await page.evaluate(RUN_IDS) == sorted(runs[site] for site in shown), who
            await open_run(page, runs[SITE_A])
            assert await page.evaluate(HIDDEN) == controls, who
