"""The jobs API end to end on the embedded default (SQLite, in-process queue, the service's
own browser): a 30-page site crawled as a job, followed to the end over Server-Sent Events
(with one reconnect), equal to what ``POST /audit`` answers for the same request, then read
back in windows, as every report format, and in the list of runs."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import trio

from tests.service.conftest import client_for, service_for
from tests.service.jobs.conftest import comparable, crawl_body, read_events, tree_site
from tests.support.sarif import validate_sarif

PAGES = 30


async def test_a_site_crawled_as_a_job_equals_the_synchronous_audit(chromium, site):
    start = tree_site(site, "jobs30", PAGES)
    body = crawl_body(start, PAGES)
    answered = {}

    async def synchronous_audit(client):
        response = await client.post("/audit", json=body, timeout=300)
        assert response.status_code == 200, response.text
        answered["body"] = response.json()

    # Generous page timeouts: the job and /audit share the slots, and a page that times out
    # on a loaded CI machine would be a failed page, not the equality this test is about.
    async with service_for(chromium, audit_timeout=300, navigation_timeout=60) as svc, client_for(svc) as client, \
            trio.open_nursery() as nursery:
        nursery.start_soon(synchronous_audit, client)  # at the same time: the slots are shared
        # No pictures: the compared result has none, and 30 pages of them cost half a minute.
        accepted = await client.post("/audits", json={**body, "screenshots": False})
        assert accepted.status_code == 202, accepted.text
        run = accepted.json()
        run_id = run["id"]
        assert run["status"] == "queued"
        assert run["links"] == {"self": f"/audits/{run_id}", "events": f"/audits/{run_id}/events",
                                "report": f"/audits/{run_id}/report"}
        assert accepted.headers["Location"] == f"/audits/{run_id}"

        # Follow the events, hang up midway, resume after the last id seen.
        first = await read_events(client, run_id, stop_after=25)
        rest = await read_events(client, run_id, last_id=first.events[-1].id)
        followed = first.events + rest.events
        ids = [event.id for event in followed]
        assert ids == sorted(set(ids)), "events repeated or out of order across the reconnect"
        assert followed[0].type == "run.started" and followed[-1].type == "run.done"
        assert followed[-1].data["status"] == "completed"
        # Nothing was lost: a replay from the start is the same sequence.
        replay = await read_events(client, run_id, headers={"Last-Event-ID": "0"})
        assert [(e.id, e.type, e.data) for e in replay.events] == [
            (e.id, e.type, e.data) for e in followed]
        done_urls = [event.data["url"] for event in followed if event.type == "page.done"]
        assert len(done_urls) == PAGES and len(set(done_urls)) == PAGES

        job = (await client.get(f"/audits/{run_id}")).json()
        assert job["status"] == "completed" and job["kind"] == "job"
        assert job["progress"] == {"pagesDone": PAGES, "pagesQueued": 0, "pagesFailed": 0,
                                   "findings": job["result"]["stats"]["totalFindings"]}
        assert job["startedAt"] and job["finishedAt"] and "error" not in job
        result = job["result"]
        assert result["findingsPage"] == {"offset": 0, "limit": 1000,
                                          "total": result["stats"]["totalFindings"]}

        with trio.fail_after(300):
            while "body" not in answered:
                await trio.sleep(0.1)
        expected = answered["body"]
        assert [p["url"] for p in result["pages"]] == [p["url"] for p in expected["pages"]]
        assert result["findings"] == expected["findings"]
        assert comparable(result) == comparable(expected)

        # Findings in windows are the same findings, numbered as in the whole result.
        windowed = []
        for offset in range(0, len(expected["findings"]), 7):
            page = (await client.get(f"/audits/{run_id}", params={"offset": offset, "limit": 7})).json()
            assert page["result"]["findingsPage"]["offset"] == offset
            windowed += page["result"]["findings"]
        assert windowed == expected["findings"]

        await _reports_render_the_stored_run(client, run_id, expected)
        await _the_list_finds_both_runs(client, run_id, start)


async def _reports_render_the_stored_run(client, run_id, expected):
    as_json = await client.get(f"/audits/{run_id}/report", params={"format": "json"})
    assert as_json.headers["content-type"].startswith("application/json")
    assert comparable(as_json.json()) == comparable(expected)
    assert (await client.get(f"/audits/{run_id}/report")).json() == as_json.json()  # json is the default

    sarif = await client.get(f"/audits/{run_id}/report", params={"format": "sarif"})
    assert sarif.headers["content-type"].startswith("application/sarif+json")
    log = json.loads(sarif.text)
    validate_sarif(log)
    assert len(log["runs"][0]["results"]) >= len(expected["findings"])

    junit = await client.get(f"/audits/{run_id}/report", params={"format": "junit"})
    assert junit.headers["content-type"].startswith("application/xml")
    suites = ET.fromstring(junit.content)
    assert suites.tag == "testsuites" and int(suites.get("failures")) > 0

    html = await client.get(f"/audits/{run_id}/report", params={"format": "html"})
    assert html.headers["content-type"].startswith("text/html")
    assert html.text.lstrip().lower().startswith("<!doctype html>")
    assert expected["findings"][0]["ruleId"] in html.text


async def _the_list_finds_both_runs(client, run_id, start):
    runs = (await client.get("/audits")).json()["runs"]
    assert [run["kind"] for run in runs[:2]] == ["sync", "job"], "newest first"
    assert runs[1]["id"] == run_id
    assert all("result" not in run for run in runs)
    by_url = (await client.get("/audits", params={"url": start})).json()["runs"]
    assert {run["kind"] for run in by_url} == {"sync", "job"} and all(r["url"] == start for r in by_url)
    assert (await client.get("/audits", params={"url": start + "?other"})).json() == {"runs": []}
    completed = (await client.get("/audits", params={"status": "completed", "limit": 1})).json()["runs"]
    assert len(completed) == 1 and completed[0]["kind"] == "sync"
    assert (await client.get("/audits", params={"status": "running"})).json() == {"runs": []}
