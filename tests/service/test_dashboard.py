"""The dashboard at ``/``, driven like a person would in the project's own Chromium: start an
audit with the form, watch the run appear and finish, see a finding's screenshot, make the
run the site's baseline, audit the changed site and read the new finding in the diff; then
the dashboard itself audited by the engine (zero findings at WCAG 2.2 AA). And the token:
asked once, kept for the tab, never needed for the page itself."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import trio

from audit.engine import EngineLimits, run_audit
from tests.audit.support import make_request
from tests.service.conftest import PIXEL, client_for, service_for
from tests.support.site import Response

STEP_TIMEOUT = 60


async def wait_for(page, expression: str, timeout: float = STEP_TIMEOUT) -> Any:
    """The value of ``expression`` in the page once it is truthy."""
    with trio.fail_after(timeout):
        while True:
            value = await page.evaluate(expression)
            if value:
                return value
            await trio.sleep(0.1)


async def submit_audit(page, url: str) -> None:
    await page.evaluate(f"document.getElementById('start-url').value = {json.dumps(url)}")
    await page.evaluate("document.querySelector('#start-form button[type=submit]').click()")


def row_of(url: str) -> str:
    """The runs table's rows of ``url``, newest first, as [id, status, progress text]."""
    return (
        "Array.from(document.querySelectorAll('#runs tbody tr'))"
        f".filter(r => r.cells[1].textContent === {json.dumps(url)})"
        ".map(r => [r.dataset.run, r.dataset.status, r.querySelector('.progress-text').textContent,"
        " r.querySelector('progress').value, r.querySelector('progress').max])"
    )


def site_page(extra: str = "") -> Response:
    return Response(
        "<!doctype html><html lang=en><title>Shop</title><main><h1>Shop</h1>"
        f'<img src="{PIXEL}" width=40 height=40 style="background:#c00;position:absolute;left:100px;top:200px">{extra}</main></html>'
    )


async def run_to_completion(page, url: str, known: set[str]) -> str:
    """Submit ``url`` with the form; the id of the new run once its row shows it done."""
    await submit_audit(page, url)
    with trio.fail_after(STEP_TIMEOUT):
        while True:
            rows = await page.evaluate(row_of(url))
            fresh = [row for row in rows if row[0] not in known]
            if fresh and fresh[0][1] == "completed":
                run_id, _status, progress, value, maximum = fresh[0]
                assert progress == "1 of 1 pages" and value == maximum == 1
                return run_id
            await trio.sleep(0.1)


async def open_run(page, run_id: str) -> None:
    await page.evaluate(f"document.querySelector('#runs tr[data-run=\"{run_id}\"] button.view-run').click()")
    await wait_for(page, f"document.getElementById('run').dataset.run === '{run_id}' && "
                         "!!document.querySelector('#run-report .a11y-report')")


