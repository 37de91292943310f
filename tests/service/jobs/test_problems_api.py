"""``GET /audits/{id}/problems`` end to end on the real service: a generated site whose
pages share components, crawled as a job; its problems in windows (the same list as the
result's, in order), as issues, as CSV; typed errors; the answer valid against the OpenAPI
document; and the reports grouped by problem. (That ``POST /audit`` answers the same
problems as a job is test_site_crawl's equality of the whole results.)"""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import jsonschema

from audit.problems.issues import CSV_COLUMNS
from jobs.ids import new_run_id
from tests.service.conftest import assert_error, client_for, service_for
from tests.service.jobs.conftest import wait_for_status
from tests.support.problem_site import ProblemSite
from tests.support.sarif import validate_sarif
from tests.support.site import refused_url


async def test_problems_of_a_crawled_site_in_windows_as_issues_and_csv(chromium, site):
    generated = ProblemSite(site, pages=3)  # screenshots cost more than the audits
    body = {
        "url": generated.urls[0],
        "crawl": {"enabled": True, "depth": 1, "maxPages": generated.pages},
        "checks": {"interaction": False},  # the static pass is what groups
    }
    async with (
        service_for(chromium, audit_timeout=120, navigation_timeout=30) as svc,
        client_for(svc) as client,
    ):
        accepted = await client.post("/audits", json=body)
        assert accepted.status_code == 202, accepted.text
        run_id = accepted.json()["id"]
        run = await wait_for_status(client, run_id, {"completed", "failed"}, timeout=120)
        assert run["status"] == "completed", run
        result = run["result"]
        problems = result["problems"]
        assert len(problems) >= len(generated.expected)
        items = result["findings"] + result["needsReview"]
        assert sum(p["instances"] for p in problems) == len(items)
        assert {item["problem"] for item in items} == {p["id"] for p in problems}

        windowed = []
        for offset in range(0, len(problems), 3):
            answer = await client.get(
                f"/audits/{run_id}/problems", params={"offset": offset, "limit": 3}
            )
            assert answer.status_code == 200, answer.text
            page = answer.json()
            assert page["run"] == run_id
            assert page["problemsPage"] == {"offset": offset, "limit": 3, "total": len(problems)}
            windowed += page["problems"]
        assert [p["id"] for p in windowed] == [p["id"] for p in problems]
        for listed, issue in zip(problems, windowed, strict=True):
            assert {k: v for k, v in issue.items() if k != "issue"} == _without_links(issue, listed)
            assert issue["issue"]["title"].startswith(f"[{listed['impact']}]")
            assert listed["fixLocation"] in issue["issue"]["body"]
        shot = [i["screenshot"] for p in windowed for i in p["examples"] if i.get("screenshot")]
        assert shot and all(link.startswith(f"/audits/{run_id}/artifacts/") for link in shot)
        fetched = await client.get(shot[0])
        assert fetched.status_code == 200 and fetched.headers["content-type"].startswith("image/")

        as_csv = await client.get(f"/audits/{run_id}/problems", params={"format": "csv"})
        assert as_csv.headers["content-type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(as_csv.text)))
        assert tuple(rows[0]) == CSV_COLUMNS
        assert [row[0] for row in rows[1:]] == [p["id"] for p in problems]

        await _errors_are_typed(client, run_id)
        await _the_document_describes_the_answers(client, run_id)
        await _reports_group_by_problem(client, run_id, problems)


def _without_links(issue: dict, listed: dict) -> dict:
    """``listed`` (the result's problem) with the screenshot links the answer added."""
    merged = json.loads(json.dumps(listed))
    for name in ("representative",):
        if "screenshot" in issue[name]:
            merged[name]["screenshot"] = issue[name]["screenshot"]
    for mine, theirs in zip(merged["examples"], issue["examples"], strict=True):
        if "screenshot" in theirs:
            mine["screenshot"] = theirs["screenshot"]
    return merged


async def _errors_are_typed(client, run_id):
    for query, field in (
        ({"limit": "0"}, "limit"),
        ({"limit": "1001"}, "limit"),
        ({"offset": "-1"}, "offset"),
        ({"format": "xml"}, "format"),
        ({"limit": "many"}, "limit"),
    ):
        error = assert_error(
            await client.get(f"/audits/{run_id}/problems", params=query), 400, "invalid_request"
        )
        assert [d["field"] for d in error["details"]] == [field]
    assert_error(await client.get(f"/audits/{new_run_id()}/problems"), 404, "not_found")
    assert_error(await client.get("/audits/nope/problems"), 404, "not_found")
    failed = await client.post("/audits", json={"url": refused_url()})
    failed_id = failed.json()["id"]
    await wait_for_status(client, failed_id, {"failed"})
    assert_error(await client.get(f"/audits/{failed_id}/problems"), 409, "conflict")
    beyond = await client.get(f"/audits/{run_id}/problems", params={"offset": "10000"})
    assert beyond.json()["problems"] == [] and beyond.json()["problemsPage"]["offset"] == 10000


async def _the_document_describes_the_answers(client, run_id):
    doc = (await client.get("/openapi.json")).json()
    operation = doc["paths"]["/audits/{id}/problems"]["get"]
    assert set(operation["responses"]) == {"200", "400", "401", "404", "409", "503"}
    assert {p["name"] for p in operation["parameters"]} == {"id", "offset", "limit", "format"}
    report = doc["paths"]["/audits/{id}/report"]["get"]["parameters"]
    assert next(p for p in report if p["name"] == "group")["schema"]["enum"] == [
        "findings",
        "problems",
    ]

    def validator(name):
        return jsonschema.Draft202012Validator(
            {"$ref": f"#/components/schemas/{name}", "components": doc["components"]}
        )

    validator("ProblemsAnswer").validate((await client.get(f"/audits/{run_id}/problems")).json())
    validator("RunView").validate((await client.get(f"/audits/{run_id}")).json())


async def _reports_group_by_problem(client, run_id, problems):
    sarif = await client.get(
        f"/audits/{run_id}/report", params={"format": "sarif", "group": "problems"}
    )
    log = json.loads(sarif.text)
    validate_sarif(log)
    assert [r["partialFingerprints"]["a11yProblem/v1"] for r in log["runs"][0]["results"]] == [
        p["id"] for p in problems
    ]
    junit = await client.get(
        f"/audits/{run_id}/report", params={"format": "junit", "group": "problems"}
    )
    suite = ET.fromstring(junit.content).find("testsuite")
    assert suite.get("name") == "problems" and int(suite.get("tests")) == len(problems)
    error = assert_error(
        await client.get(f"/audits/{run_id}/report", params={"group": "rules"}),
        400,
        "invalid_request",
    )
    assert error["details"][0]["field"] == "group"
