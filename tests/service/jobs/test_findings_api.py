"""``GET /audits/{id}/findings`` and ``GET /audits/{id}?group=problems`` on the real service,
over runs written straight into its store (no audit needed to list what a run found): windows
in the result's order, filters that keep the whole result's ids, groups under the problems in
their priority order (every finding in exactly one group, windows stable and without gaps),
a run stored before problems existed, typed 400s naming the field, 404 and 409, and answers
valid against the OpenAPI document."""

from __future__ import annotations

import itertools
from collections import Counter

import jsonschema
import pytest
from sqlalchemy import update

from a11y.service.finding_listing import IndexCache
from audit.failures import AuditFailed
from audit.models import AuditRequest, AuditResult, EngineInfo, Finding, PageResult, Stats
from audit.problems.build import build_problems
from jobs.ids import new_run_id
from jobs.store.schema import runs
from jobs.sync_runs import record_sync_run
from tests.service.conftest import assert_error, client_for, service_for

SITE = "https://shop.test"
PAGES = [f"{SITE}/", f"{SITE}/a", f"{SITE}/b"]
# (rule, impact, markup, selector): components repeated on every page, some several times.
PARTS = [
    ("image-alt", "critical", '<img class="logo">', "header > img.logo"),
    ("image-alt", "critical", '<img class="tile">', "main > img.tile"),
    ("link-name", "serious", '<a class="icon">', "nav > a.icon"),
    ("color-contrast", "serious", '<p class="faint">', "main > p.faint"),
    ("label", "critical", '<input class="q">', "form > input.q"),
    ("region", "moderate", '<div class="ad">', "body > div.ad"),
]


def _result(with_problems: bool) -> AuditResult:
    counter = itertools.count(1)
    findings = []
    for page_url in PAGES:
        for n, (rule, impact, html, selector) in enumerate(PARTS):
            for copy in range(1 + (n + PAGES.index(page_url)) % 3):
                findings.append(Finding(
                    id=f"f{next(counter)}", rule_id=rule, description=rule, impact=impact,
                    element=html[1:html.index(" ")], selector=f"{selector}:nth-of-type({copy + 1})",
                    html=html, help="https://example.com/", help_text=f"{rule} help",
                    page_url=page_url, level="A",
                ))
    problems = build_problems(findings, [], len(PAGES)) if with_problems else []
    if not with_problems:
        for finding in findings:
            finding.problem = finding.component = ""
    counts = Counter(f.impact for f in findings)
    return AuditResult(
        url=PAGES[0], wcag_version="2.2", wcag_level="AA", score=50.0, conformant=False,
        stats=Stats(total_pages=len(PAGES), total_findings=len(findings), **counts),
        findings=findings, problems=problems, engine=EngineInfo(version="4.11.4"),
        pages=[PageResult(url=url, status="ok", score=50.0,
                          findings=sum(f.page_url == url for f in findings)) for url in PAGES],
    )


def _seed(svc, result: AuditResult) -> str:
    request = AuditRequest.model_validate({"url": PAGES[0]})
    store = svc.service.jobs.store
    run = record_sync_run(store, request, result)
    if not result.problems:  # as a run stored before problems existed: no problems[] at all
        header = {k: v for k, v in run.result.items() if k != "problems"}
        with store.engine.begin() as conn:
            conn.execute(update(runs).where(runs.c.id == run.id).values(result=header))
    return run.id


@pytest.fixture
async def seeded(chromium):
    async with service_for(chromium) as svc, client_for(svc) as client:
        run = _seed(svc, _result(with_problems=True))
        whole = (await client.get(f"/audits/{run}")).json()["result"]
        yield svc, client, run, whole


async def _all(client, run, **params) -> list[dict]:
    """Every window of the listing, 7 at a time."""
    pages = []
    for offset in itertools.count(0, 7):
        answer = await client.get(f"/audits/{run}/findings", params={**params, "offset": offset, "limit": 7})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["run"] == run and body["findingsPage"]["offset"] == offset
        pages.append(body)
        if offset + 7 >= body["findingsPage"]["total"]:
            return pages


