"""The jobs API's contract beyond the happy path: typed 4xx errors for bad ids, bodies and
query strings; the token on every route; the OpenAPI document; cancelling; the event
stream's heartbeat and its end when the client goes away; and ``POST /audit`` kept as a run."""

from __future__ import annotations

import logging
import sqlite3

import jsonschema
import trio

from jobs.ids import new_run_id
from tests.service.conftest import CLEAN, assert_error, client_for, service_for
from tests.service.jobs.conftest import crawl_body, read_events, tree_site, wait_for_status
from tests.support.site import Response, refused_url

UNKNOWN = new_run_id()


async def _held_run(client, site, gate, name: str, pages: int):
    """A job whose start page is audited and whose other pages are held by ``gate``."""
    held = gate(limit=60)
    start = tree_site(site, name, pages, handler=lambda n, body: Response(body) if n == 0 else _held(held, body))
    accepted = await client.post("/audits", json=crawl_body(start, pages))
    assert accepted.status_code == 202, accepted.text
    with trio.fail_after(60):
        while not held.entered.is_set():
            await trio.sleep(0.02)
    return accepted.json()["id"], held, start


def _held(held, body):
    def respond(request):
        held(request)
        return Response(body)
    return respond


async def test_bad_ids_bad_bodies_and_bad_queries_are_typed_errors(chromium, site):
    async with service_for(chromium) as svc, client_for(svc) as client:
        for path in (f"/audits/{UNKNOWN}", "/audits/not-an-id", f"/audits/{UNKNOWN.upper()}",
                     f"/audits/{UNKNOWN}x", f"/audits/{UNKNOWN}/events", f"/audits/{UNKNOWN}/report",
                     "/audits/%00/events", "/audits/" + "9" * 400):
            error = assert_error(await client.get(path), 404, "not_found")
            assert "9" * 100 not in error["message"]  # a bad id is not echoed back
        assert_error(await client.delete(f"/audits/{UNKNOWN}"), 404, "not_found")
        assert_error(await client.delete("/audits/nope"), 404, "not_found")
        assert_error(await client.put(f"/audits/{UNKNOWN}"), 405, "method_not_allowed")

        post = client.post
        assert_error(await post("/audits", content=b"{", headers={"Content-Type": "application/json"}),
                     400, "invalid_json")
        assert_error(await post("/audits", content=b"{}", headers={"Content-Type": "text/plain"}),
                     400, "unsupported_media_type")
        assert_error(await post("/audits", content=b"[" * 5000, headers={"Content-Type": "application/json"}),
                     400, "invalid_json")
        assert_error(await post("/audits", json={"url": "x" * 70_000}), 400, "payload_too_large")
        url = site.url("/jobs-api/any")
        cases = {
            "url": {},
            "crawl.maxPages": {"url": url, "crawl": {"maxPages": 100_001}},
            "crawl.depth": {"url": url, "crawl": {"depth": 4.5}},
            "crawl.urls[0]": {"url": url, "crawl": {"urls": ["http://elsewhere.test/"]}},
            "crawl.perOrigin": {"url": url, "crawl": {"perOrigin": 0}},
            "llm.enabled": {"url": url, "llm": {"enabled": True}},
            "nope": {"url": url, "nope": 1},
        }
        for field, body in cases.items():
            error = assert_error(await post("/audits", json=body), 400, "invalid_request")
            assert field in [d["field"] for d in error["details"]], (field, error)

        for query, field in (({"status": "done"}, "status"), ({"limit": "0"}, "limit"),
                             ({"limit": "201"}, "limit"), ({"limit": "ten"}, "limit"),
                             ({"limit": "1.5"}, "limit")):
            error = assert_error(await client.get("/audits", params=query), 400, "invalid_request")
            assert [d["field"] for d in error["details"]] == [field]
        assert (await client.get("/audits", params={"unknown": "ignored"})).status_code == 200
        for query, field in (({"offset": "-1"}, "offset"), ({"limit": "1001"}, "limit"),
                             ({"offset": str(2**63)}, "offset")):
            error = assert_error(await client.get(f"/audits/{UNKNOWN}", params=query), 400, "invalid_request")
            assert [d["field"] for d in error["details"]] == [field]
        error = assert_error(await client.get(f"/audits/{UNKNOWN}/report", params={"format": "pdf"}),
                             400, "invalid_request")
        assert error["details"][0]["field"] == "format"
        # An event id past what the store keeps (2**63), or not a plain number, is refused
        # before the stream starts; the largest one is asked about (404: no such run).
        for header in ("x", str(2**63), "\u00b2".encode(), "-1"):
            error = assert_error(await client.get(f"/audits/{UNKNOWN}/events", headers={"Last-Event-ID": header}),
                                 400, "invalid_request")
            assert error["details"][0]["field"] == "Last-Event-ID", header
        error = assert_error(await client.get(f"/audits/{UNKNOWN}/events", params={"lastEventId": str(2**63)}),
                             400, "invalid_request")
        assert [d["field"] for d in error["details"]] == ["lastEventId"]
        for largest in ({"params": {"lastEventId": str(2**63 - 1)}}, {"headers": {"Last-Event-ID": str(2**63 - 1)}}):
            assert_error(await client.get(f"/audits/{UNKNOWN}/events", **largest), 404, "not_found")


