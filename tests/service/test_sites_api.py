"""Regressions across runs, end to end: a page audited twice (``POST /audit``, then a job)
with one problem fixed and one new gives exactly that diff through the API, the site's
baseline and history, and the CLI's exit codes and SARIF baseline states against either run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
import trio

from a11y.audit_cli import _report
from a11y.baseline_cli import BaselineError, load_baseline
from a11y.cli import build_parser
from audit.models import AuditResult
from jobs.ids import new_run_id
from tests.service.conftest import assert_error, client_for, service_for
from tests.service.jobs.conftest import wait_for_status
from tests.support.sarif import validate_sarif
from tests.support.site import Response, refused_url

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "sites-api-token"
#: The diff is about the static findings below; the interaction phase (held to its own tests)
#: would add its own on the empty link (focus goes to an element with no size).
STATIC = {"checks": {"interaction": False}}

# Version 1: an image without alternative text and an empty link. Version 2 fixes the image,
# keeps the link (behind churn: renamed classes, an element inserted above) and adds an
# unlabelled field.
V1 = """<!doctype html><html lang="en"><head><title>Shop</title></head><body><main>
<h1>Shop</h1><div class="a"><img src="/sites-api/cat.png"></div>
<p class="a"><a href="/sites-api/home" class="a"></a></p></main></body></html>"""
V2 = """<!doctype html><html lang="en"><head><title>Shop</title></head><body><main>
<h1>Shop</h1><p>Sale today</p><div class="b"><img src="/sites-api/cat.png" alt="A cat"></div>
<p class="b"><a href="/sites-api/home" class="b"></a></p>
<form><input type="text" name="coupon"></form></main></body></html>"""


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("A11Y_API_TOKEN", None)
    return subprocess.run([sys.executable, "-m", "a11y", "audit", *argv], capture_output=True,
                          text=True, timeout=180, cwd=ROOT, env=env)


def _rules(findings: list[dict]) -> list[str]:
    return [f["ruleId"] for f in findings]


async def test_two_runs_give_their_diff_baseline_history_and_cli_exit_codes(chromium, site, tmp_path):
    served = {"body": V1}
    url = site.route("/sites-api/page", lambda request: Response(served["body"]))
    origin = site.url("")
    sites = f"/sites/{quote(origin, safe='')}"
    auth = {"Authorization": f"Bearer {TOKEN}"}
    async with service_for(chromium, token=TOKEN) as svc, client_for(svc, headers=auth) as client:
        assert (await client.post("/audit", json={"url": url, **STATIC})).status_code == 200
        (first,) = [run["id"] for run in (await client.get("/audits")).json()["runs"]]
        served["body"] = V2
        accepted = await client.post("/audits", json={"url": url, **STATIC})
        second = accepted.json()["id"]
        await wait_for_status(client, second, {"completed"})

        diff = (await client.get(f"/audits/{second}/diff", params={"against": first})).json()
        assert diff["run"] == second and diff["against"] == first
        assert diff["counts"] == {"new": 1, "fixed": 1, "unchanged": 1}
        assert (_rules(diff["new"]), _rules(diff["fixed"]), _rules(diff["unchanged"])) == (
            ["label"], ["image-alt"], ["link-name"])
        assert all(len(f["fingerprint"]) == 16 for key in ("new", "fixed", "unchanged") for f in diff[key])
        report = (await client.get(f"/audits/{first}/report", params={"format": "json"})).json()
        for run_id in (first, second):  # kept in the store's indexed column too, both paths
            stored = svc.service.jobs.store.findings(run_id)
            assert [f.fingerprint for f in stored] == [f.data["fingerprint"] for f in stored]
            assert all(f.fingerprint for f in stored)
        assert diff["fixed"][0] == next(f for f in report["findings"] if f["ruleId"] == "image-alt")
        # Problem by problem: the link's classes were renamed, which a fingerprint survives
        # but a component does not (classes name components: docs/problems.md), so its
        # problem reads as fixed in the old component and new in the renamed one.
        problems = diff["problems"]
        assert problems["counts"] == {"new": 2, "fixed": 2, "spread": 0, "unchanged": 0}
        assert [sorted(p["ruleId"] for p in problems[key]) for key in ("new", "fixed")] == [
            ["label", "link-name"], ["image-alt", "link-name"]]
        assert next(f["problem"] for f in diff["new"]) in {p["id"] for p in problems["new"]}

        assert_error(await client.get(f"{sites}/baseline"), 404, "not_found")
        assert_error(await client.get(f"/audits/{second}/diff", params={"against": "baseline"}),
                     404, "not_found")
        baseline = await client.put(f"{sites}/baseline", json={"run": first})
        assert baseline.status_code == 200, baseline.text
        assert baseline.json()["site"] == origin and baseline.json()["run"] == first
        assert (await client.get(f"{sites}/baseline")).json() == baseline.json()
        against = (await client.get(f"/audits/{second}/diff", params={"against": "baseline"})).json()
        assert against["against"] == first and against["counts"] == diff["counts"]

        history = (await client.get(f"{sites}/history")).json()
        assert history["site"] == origin
        assert [run["id"] for run in history["runs"]] == [first, second]
        assert [run["findings"] for run in history["runs"]] == [
            {"critical": 1, "serious": 1, "moderate": 0, "minor": 0, "total": 2},
            {"critical": 1, "serious": 1, "moderate": 0, "minor": 0, "total": 2},
        ]
        assert all(run["status"] == "completed" and run["pages"] == 1 and 0 < run["score"] < 100
                   and run["createdAt"] for run in history["runs"])
        assert [r["id"] for r in (await client.get(f"{sites}/history", params={"limit": 1})).json()["runs"]] == [second]

        # The CLI against the first run on the server: a new critical field, exit 1, while
        # the service serves; its SARIF marks each result's baseline state.
        sarif_path = tmp_path / "out.sarif"
        cli = await trio.to_thread.run_sync(lambda: _cli(
            url, "--no-interaction", "--baseline-run", first, "--server", svc.url, "--token", TOKEN,
            "--fail-on-new", "critical", "--format", "sarif", "--output", str(sarif_path)))
        second_report = (await client.get(f"/audits/{second}/report", params={"format": "json"})).json()
        await _typed_errors(client, sites, first, second)

    assert cli.returncode == 1, cli.stderr
    assert f"against the baseline (run {first}): 1 new, 1 fixed, 1 unchanged" in cli.stderr
    assert TOKEN not in cli.stdout + cli.stderr
    log = json.loads(sarif_path.read_text())
    validate_sarif(log)
    states = sorted((r["ruleId"], r["baselineState"]) for r in log["runs"][0]["results"] if r["kind"] != "review")
    assert states == [("image-alt", "absent"), ("label", "new"), ("link-name", "unchanged")]

    # The same decision from a JSON report file: the second run against the first fails on
    # its new critical field, against itself (nothing new) it passes; the text report counts.
    (tmp_path / "first.json").write_text(json.dumps(report))
    (tmp_path / "second.json").write_text(json.dumps(second_report))
    result = AuditResult.model_validate(second_report)
    for baseline_file, fail_on_new, code, line in (
        ("first.json", "critical", 1, "Baseline:    1 new, 1 fixed, 1 unchanged"),
        ("first.json", None, 0, "Baseline:    1 new, 1 fixed, 1 unchanged"),
        ("second.json", "minor", 0, "Baseline:    0 new, 0 fixed, 2 unchanged"),
    ):
        argv = ["audit", url, "--baseline", str(tmp_path / baseline_file), "--output", str(tmp_path / "out.txt")]
        args = build_parser().parse_args(argv + (["--fail-on-new", fail_on_new] if fail_on_new else []))
        assert _report(result, args, load_baseline(args)) == code
        assert line in (tmp_path / "out.txt").read_text()


async def _typed_errors(client, sites: str, first: str, second: str) -> None:
    """Bad input is a typed error naming the field; no token, no answer."""
    for query, field in (({"against": "nope"}, "against"), ({}, "against")):
        error = assert_error(await client.get(f"/audits/{second}/diff", params=query), 400, "invalid_request")
        assert [d["field"] for d in error["details"]] == [field]
    unknown = new_run_id()
    assert_error(await client.get(f"/audits/{unknown}/diff", params={"against": first}), 404, "not_found")
    assert_error(await client.get(f"/audits/{second}/diff", params={"against": unknown}), 404, "not_found")
    for body, field in (({}, "run"), ({"run": "x"}, "run"), ({"run": first, "x": 1}, "x")):
        error = assert_error(await client.put(f"{sites}/baseline", json=body), 400, "invalid_request")
        assert [d["field"] for d in error["details"]] == [field]
    assert_error(await client.put(f"{sites}/baseline", json={"run": unknown}), 404, "not_found")
    other_site = "/sites/" + quote("http://localhost:1", safe="")
    error = assert_error(await client.put(f"{other_site}/baseline", json={"run": first}), 400, "invalid_request")
    assert [d["field"] for d in error["details"]] == ["run"]
    for bad in ("not-a-site", quote("http://127.0.0.1/a/path", safe=""), quote("ftp://x", safe="")):
        error = assert_error(await client.get(f"/sites/{bad}/history"), 400, "invalid_request")
        assert [d["field"] for d in error["details"]] == ["site"]
    for path in (f"{sites}/history", f"{sites}/baseline", f"/audits/{second}/diff?against={first}"):
        assert_error(await client.get(path, headers={"Authorization": "Bearer wrong"}), 401, "unauthorized")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--fail-on-new"], "--fail-on-new needs a baseline"),
        (["--baseline-run", "x"], "needs --server"),
        (["--baseline", "a.json", "--baseline-run", "x", "--server", "http://h"], "not both"),
        (["--baseline", "{report}"], "is not a JSON report"),
        (["--baseline", "{missing}"], "cannot read"),
        (["--baseline-run", new_run_id(), "--server", "{refused}"], "cannot reach the server"),
        (["--baseline-run", "nope", "--server", "{refused}"], "is not a run id"),
    ],
)
def test_unusable_baselines_are_named(argv, message, tmp_path):
    """Each is refused before any browser starts (the CLI exits 2 with the message)."""
    report = tmp_path / "report.json"
    report.write_text('{"findings": []}')
    places = {"report": report, "missing": tmp_path / "missing.json", "refused": refused_url()}
    args = build_parser().parse_args(["audit", "http://127.0.0.1/", *(a.format(**places) for a in argv)])
    with pytest.raises(BaselineError, match=message):
        load_baseline(args)
