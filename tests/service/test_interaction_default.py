"""The interaction phase is on unless a request turns it off (issue #22): ``POST /audit``, a
job, and the CLI's request all run it by default, and ``checks.interaction: false`` (the CLI's
``--no-interaction``) reads the DOM only."""

from __future__ import annotations

from a11y.audit_cli import build_request
from a11y.cli import build_parser
from tests.service.conftest import client_for, service_for
from tests.service.jobs.conftest import wait_for_status

PAGE = ("<!doctype html><html lang=en><title>Opening hours</title><main><h1>Opening hours</h1>"
        "<p>We open at nine every weekday.</p><label>Name <input></label></main></html>")


def _ran(page: dict) -> list[str]:
    return (page.get("interaction") or {}).get("ran") or []


async def test_post_audit_and_jobs_use_the_page_unless_told_not_to(chromium, site):
    url = site.route("/interaction-default/page", PAGE)
    async with service_for(chromium) as svc, client_for(svc) as client:
        default = (await client.post("/audit", json={"url": url})).json()
        assert "a11y-keyboard-trap" in _ran(default["pages"][0])
        off = (await client.post("/audit", json={"url": url, "checks": {"interaction": False}})).json()
        assert "interaction" not in off["pages"][0]

        accepted = await client.post("/audits", json={"url": url, "screenshots": False})
        assert accepted.status_code == 202, accepted.text
        run_id = accepted.json()["id"]
        await wait_for_status(client, run_id, {"completed"}, timeout=120)
        job = (await client.get(f"/audits/{run_id}")).json()
        assert "a11y-keyboard-trap" in _ran(job["result"]["pages"][0])


def test_the_cli_runs_the_phase_unless_no_interaction_is_given():
    parser = build_parser()
    on = build_request(parser.parse_args(["audit", "http://127.0.0.1:9/"]))
    off = build_request(parser.parse_args(["audit", "http://127.0.0.1:9/", "--no-interaction"]))
    assert on.checks.interaction is True
    assert off.checks.interaction is False
