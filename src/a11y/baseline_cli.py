"""``a11y audit … --baseline REPORT | --baseline-run ID --server URL [--fail-on-new [IMPACT]]``:
an audit compared with an earlier run, so CI fails on regressions rather than on old debt.

The earlier run is a JSON report (what ``--format json`` writes) or a completed run of a
service, fetched as its JSON report. Findings are matched by fingerprint (:mod:`audit.diff`),
problems by their id (:mod:`audit.problems.changes`); with ``--group problems``,
``--fail-on-new`` counts new problems instead of new findings, so a defect of a shared
component that repeats on every page fails a build once, not once per page.
Every problem with the baseline is a :class:`BaselineError` whose message is for people;
the CLI exits 2 with it before the audit starts. Nothing here prints the token.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from audit.diff import Diff
    from audit.models import AuditResult, Finding
    from audit.problems.changes import ProblemChanges

TOKEN_ENV = "A11Y_API_TOKEN"
FETCH_TIMEOUT = 60.0
#: Largest baseline report read (a 100,000-finding crawl is about 100 MB).
MAX_REPORT_BYTES = 256 * 1024 * 1024


class BaselineError(Exception):
    """The baseline cannot be used; the message says why, without any secret."""


@dataclass(frozen=True)
class Baseline:
    result: AuditResult
    source: str  #: what it was read from, for messages


@dataclass(frozen=True)
class Comparison:
    diff: Diff[Finding]
    source: str
    #: None when the baseline predates problems (it has items but no problems).
    problems: ProblemChanges | None = None


def load_baseline(args: argparse.Namespace) -> Baseline | None:
    """The baseline the arguments name, None when they name none; ``BaselineError`` when
    they are inconsistent or the baseline cannot be had."""
    path, run_id, server = args.baseline, args.baseline_run, args.server
    if path and run_id:
        raise BaselineError("give either --baseline or --baseline-run, not both")
    if run_id and not server:
        raise BaselineError("--baseline-run needs --server URL (the service that ran it)")
    if server and not run_id:
        raise BaselineError("--server is only used with --baseline-run ID")
    if args.fail_on_new and not (path or run_id):
        raise BaselineError("--fail-on-new needs a baseline: --baseline REPORT or --baseline-run ID")
    if path:
        baseline = Baseline(_report_of(_read_file(path), path), path)
    elif run_id:
        token = args.token or os.environ.get(TOKEN_ENV) or None
        source = f"run {run_id}"
        baseline = Baseline(_report_of(_fetch(server, run_id, token), source), source)
    else:
        return None
    if args.fail_on_new and getattr(args, "group", "findings") == "problems":
        from audit.problems.changes import lacks_problems

        if lacks_problems(baseline.result):
            raise BaselineError(f"{baseline.source} has no problems (it was made before a11y grouped "
                                "findings into problems): compare by findings, without --group problems")
    return baseline


def _read_file(path: str) -> bytes:
    file = Path(path)
    try:
        if file.stat().st_size > MAX_REPORT_BYTES:
            raise BaselineError(f"cannot use {path}: larger than {MAX_REPORT_BYTES // 2**20} MiB")
        return file.read_bytes()
    except OSError as exc:
        raise BaselineError(f"cannot read {path}: {exc.strerror or type(exc).__name__}") from None


def _fetch(server: str, run_id: str, token: str | None) -> bytes:
    """The run's JSON report from ``GET /audits/{id}/report``."""
    import httpx

    from audit.urls import without_credentials

    logging.getLogger("httpx").setLevel(logging.WARNING)  # its request line is not the report's
    from jobs.ids import is_run_id

    if not is_run_id(run_id):
        raise BaselineError(f"{run_id!r} is not a run id")
    shown = without_credentials(server)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    url = f"{server.rstrip('/')}/audits/{run_id}/report"
    try:
        with httpx.Client(timeout=FETCH_TIMEOUT) as client:
            response = client.get(url, params={"format": "json"}, headers=headers)
    except (httpx.HTTPError, ValueError) as exc:  # ValueError: not a URL httpx can send to
        raise BaselineError(f"cannot reach the server {shown}: {type(exc).__name__}: {exc}") from None
    if response.status_code == 200:
        return response.content
    reasons = {
        401: "the server wants a valid token (--token or A11Y_API_TOKEN)",
        404: f"the server {shown} has no run {run_id}",
        409: f"run {run_id} has not completed",
    }
    reason = reasons.get(response.status_code) or f"the server {shown} answered HTTP {response.status_code}"
    raise BaselineError(f"cannot fetch the baseline run: {reason}")


def _report_of(data: bytes, source: str) -> AuditResult:
    return _validated_report(_parsed(data, source), source)