async def test_windows_and_filters_keep_the_result_order_and_ids(seeded):
    _, client, run, whole = seeded
    listed = [f for page in await _all(client, run) for f in page["findings"]]
    assert listed == whole["findings"]
    assert [f["id"] for f in listed] == [f"f{n}" for n in range(1, len(listed) + 1)]
    problem = whole["problems"][2]["id"]
    for params in ({"rule": "image-alt"}, {"impact": "serious"}, {"page": PAGES[1]},
                   {"problem": problem}, {"rule": "label", "page": PAGES[2], "impact": "critical"},
                   {"rule": "no-such-rule"}):
        pages = await _all(client, run, **params)
        expected = [f for f in whole["findings"]
                    if all(f[{"rule": "ruleId", "page": "pageUrl"}.get(k, k)] == v for k, v in params.items())]
        assert [f for p in pages for f in p["findings"]] == expected, params
        assert {p["findingsPage"]["total"] for p in pages} == {len(expected)}


async def test_grouped_by_problem_in_priority_order(seeded):
    _, client, run, whole = seeded
    pages = await _all(client, run, group="problems")
    groups = [g for page in pages for g in page["groups"]]
    # Every finding in exactly one group, under its own problem.
    ids = [f["id"] for g in groups for f in g["findings"]]
    assert sorted(ids) == sorted(f["id"] for f in whole["findings"]) and len(ids) == len(set(ids))
    assert all(f["problem"] == g["problem"]["id"] for g in groups for f in g["findings"])
    # Groups in the problems' order (a group cut by a window goes on at the next one's top).
    order = [g["problem"]["id"] for g in groups]
    joined = [pid for pid, _ in itertools.groupby(order)]
    assert joined == [p["id"] for p in whole["problems"]]
    ranks = [g["problem"]["rank"] for g in groups]
    assert ranks == sorted(ranks) and all(whole["problems"][r]["id"] == pid for r, pid in zip(ranks, order, strict=True))
    counts = Counter(f["problem"] for f in whole["findings"])
    for group in groups:
        assert group["total"] == counts[group["problem"]["id"]]
        numbers = [int(f["id"][1:]) for f in group["findings"]]
        assert numbers == sorted(numbers)
        full = whole["problems"][group["problem"]["rank"]]
        assert {k: full[k] for k in group["problem"] if k != "rank"} == {k: v for k, v in group["problem"].items() if k != "rank"}
    # Stable: the same window twice is the same answer.
    again = await client.get(f"/audits/{run}/findings", params={"group": "problems", "offset": 7, "limit": 7})
    assert again.json() == pages[1]
    # A filter and the grouping together.
    serious = [g for p in await _all(client, run, group="problems", impact="serious") for g in p["groups"]]
    assert {f["impact"] for g in serious for f in g["findings"]} == {"serious"}
    assert sum(len(g["findings"]) for g in serious) == sum(f["impact"] == "serious" for f in whole["findings"])

    # GET /audits/{id}?group=problems: the same window, the groups by id.
    view = (await client.get(f"/audits/{run}", params={"group": "problems", "offset": 7, "limit": 7})).json()
    assert view["result"]["findings"] == [f for g in pages[1]["groups"] for f in g["findings"]]
    assert [(g["problem"], g["total"], g["findingIds"]) for g in view["result"]["findingGroups"]] == [
        (g["problem"], g["total"], [f["id"] for f in g["findings"]]) for g in pages[1]["groups"]]
    plain = (await client.get(f"/audits/{run}", params={"offset": 7, "limit": 7})).json()["result"]
    assert "findingGroups" not in plain and plain["findings"] == whole["findings"][7:14]