async def test_the_token_guards_every_jobs_route(chromium):
    async with service_for(chromium, token="jobs-token") as svc, client_for(svc) as client:
        good = {"Authorization": "Bearer jobs-token"}
        routes = [("POST", "/audits"), ("GET", "/audits"), ("GET", f"/audits/{UNKNOWN}"),
                  ("DELETE", f"/audits/{UNKNOWN}"), ("GET", f"/audits/{UNKNOWN}/events"),
                  ("GET", f"/audits/{UNKNOWN}/report"), ("GET", "/audits/not-an-id")]
        for method, path in routes:
            for headers in ({}, {"Authorization": "Bearer wrong"}):
                response = await client.request(method, path, json={}, headers=headers)
                assert_error(response, 401, "unauthorized")
                assert response.headers["WWW-Authenticate"].startswith("Bearer")
            allowed = await client.request(method, path, json={}, headers=good)
            assert allowed.status_code in (200, 400, 404), (method, path, allowed.text)


async def test_openapi_lists_the_jobs_api_from_the_validating_models(client):
    doc = (await client.get("/openapi.json")).json()
    paths = doc["paths"]
    assert set(paths["/audits"]) == {"post", "get"}
    assert set(paths["/audits/{id}"]) == {"get", "delete"}
    assert "get" in paths["/audits/{id}/events"] and "get" in paths["/audits/{id}/report"]
    assert {"/audit", "/health"} <= set(paths)
    assert set(paths["/audits"]["post"]["responses"]) == {"202", "400", "401", "403", "503", "507"}
    assert "409" in paths["/audits/{id}"]["delete"]["responses"]
    assert "409" in paths["/audits/{id}/report"]["get"]["responses"]
    report_format = next(p for p in paths["/audits/{id}/report"]["get"]["parameters"] if p["name"] == "format")
    assert report_format["schema"]["enum"] == ["json", "html", "sarif", "junit"]
    schemas = doc["components"]["schemas"]
    refs = set(_refs(doc))
    assert "#/components/schemas/RunView" in refs
    assert {ref.rsplit("/", 1)[1] for ref in refs} <= set(schemas)
    assert schemas["JobCrawl"]["properties"]["maxPages"]["maximum"] == 100_000
    assert schemas["CrawlOptions"]["properties"]["maxPages"]["maximum"] == 500

    def validator(name):
        return jsonschema.Draft202012Validator(
            {"$ref": f"#/components/schemas/{name}", "components": doc["components"]})

    validator("JobRequest").validate({"url": "https://example.org/", "crawl": {"maxPages": 5000}})
    assert not validator("JobRequest").is_valid({"url": "https://example.org/", "crawl": {"maxPages": 0}})
    accepted = await client.post("/audits", json={"url": "http://127.0.0.1:9/"})
    validator("JobAccepted").validate(accepted.json())
    run = await wait_for_status(client, accepted.json()["id"], {"failed"})
    validator("RunView").validate(run)
    assert run["error"]["code"] and run["error"]["message"]
    validator("RunList").validate((await client.get("/audits")).json())