async def test_audit_from_the_dashboard_with_evidence_and_diff(chromium, browser, site):
    url = site.route("/dash/", site_page())
    async with service_for(chromium) as svc, browser.context() as ctx, ctx.page() as page:
        await page.navigate(svc.url + "/", wait_until="load")
        await wait_for(page, "document.getElementById('runs-status').textContent.endsWith('.')")
        assert await page.evaluate("document.getElementById('token-panel').hidden")  # no token here

        first = await run_to_completion(page, url, set())
        await open_run(page, first)
        # The finding's screenshot, fetched from the artifacts endpoint, is an image.
        shot = await wait_for(page, "(() => { const i = document.querySelector('#run-report img.shot-img');"
                                    " return i && i.complete && i.naturalWidth > 0 &&"
                                    " [i.naturalWidth, i.naturalHeight, i.src.slice(0, 5)]; })()")
        assert shot == [40 + 32, 40 + 32, "blob:"]
        # Images are fetched one by one: the page's thumbnail may still be on its way.
        assert await wait_for(page, "(() => { const i = document.querySelector('#run-report img.thumb');"
                                    " return i && i.complete && i.naturalWidth; })()") == 320
        assert "image-alt" in await page.evaluate("document.querySelector('#run-report .groups').textContent")
        await wait_for(page, "document.getElementById('diff').textContent.includes('no baseline')")

        await page.evaluate("document.getElementById('set-baseline').click()")
        await wait_for(page, "document.getElementById('diff').textContent.includes('0 new, 0 fixed, 1 unchanged')")

        site.route("/dash/", site_page('<button style="width:60px;height:30px"></button>'))
        second = await run_to_completion(page, url, {first})
        await open_run(page, second)
        diff = await wait_for(page, "(() => { const d = document.getElementById('diff').textContent;"
                                    " return d.includes('Against the baseline') && d; })()")
        assert "1 new, 0 fixed, 1 unchanged" in diff and f"baseline run {first}" in diff
        new = await page.evaluate("Array.from(document.querySelectorAll('#diff li'), li => li.textContent)")
        assert len(new) == 1 and new[0].startswith("button-name (critical): button on ")
        # The site's trend is part of the run's report: both runs, this one marked.
        trend = await page.evaluate("document.querySelector('#run-report .report-trend').textContent")
        assert first in trend and f"{second} (this report)" in trend
        # The report leads with problems, their overview saying what changed since the baseline,
        # under a heading naming the site and the time rather than the run's id.
        report = await page.evaluate("document.getElementById('run-report').textContent")
        assert "Since the baseline: 1 new, 0 spread to more pages, 0 fixed, 1 unchanged." in report
        assert report.index("Problems") < report.index("Trend of this site")
        heading = await page.evaluate("document.getElementById('run-h').textContent")
        assert heading.startswith(f"{urlsplit(url).netloc}, ") and second not in heading

        # The dashboard as a person leaves it (the run, its report, the diff) has nothing axe-core
        # finds at WCAG 2.2 AA: audited by the engine at the run's own link.
        audited = await run_audit(browser, make_request(f"{svc.url}/#run={second}"),
                                  EngineLimits(navigation_timeout=15, audit_timeout=60))
        assert [(f.rule_id, f.selector) for f in audited.findings] == [], [f.failure_summary for f in audited.findings]
        assert audited.pages[0].status == "ok"


async def test_the_page_loads_without_the_token_and_asks_for_it_once(chromium, browser):
    token = "dash-s3cret"
    async with service_for(chromium, token=token) as svc, client_for(svc) as client:
        for path in ("/", "/static/dashboard.js", "/static/dashboard.css", "/static/report.js",
                     "/static/report.css"):
            response = await client.get(path)
            assert response.status_code == 200, path
            assert token not in response.text
        shell = await client.get("/")
        assert shell.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in shell.headers["Content-Security-Policy"]
        assert (await client.get("/static/../handlers.py")).status_code == 404
        assert (await client.get("/static/app.py")).status_code == 404
        for path in ("/audits", f"/dashboard/audits/{'0' * 26}/report", f"/audits/{'0' * 26}/artifacts/thumb-0.jpg"):
            assert (await client.get(path)).status_code == 401, path

        async with browser.context() as ctx, ctx.page() as page:
            await page.navigate(svc.url + "/", wait_until="load")
            await wait_for(page, "!document.getElementById('token-panel').hidden")
            assert await page.evaluate("document.activeElement.id") == "token"
            await page.evaluate(f"document.getElementById('token').value = {json.dumps(token)};"
                                "document.querySelector('#token-form button').click()")
            await wait_for(page, "document.getElementById('runs-status').textContent === 'No runs yet.'")
            assert await page.evaluate("sessionStorage.getItem('a11y.token')") == token
            await page.navigate(svc.url + "/", wait_until="load")  # the same tab: asked once
            await wait_for(page, "document.getElementById('runs-status').textContent === 'No runs yet.'")
            assert await page.evaluate("document.getElementById('token-panel').hidden")
