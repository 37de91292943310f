"""A job's secrets (URL credentials, ``auth``) reach the audited site and nothing else: not
a table of the store, not an answer, an event, a report or a log line."""

from __future__ import annotations

import base64
import json
import logging

from sqlalchemy import create_engine, select

from jobs.models import JobRequest
from jobs.store.schema import metadata
from tests.service.conftest import client_for, service_for
from tests.service.jobs.conftest import crawl_body, read_events, tree_site
from tests.support.site import Response

CANARY = "canary-5e1d9b"
PAGES = 5


def _basic_auth_required(expected: str, seen: list[str | None]):
    """Wrap a page so that it answers 401 (with a Basic challenge) unless ``expected``."""
    def wrap(n, body):
        def respond(request):
            seen.append(request.headers.get("Authorization"))
            if request.headers.get("Authorization") != expected:
                return Response("login first", status=401, headers={"WWW-Authenticate": 'Basic realm="t"'})
            return Response(body)
        return respond
    return wrap


def _table_dump(database: str) -> str:
    """Every row of every table of the store, as text."""
    engine = create_engine(f"sqlite:///{database}")
    try:
        with engine.connect() as conn:
            return "\n".join(
                repr(row) for table in metadata.sorted_tables for row in conn.execute(select(table))
            )
    finally:
        engine.dispose()


async def test_credentials_reach_the_site_and_nothing_of_the_store_or_the_api(chromium, site, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    seen: list[str | None] = []
    expected = "Basic " + base64.b64encode(f"alice:{CANARY}".encode()).decode()
    start = tree_site(site, "jobs-secret", PAGES, handler=_basic_auth_required(expected, seen))
    body = crawl_body(start.replace("http://", f"http://alice:{CANARY}@"), PAGES)
    body["crawl"]["urls"] = [site.url("/jobs-secret/4").replace("http://", f"http://alice:{CANARY}@")]
    with_auth = "auth" in JobRequest.model_fields  # the logged-in audits of issue 14
    if with_auth:
        body["auth"] = {"headers": {"X-Canary": CANARY}}
    answers: list[str] = []
    async with service_for(chromium, data_dir=str(tmp_path)) as svc, client_for(svc) as client:
        accepted = await client.post("/audits", json=body)
        assert accepted.status_code == 202, accepted.text
        run_id = accepted.json()["id"]
        stream = await read_events(client, run_id)
        assert stream.events[-1].data["status"] == "completed", stream.events[-3:]
        answers.append(json.dumps([(e.type, e.data) for e in stream.events]))
        for path in (f"/audits/{run_id}", "/audits", f"/audits/{run_id}/report?format=html",
                     f"/audits/{run_id}/report?format=sarif", f"/audits/{run_id}/report?format=junit"):
            response = await client.get(path)
            assert response.status_code == 200, (path, response.text)
            answers.append(response.text)
        synchronous = await client.post("/audit", json={"url": body["url"]})
        assert synchronous.status_code == 200, synchronous.text
        answers.append(synchronous.text.replace(f"alice:{CANARY}@", ""))  # the caller's own URL
        answers.append((await client.get("/audits")).text)
        result = (await client.get(f"/audits/{run_id}")).json()["result"]
        stored = svc.service.jobs.store
        assert stored.run_secrets(run_id) == {}, "a finished run's secrets are deleted"
        request = stored.get_run(run_id).request

    assert sorted(p["url"] for p in result["pages"]) == sorted(site.url(f"/jobs-secret/{n}") for n in range(PAGES))
    assert {p["status"] for p in result["pages"]} == {"ok"}, "every page was let in"
    assert seen.count(expected) >= PAGES + 1, "the site saw the credentials for every page"
    assert request["url"] == site.url("/jobs-secret/0")
    if with_auth:
        assert request["auth"]["headers"] == "***"
    dump = _table_dump(str(tmp_path / "a11y.db"))
    assert "jobs-secret" in dump and CANARY not in dump
    leaked = [text for text in answers if CANARY in text]
    assert not leaked, leaked[0][:300]
    logged = [r.getMessage() for r in caplog.records if CANARY in r.getMessage()]
    assert not logged, logged