async def test_cancel_stops_new_pages(chromium, site, gate):
    async with service_for(chromium, concurrency=2) as svc, client_for(svc) as client:
        run_id, held, start = await _held_run(client, site, gate, "jobs-cancel", pages=20)
        report = await client.get(f"/audits/{run_id}/report")
        assert_error(report, 409, "conflict")
        cancelled = await client.delete(f"/audits/{run_id}")
        assert cancelled.status_code == 200, cancelled.text
        assert cancelled.json()["status"] == "cancelled" and cancelled.json()["finishedAt"]
        requested_at_cancel = _requested(site, "jobs-cancel")
        held.release()
        events = await read_events(client, run_id)
        assert events.events[-1].type == "run.done"
        assert events.events[-1].data["status"] == "cancelled"
        await trio.sleep(1.0)  # time for a page that would (wrongly) start after the cancel
        started_after = _requested(site, "jobs-cancel") - requested_at_cancel
        assert len(started_after) <= 2, started_after  # at most those in flight (concurrency 2)
        run = (await client.get(f"/audits/{run_id}")).json()
        assert run["status"] == "cancelled" and "result" not in run
        assert run["progress"]["pagesDone"] < 20
        assert_error(await client.delete(f"/audits/{run_id}"), 409, "conflict")
        assert_error(await client.get(f"/audits/{run_id}/report"), 409, "conflict")
        listed = (await client.get("/audits", params={"status": "cancelled"})).json()["runs"]
        assert [r["id"] for r in listed] == [run_id]


def _refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from [value] if key == "$ref" else _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def _requested(site, name):
    return {r.path for r in list(site.log) if r.path.startswith(f"/{name}/")}


async def test_event_stream_heartbeats_and_frees_its_task_when_the_client_leaves(chromium, site, gate):
    async with service_for(chromium, sse_heartbeat=0.2) as svc, client_for(svc) as client:
        run_id, held, _ = await _held_run(client, site, gate, "jobs-sse", pages=3)
        async with client_for(svc) as watcher, trio.open_nursery() as nursery:

            async def watch():
                async with watcher.stream("GET", f"/audits/{run_id}/events") as response:
                    async for line in response.aiter_lines():
                        if line.startswith(": heartbeat"):
                            seen.set()

            seen = trio.Event()
            nursery.start_soon(watch)
            with trio.fail_after(10):
                await seen.wait()
            assert svc.service.streams == 1
            nursery.cancel_scope.cancel()  # the client goes away mid-stream
        with trio.fail_after(10):  # the server notices and ends the request's task
            while svc.service.streams:
                await trio.sleep(0.02)
        held.release()
        assert (await read_events(client, run_id)).events[-1].type == "run.done"
        assert svc.service.streams == 0


async def test_the_synchronous_audit_is_kept_as_a_run_completed_or_failed(chromium, site):
    url = site.route("/jobs-api/sync", CLEAN)
    unreachable = refused_url()
    async with service_for(chromium) as svc, client_for(svc) as client:
        answered = await client.post("/audit", json={"url": url})
        assert answered.status_code == 200
        runs = (await client.get("/audits", params={"url": url})).json()["runs"]
        assert [(r["kind"], r["status"]) for r in runs] == [("sync", "completed")]
        stored = (await client.get(f"/audits/{runs[0]['id']}")).json()["result"]
        assert stored.pop("findingsPage") == {"offset": 0, "limit": 1000, "total": 0}
        assert stored == answered.json()
        events = await read_events(client, runs[0]["id"])
        assert [e.type for e in events.events] == ["run.done"]
        # Resuming after the largest event id there can be: no event, and a stream that ends.
        assert (await read_events(client, runs[0]["id"], last_id=2**63 - 1)).events == []

        refused = await client.post("/audit", json={"url": unreachable})
        error = assert_error(refused, 500, "navigation_failed")
        [run] = (await client.get("/audits", params={"url": unreachable})).json()["runs"]
        assert (run["kind"], run["status"]) == ("sync", "failed")
        assert run["error"] == error, "the run keeps the error the audit answered"
        assert run["finishedAt"] and "result" not in run
        assert_error(await client.get(f"/audits/{run['id']}/report"), 409, "conflict")
        events = await read_events(client, run["id"])
        assert [(e.type, e.data["status"]) for e in events.events] == [("run.done", "failed")]


async def test_a_store_that_fails_does_not_fail_the_audit(chromium, site, tmp_path, caplog):
    url = site.route("/jobs-api/store-broken", CLEAN)
    caplog.set_level(logging.ERROR, logger="a11y.server")
    async with service_for(chromium, data_dir=str(tmp_path)) as svc, client_for(svc) as client:
        with sqlite3.connect(tmp_path / "a11y.db") as db:
            db.execute("DROP TABLE events")
        answered = await client.post("/audit", json={"url": url})
        assert answered.status_code == 200 and answered.json()["url"] == url
    assert any("could not store the audit" in r.getMessage() for r in caplog.records)
