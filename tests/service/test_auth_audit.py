"""Logged-in and mobile audits through the front ends (#14 items 3-4): the service runs login
steps with the tools' dispatcher, answers ``login_failed`` naming the step, refuses bad input
by field, and keeps the secret out of every answer, log line and byte of its store; the CLI
builds the same request from its flags and an auth file."""

from __future__ import annotations

import argparse
import json
import logging
import secrets
from pathlib import Path

import pytest
from pydantic import ValidationError

from a11y.audit_cli import build_request
from a11y.cli import build_parser
from audit.models import request_errors
from tests.audit.test_auth_live import PrivateSite, cookie, header, login_steps
from tests.service.conftest import assert_error, client_for, service_for
from tests.support.site import Request, Response, Site


def signed_in_site(site: Site, prefix: str, canary: str) -> PrivateSite:
    """Pages that want the login's session cookie and the API header."""
    app = PrivateSite(site, prefix, lambda r: cookie(r, "sid") == "signed-in"
                      and header(r, "X-Api-Key") == canary)

    def session(request: Request) -> Response:
        if f"pw={canary}" in request.body.decode():
            return Response("", status=303, headers={"Location": f"/{prefix}/home",
                                                      "Set-Cookie": "sid=signed-in; Path=/"})
        return Response("", status=303, headers={"Location": f"/{prefix}/login"})

    site.route(f"/{prefix}/session", session)
    return app


def stored_bytes(data_dir: Path) -> bytes:
    return b"".join(path.read_bytes() for path in sorted(data_dir.rglob("*")) if path.is_file())


async def test_logged_in_audit_through_the_service_keeps_the_secret(chromium, site, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    canary = "svc-" + secrets.token_hex(8)
    app = signed_in_site(site, "svc-auth", canary)
    url = app.private("home")
    auth = {"headers": {"X-Api-Key": canary}, "cookies": [{"name": "pref", "value": canary}],
            "login": login_steps(app, canary)}
    bad_login = {**auth, "login": login_steps(app, canary, submit="#missing")}
    bad_login["login"][3]["args"]["timeout_ms"] = 300
    answers: list[bytes] = []
    async with service_for(chromium, data_dir=str(tmp_path)) as svc, client_for(svc) as client:
        ok = await client.post("/audit", json={"url": url, "viewport": "mobile", "auth": auth})
        answers.append(ok.content)
        assert ok.status_code == 200, ok.text
        found = [f for f in ok.json()["findings"] if f["selector"] == "#private"]
        assert [f["viewport"] for f in found] == ["mobile"]

        failed = await client.post("/audit", json={"url": url, "auth": bad_login})
        answers.append(failed.content)
        error = assert_error(failed, 500, "login_failed")
        assert "step 3 (element_click)" in error["message"]
        assert error["details"][0]["field"] == "auth.login[3]"

        refused = await client.post("/audit", json={"url": url, "viewport": "tablet",
                                                    "auth": {"headers": {"X-Api-Key": canary + "\n"}}})
        answers.append(refused.content)
        error = assert_error(refused, 400, "invalid_request")
        assert {d["field"] for d in error["details"]} == {"viewport", "auth.headers.X-Api-Key"}

        runs = await client.get("/audits")
        answers.append(runs.content)
        for run in runs.json()["runs"]:
            answers.append((await client.get(f"/audits/{run['id']}")).content)
    assert len(runs.json()["runs"]) == 2  # the audit and the failed one, both stored
    for answer in answers:
        assert canary.encode() not in answer
    assert canary.encode() not in stored_bytes(tmp_path)
    assert caplog.records and canary not in caplog.text


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["audit", *argv])


def test_cli_flags_build_viewports_and_read_auth_from_a_file(tmp_path):
    canary = "cli-" + secrets.token_hex(8)
    auth_file = tmp_path / "auth.json"
    auth_file.write_text(json.dumps({"headers": {"Authorization": f"Bearer {canary}"}}))
    request = build_request(parse("https://example.org/", "--viewport", "mobile", "--viewport", "320x640@2",
                                  "--auth-file", str(auth_file)))
    assert request.viewports == ["mobile", request.viewports[1]]
    assert (request.viewports[1].width, request.viewports[1].device_scale_factor) == (320, 2.0)
    assert request.auth.headers == {"Authorization": f"Bearer {canary}"}
    assert build_request(parse("https://example.org/", "--viewport", "desktop")).viewport == "desktop"

    for argv, field in [
        (["--viewport", "tablet"], "viewport"),
        (["--viewport", "99999x800"], "viewport.width"),
        (["--auth-file", str(tmp_path / "missing.json")], "auth"),
    ]:
        with pytest.raises(ValidationError) as caught:
            build_request(parse("https://example.org/", *argv))
        assert [d["field"] for d in request_errors(caught.value)] == [field]
    auth_file.write_text(json.dumps({"headers": {"X-Key": canary + "\x00"}}))
    with pytest.raises(ValidationError) as caught:
        build_request(parse("https://example.org/", "--auth-file", str(auth_file)))
    assert canary not in str(caught.value) and canary not in json.dumps(request_errors(caught.value))