def _parsed(data: bytes, source: str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise _not_a_report(source) from None


def _validated_report(parsed: Any, source: str) -> AuditResult:
    from pydantic import ValidationError

    from audit.models import AuditResult

    try:
        return AuditResult.model_validate(parsed)
    except ValidationError:
        raise _not_a_report(source) from None


def _not_a_report(source: str) -> BaselineError:
    return BaselineError(f"{source} is not a JSON report of an audit (as --format json writes it)")


def read_baseline_reports(path: str) -> list[AuditResult]:
    """The reports in a baseline file: one JSON report, or a JSON array of them (what the
    pytest plugin's ``--a11y-save-baseline`` writes); ``BaselineError`` when it is neither."""
    parsed = _parsed(_read_file(path), path)
    if isinstance(parsed, list):
        return [_validated_report(item, f"{path}[{index}]") for index, item in enumerate(parsed)]
    return [_validated_report(parsed, path)]


def compare(result: AuditResult, baseline: Baseline | None) -> Comparison | None:
    from audit.diff import diff_items
    from audit.problems.changes import compare_problems, lacks_problems

    if baseline is None:
        return None
    problems = None if lacks_problems(baseline.result) else compare_problems(result, baseline.result)
    return Comparison(diff_items(result.findings, baseline.result.findings), baseline.source, problems)


def summary(comparison: Comparison) -> str:
    counts = comparison.diff.counts()
    line = (f"against the baseline ({comparison.source}): {counts['new']} new, "
            f"{counts['fixed']} fixed, {counts['unchanged']} unchanged finding(s)")
    if comparison.problems is not None:
        p = comparison.problems.counts()
        line += (f"; {p['new']} new, {p['fixed']} fixed, {p['spread']} spread, "
                 f"{p['unchanged']} unchanged problem(s)")
    return line


def render_report(result: AuditResult, fmt: str, baseline: Baseline | None,
                  comparison: Comparison | None, group: str = "findings") -> str:
    """The report; SARIF marks each result's baseline state, text adds the comparison.
    ``group`` (findings or problems) is what a SARIF result or JUnit case stands for; a
    comparison with a baseline is by finding, so SARIF against a baseline stays per finding."""
    from audit.reports import render
    from audit.reports._common import clean

    if baseline is None or comparison is None:
        return render(result, fmt, group=group)
    if fmt == "sarif":
        from audit.reports.sarif import render_sarif

        return render_sarif(result, baseline.result)
    text = render(result, fmt, group=group)
    if fmt != "text":
        return text
    lines = [""]
    if group == "problems" and comparison.problems is not None:
        lines.extend(_problem_lines(comparison.problems, comparison.source))
    else:
        counts = comparison.diff.counts()
        lines.append(f"Baseline:    {counts['new']} new, {counts['fixed']} fixed, "
                     f"{counts['unchanged']} unchanged (against {comparison.source})")
        for finding in comparison.diff.new:
            lines.append(f"  new   {finding.id:<5} [{finding.impact}] {finding.rule_id} {finding.selector}")
        for finding in comparison.diff.fixed:
            lines.append(f"  fixed       [{finding.impact}] {finding.rule_id} {finding.selector}")
    return text.rstrip("\n") + "\n" + "\n".join(clean(line) for line in lines) + "\n"


def _problem_lines(changes: ProblemChanges, source: str) -> list[str]:
    counts = changes.counts()
    lines = [f"Baseline:    {counts['new']} new, {counts['fixed']} fixed, {counts['spread']} spread, "
             f"{counts['unchanged']} unchanged problem(s) (against {source})"]
    for problem in changes.new:
        lines.append(f"  new     [{problem.impact}] {problem.rule_id} on {problem.pages} page(s): {problem.component}")
    for spread in changes.spread:
        problem = spread.problem
        lines.append(f"  spread  [{problem.impact}] {problem.rule_id} to {len(spread.new_pages)} more "
                     f"page(s): {problem.component}")
    for problem in changes.fixed:
        lines.append(f"  fixed   [{problem.impact}] {problem.rule_id}: {problem.component}")
    return lines


def new_findings_exit(comparison: Comparison | None, fail_on_new: str | None, group: str = "findings") -> int:
    """1 when findings (with ``group`` problems: problems) new since the baseline are at or
    above ``fail_on_new``, else 0."""
    from audit.scoring import EXIT_FINDINGS, EXIT_OK

    if comparison is None or fail_on_new is None:
        return EXIT_OK
    if group == "problems" and comparison.problems is not None:
        return EXIT_FINDINGS if comparison.problems.new_at_or_above(fail_on_new) else EXIT_OK
    return EXIT_FINDINGS if comparison.diff.new_at_or_above(fail_on_new) else EXIT_OK