async def test_a_run_stored_before_problems_existed_is_grouped_as_its_problems_are_made(chromium):
    async with service_for(chromium) as svc, client_for(svc) as client:
        run = _seed(svc, _result(with_problems=False))
        problems = (await client.get(f"/audits/{run}/problems", params={"limit": 1000})).json()["problems"]
        assert problems
        pages = await _all(client, run, group="problems")
        groups = [g for page in pages for g in page["groups"]]
        assert [pid for pid, _ in itertools.groupby(g["problem"]["id"] for g in groups)] == [p["id"] for p in problems]
        assert sum(len(g["findings"]) for g in groups) == sum(p["instances"] for p in problems)
        one = problems[0]["id"]
        only = [f for p in await _all(client, run, problem=one) for f in p["findings"]]
        assert len(only) == problems[0]["instances"]


async def test_bad_queries_are_refused_naming_the_field(seeded):
    svc, client, run, _ = seeded
    for query, field in (
        ({"limit": "0"}, "limit"), ({"limit": "1001"}, "limit"), ({"limit": "many"}, "limit"),
        ({"offset": "-1"}, "offset"), ({"offset": "2.5"}, "offset"), ({"impact": "huge"}, "impact"),
        ({"group": "rules"}, "group"), ({"problem": "ABC"}, "problem"), ({"rule": ""}, "rule"),
        ({"page": "https://shop.test/\x01"}, "page"), ({"rule": "x" * 201}, "rule"),
    ):
        error = assert_error(await client.get(f"/audits/{run}/findings", params=query), 400, "invalid_request")
        assert [d["field"] for d in error["details"]] == [field], query
    error = assert_error(await client.get(f"/audits/{run}", params={"group": "rules"}), 400, "invalid_request")
    assert [d["field"] for d in error["details"]] == ["group"]
    assert_error(await client.get(f"/audits/{new_run_id()}/findings"), 404, "not_found")
    assert_error(await client.get("/audits/nope/findings"), 404, "not_found")
    request = AuditRequest.model_validate({"url": PAGES[0]})
    failed = record_sync_run(svc.service.jobs.store, request, AuditFailed("navigation_failed", "no"))
    assert_error(await client.get(f"/audits/{failed.id}/findings"), 409, "conflict")
    beyond = (await client.get(f"/audits/{run}/findings", params={"offset": "100000", "group": "problems"})).json()
    assert beyond["groups"] == [] and beyond["findingsPage"]["offset"] == 100000


async def test_the_document_describes_the_answers(seeded):
    _, client, run, _ = seeded
    doc = (await client.get("/openapi.json")).json()
    operation = doc["paths"]["/audits/{id}/findings"]["get"]
    assert set(operation["responses"]) == {"200", "400", "401", "404", "409", "503"}
    assert operation["x-scope"] == "read"
    params = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert set(params) == {"id", "offset", "limit", "rule", "impact", "page", "problem", "group"}
    assert params["limit"]["maximum"] == 1000 and params["group"]["enum"] == ["findings", "problems"]
    group = next(p for p in doc["paths"]["/audits/{id}"]["get"]["parameters"] if p["name"] == "group")
    assert group["schema"]["enum"] == ["findings", "problems"]

    schema = {**operation["responses"]["200"]["content"]["application/json"]["schema"],
              "components": doc["components"]}
    validator = jsonschema.Draft202012Validator(schema)
    for params in ({}, {"group": "problems"}, {"group": "problems", "rule": "image-alt", "limit": "3"}):
        validator.validate((await client.get(f"/audits/{run}/findings", params=params)).json())
    run_view = jsonschema.Draft202012Validator(
        {"$ref": "#/components/schemas/RunView", "components": doc["components"]})
    run_view.validate((await client.get(f"/audits/{run}", params={"group": "problems"})).json())


def test_the_index_cache_keeps_the_runs_listed_last_within_its_entries():
    cache = IndexCache(max_entries=10)
    cache.put("a", [object()] * 4)
    cache.put("b", [object()] * 4)
    assert cache.get("a") is not None  # a is now the newest
    cache.put("c", [object()] * 4)  # 12 entries: the least recently used (b) goes
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("c") is not None
    cache.put("huge", [object()] * 11)  # larger than the whole cache: not kept
    assert cache.get("huge") is None and cache.get("a") is not None
