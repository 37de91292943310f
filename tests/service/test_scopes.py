"""API tokens with scopes (issue #26 item 5): every kind of caller tried against every
endpoint, as a table of caller x endpoint -> status, on one service shared by the module.

The callers: no token, a wrong one, a revoked one, each scope (a ``submit`` token on a run it
started and on one it did not), a token limited to site A on a run of A and on one of B, and
the service's own ``--token``. The table is checked against the app's routes (an endpoint
missing from it fails the suite) and against the OpenAPI document (every status in it is
documented for its operation). Then what the table cannot show: the log names the token
and never holds a value, a site-limited list, ownership of a job, and auth turned on by the
first stored token, with revocation taking effect on the next request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from a11y.service import RunningService, ServiceConfig
from jobs.store import Store, open_store
from jobs.store.artifacts import NewArtifact, put_artifacts
from jobs.store.sites import set_baseline
from jobs.store.tokens import create_token, revoke_token
from tests.service.conftest import assert_error, client_for, service_for
from tests.support.seeded_runs import completed_run
from tests.support.site import refused_url
from tests.support.threaded_service import service_in_thread

FULL = "full-access-s3cret-of-the-service"
#: Stored tokens: name -> (scope, limited to site "a" only).
TOKENS = {
    "reader": ("read", False),
    "submitter": ("submit", False),
    "submitter-2": ("submit", False),
    "admin": ("admin", False),
    "limited": ("admin", True),
    "revoked": ("admin", False),
}
THUMB = "thumb-0.jpg"

#: Each column: the token it sends (a stored token's name, "wrong", "full" or None) and the
#: site whose run or path it names.
COLUMNS = {
    "none": (None, "a"),
    "wrong": ("wrong", "a"),
    "revoked": ("revoked", "a"),
    "read": ("reader", "a"),
    "submit-own": ("submitter", "a"),
    "submit-other": ("submitter", "b"),
    "admin": ("admin", "a"),
    "site-own": ("limited", "a"),
    "site-other": ("limited", "b"),
    "full": ("full", "a"),
}


@dataclass
class Target:
    """What a request of one column names: a site, its seeded run (completed, started by
    ``submitter`` on site a), and a fresh completed run when the request consumes one."""

    site: str
    run: str
    fresh_run: Callable[[], str]

    @property
    def site_path(self) -> str:
        return quote(self.site, safe="")


Request = tuple[str, str, Any]  # method, path, JSON body (None: no body)

# An audit that passes the token, the scope and the site, then is refused before any work:
# its LLM provider has no key on this server (environ={}).
_AUDIT = {"llm": {"enabled": True, "provider": "anthropic"}}
# A job that stays running: nothing audits its pages (workers=0), and robots.txt, which the
# sites' closed ports cannot serve, is not asked (an unreachable one would fail the run).
_JOB = {"crawl": {"respectRobots": False}}

# endpoint (METHOD rule[?variant]), the request, the status per column
ROWS: list[tuple[str, Callable[[Target], Request], str]] = [
    #                                                                                                   none wrong revoked read s-own s-other admin site-own site-other full
    ("GET /", lambda t: ("GET", "/", None),                                                             "200 200 200 200 200 200 200 200 200 200"),
    ("GET /static/<name>", lambda t: ("GET", "/static/dashboard.js", None),                             "200 200 200 200 200 200 200 200 200 200"),
    ("GET /health", lambda t: ("GET", "/health", None),                                                 "200 200 200 200 200 200 200 200 200 200"),
    ("GET /openapi.json", lambda t: ("GET", "/openapi.json", None),                                     "200 200 200 200 200 200 200 200 200 200"),
    ("GET /auth/self", lambda t: ("GET", "/auth/self", None),                                           "401 401 401 200 200 200 200 200 200 200"),
    ("POST /audit", lambda t: ("POST", "/audit", {"url": f"{t.site}/", **_AUDIT}),                      "401 401 401 403 400 400 400 400 403 400"),
    ("POST /audits", lambda t: ("POST", "/audits", {"url": f"{t.site}/", **_JOB}),                       "401 401 401 403 202 202 202 202 403 202"),
    ("GET /audits", lambda t: ("GET", "/audits", None),                                                 "401 401 401 200 200 200 200 200 200 200"),
    ("GET /audits/<run_id>", lambda t: ("GET", f"/audits/{t.run}", None),                               "401 401 401 200 200 200 200 200 404 200"),
    # cancel: the seeded run has finished, so a caller allowed to cancel it hears 409
    ("DELETE /audits/<run_id>", lambda t: ("DELETE", f"/audits/{t.run}", None),                         "401 401 401 403 409 404 409 409 404 409"),
    ("DELETE /audits/<run_id>?purge", lambda t: ("DELETE", f"/audits/{t.fresh_run()}?purge=true", None), "401 401 401 403 403 403 200 200 404 200"),
    ("GET /audits/<run_id>/report", lambda t: ("GET", f"/audits/{t.run}/report", None),                 "401 401 401 200 200 200 200 200 404 200"),
    ("GET /audits/<run_id>/events", lambda t: ("GET", f"/audits/{t.run}/events", None),                 "401 401 401 200 200 200 200 200 404 200"),
    ("GET /audits/<run_id>/diff", lambda t: ("GET", f"/audits/{t.run}/diff?against={t.run}", None),     "401 401 401 200 200 200 200 200 404 200"),
    ("GET /audits/<run_id>/problems", lambda t: ("GET", f"/audits/{t.run}/problems", None),             "401 401 401 200 200 200 200 200 404 200"),
    ("GET /audits/<run_id>/findings", lambda t: ("GET", f"/audits/{t.run}/findings?group=problems", None), "401 401 401 200 200 200 200 200 404 200"),
    ("GET /audits/<run_id>/artifacts/<name>", lambda t: ("GET", f"/audits/{t.run}/artifacts/{THUMB}", None), "401 401 401 200 200 200 200 200 404 200"),
    ("GET /dashboard/audits/<run_id>/report", lambda t: ("GET", f"/dashboard/audits/{t.run}/report", None), "401 401 401 200 200 200 200 200 404 200"),
    ("GET /sites/<path:site>/baseline", lambda t: ("GET", f"/sites/{t.site_path}/baseline", None),      "401 401 401 200 200 200 200 200 404 200"),
    ("PUT /sites/<path:site>/baseline", lambda t: ("PUT", f"/sites/{t.site_path}/baseline", {"run": t.run}), "401 401 401 403 403 403 200 200 404 200"),
    ("GET /sites/<path:site>/history", lambda t: ("GET", f"/sites/{t.site_path}/history", None),        "401 401 401 200 200 200 200 200 404 200"),
]
EXPECTED = {endpoint: dict(zip(COLUMNS, map(int, statuses.split()), strict=True))
            for endpoint, _, statuses in ROWS}
REQUESTS = {endpoint: build for endpoint, build, _ in ROWS}


@dataclass
class World:
    svc: RunningService
    client: httpx.Client
    store: Store
    tokens: dict[str, str]
    sites: dict[str, str]
    runs: dict[str, str]

    def headers(self, who: str | None) -> dict[str, str]:
        return {} if who is None else {"Authorization": f"Bearer {self.tokens[who]}"}

    def target(self, column: str) -> Target:
        _, key = COLUMNS[column]
        site = self.sites[key]
        owner = "submitter" if key == "a" else None
        return Target(site, self.runs[key],
                      lambda: completed_run(self.store, f"{site}/", submitted_by=owner).id)


@pytest.fixture(scope="module")
def world(chromium, tmp_path_factory) -> Iterator[World]:
    data = tmp_path_factory.mktemp("scopes")
    sites = {"a": refused_url().rstrip("/")}
    while (other := refused_url().rstrip("/")) == sites["a"]:
        pass
    sites["b"] = other
    tokens = {"wrong": "a11y_" + "w" * 43, "full": FULL}
    runs = {}
    with open_store(data) as store:
        for name, (scope, limited) in TOKENS.items():
            tokens[name] = create_token(store, name, scope, [sites["a"]] if limited else None)[1]
        revoke_token(store, "revoked")
        for key, owner in (("a", "submitter"), ("b", None)):
            run = completed_run(store, f"{sites[key]}/", submitted_by=owner)
            put_artifacts(store, run.id, [NewArtifact(THUMB, "image/jpeg", b"\xff\xd8\xff\xd9")])
            set_baseline(store, sites[key], run.id)
            runs[key] = run.id
    config = ServiceConfig(
        port=0, browser_url=chromium.ws_url, token=FULL, data_dir=str(data), workers=0,
        environ={}, graceful_timeout=0.5, navigation_timeout=5.0, audit_timeout=20.0,
    )
    with (
        service_in_thread(config) as svc,
        httpx.Client(base_url=svc.url, timeout=60.0, verify=False) as client,
        open_store(data) as store,
    ):
        yield World(svc, client, store, tokens, sites, runs)


def _rule_key(endpoint: str) -> str:
    return endpoint.split("?", 1)[0]


def test_every_endpoint_of_the_app_is_in_the_table(world):
    routes = {
        f"{method} {rule.rule}"
        for rule in world.svc.app.url_map.iter_rules()
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    tabled = {_rule_key(endpoint) for endpoint in EXPECTED}
    assert routes - tabled == set(), "endpoints without a row in the scope table"
    assert tabled - routes == set(), "rows of the scope table for endpoints the app lacks"


@pytest.mark.parametrize("column", COLUMNS)
@pytest.mark.parametrize("endpoint", EXPECTED)
def test_scope_table(world, endpoint, column):
    who, _ = COLUMNS[column]
    method, path, body = REQUESTS[endpoint](world.target(column))
    response = world.client.request(method, path, json=body, headers=world.headers(who))
    expected = EXPECTED[endpoint][column]
    assert response.status_code == expected, f"{method} {path} as {column}: {response.text[:300]}"
    codes = {401: "unauthorized", 403: "forbidden", 404: "not_found"}
    if expected in codes:
        error = assert_error(response, expected, codes[expected])
        assert not any(value in response.text for value in world.tokens.values() if len(value) > 8)
        if expected == 403 and column == "site-other":  # a site it may not audit: the field
            assert [d["field"] for d in error["details"]] == ["url"]
        elif expected == 403:  # a scope too low: the message names the scope needed
            assert "scope" in error["message"]


def _operation(endpoint: str) -> tuple[str, str]:
    method, rule = _rule_key(endpoint).split(" ", 1)
    path = rule.replace("<run_id>", "{id}").replace("<path:site>", "{site}").replace("<name>", "{name}")
    return path, method.lower()


def test_the_document_declares_every_status_of_the_table(world):
    document = world.client.get("/openapi.json").json()
    assert document["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    for endpoint, statuses in EXPECTED.items():
        path, method = _operation(endpoint)
        if path not in document["paths"]:
            assert path in ("/", "/static/{name}", "/openapi.json", "/dashboard/audits/{id}/report"), path
            continue
        operation = document["paths"][path][method]
        undocumented = {str(status) for status in statuses.values()} - set(operation["responses"])
        assert not undocumented, f"{endpoint} answers {undocumented}, undocumented"
        if "security" in operation:
            needs = {s for c, s in statuses.items() if s == 403 and c != "site-other"}
            assert (operation["x-scope"] != "read") == bool(needs), endpoint


def test_the_token_says_what_it_may_do(world):
    answers = {
        who: world.client.get("/auth/self", headers=world.headers(who)).json()
        for who in ("reader", "limited", "full")
    }
    assert answers == {
        "reader": {"name": "reader", "scope": "read", "sites": None},
        "limited": {"name": "limited", "scope": "admin", "sites": [world.sites["a"]]},
        "full": {"name": "--token", "scope": "admin", "sites": None},
    }


def test_a_site_limited_token_lists_only_its_sites_runs(world):
    seen = {
        who: {run["url"].rstrip("/") for run in
              world.client.get("/audits?limit=200", headers=world.headers(who)).json()["runs"]}
        for who in ("limited", "admin")
    }
    assert seen["limited"] == {world.sites["a"]}
    assert seen["admin"] >= {world.sites["a"], world.sites["b"]}
    other = world.client.get("/audits", params={"url": f"{world.sites['b']}/"},
                             headers=world.headers("limited"))
    assert other.status_code == 200 and other.json()["runs"] == []
    # Naming another site's run from its own site's routes tells nothing either: the same
    # 404 as an unknown id (not the 400 "run of another site" an unlimited token gets).
    run_a, run_b = world.runs["a"], world.runs["b"]
    diff = world.client.get(f"/audits/{run_a}/diff?against={run_b}", headers=world.headers("limited"))
    assert assert_error(diff, 404, "not_found")["message"] == f"There is no run {run_b}."
    site_a = quote(world.sites["a"], safe="")
    for who, status in (("limited", 404), ("admin", 400)):
        put = world.client.put(f"/sites/{site_a}/baseline", json={"run": run_b}, headers=world.headers(who))
        assert put.status_code == status, (who, put.text)


def test_a_submit_token_owns_the_jobs_it_starts_and_the_log_names_it(world, caplog):
    caplog.set_level(logging.INFO, logger="a11y.server")
    client, headers = world.client, world.headers
    started = client.post("/audits", json={"url": f"{world.sites['a']}/", **_JOB}, headers=headers("submitter"))
    assert started.status_code == 202, started.text
    run_id = started.json()["id"]
    assert world.store.get_run(run_id).submitted_by == "submitter"
    # Another submit token may not cancel it (and cannot tell it exists); its owner may.
    assert_error(client.delete(f"/audits/{run_id}", headers=headers("submitter-2")), 404, "not_found")
    cancelled = client.delete(f"/audits/{run_id}", headers=headers("submitter"))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled", cancelled.text
    baseline = client.put(f"/sites/{quote(world.sites['b'], safe='')}/baseline",
                          json={"run": world.runs["b"]}, headers=headers("admin"))
    assert baseline.status_code == 200, baseline.text
    fresh = completed_run(world.store, f"{world.sites['b']}/").id
    assert client.delete(f"/audits/{fresh}?purge=true", headers=headers("full")).status_code == 200
    assert client.post("/audit", json={"url": "http://a.test/"}, headers=headers("wrong")).status_code == 401
    lines = [record.getMessage() for record in caplog.records if record.name == "a11y.server"]
    for action, token in (("audits.submit", "submitter"), ("audits.cancel", "submitter-2"),
                          ("audits.cancel", "submitter"), ("sites.baseline", "admin"),
                          ("audits.purge", "--token"), ("audit", "-")):
        assert any(line.startswith(f"{action} ") and f" token={token}" in line for line in lines), (action, lines)
    every_record = "\n".join(record.getMessage() for record in caplog.records)
    assert not [name for name, value in world.tokens.items() if value in every_record]


def test_purging_a_run_still_running_is_a_conflict(world):
    started = world.client.post("/audits", json={"url": f"{world.sites['b']}/", **_JOB},
                                headers=world.headers("admin"))
    run_id = started.json()["id"]
    assert world.store.get_run(run_id).status in ("queued", "running")
    refused = world.client.delete(f"/audits/{run_id}?purge=true", headers=world.headers("admin"))
    assert_error(refused, 409, "conflict")
    for bad in ("yes", "1", "True", ""):
        wrong = world.client.delete(f"/audits/{run_id}?purge={bad}", headers=world.headers("admin"))
        assert assert_error(wrong, 400, "invalid_request")["details"][0]["field"] == "purge"
    assert world.client.delete(f"/audits/{run_id}", headers=world.headers("admin")).status_code == 200
    purged = world.client.delete(f"/audits/{run_id}?purge=true", headers=world.headers("admin"))
    assert purged.status_code == 200 and purged.json()["id"] == run_id
    assert_error(world.client.get(f"/audits/{run_id}", headers=world.headers("admin")), 404, "not_found")


async def test_the_first_stored_token_turns_auth_on_and_revoking_takes_effect_at_once(chromium, tmp_path):
    async with service_for(chromium, data_dir=str(tmp_path), workers=0) as svc, client_for(svc) as client:
        assert (await client.get("/auth/self")).json() == {"name": None, "scope": "admin", "sites": None}
        assert (await client.get("/audits")).status_code == 200
        with open_store(tmp_path) as store:  # as `a11y token create` would, beside the service
            _, value = create_token(store, "ops", "read")
            bearer = {"Authorization": f"Bearer {value}"}
            assert_error(await client.get("/audits"), 401, "unauthorized")
            assert (await client.get("/audits", headers=bearer)).status_code == 200
            revoke_token(store, "ops")
            assert_error(await client.get("/audits", headers=bearer), 401, "unauthorized")
            # Revoking the last token does not open the service again.
            assert_error(await client.get("/audits"), 401, "unauthorized")
