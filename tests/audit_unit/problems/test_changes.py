"""Baselines by problem, pure: two runs compared by problem id (new, fixed, spread,
unchanged), and the CLI's ``--fail-on-new`` counting problems with ``--group problems``."""

from __future__ import annotations

import argparse
import json

import pytest

from a11y.baseline_cli import (
    Baseline,
    BaselineError,
    compare,
    load_baseline,
    new_findings_exit,
    render_report,
)
from audit.models import AuditRequest
from audit.page_audit import PageAudit, assemble
from audit.problems.changes import compare_problems

from .test_build import SITE, site_audits


def without(audits: list[PageAudit], rule_id: str) -> list[PageAudit]:
    return [PageAudit(page=a.page, findings=[f for f in a.findings if f.rule_id != rule_id],
                      needs_review=a.needs_review) for a in audits]


def result_of(audits: list[PageAudit]):
    return assemble(AuditRequest(url=f"{SITE}/p0"), audits, 1000)


def rules(problems) -> list[str]:
    return sorted({problem.rule_id for problem in problems})


def test_the_same_run_twice_changes_nothing():
    run = result_of(site_audits(5))
    changes = compare_problems(run, result_of(site_audits(5)))
    assert changes.counts() == {"new": 0, "fixed": 0, "spread": 0, "unchanged": len(run.problems)}


def test_a_problem_fixed_and_one_introduced_with_the_rest_unchanged():
    baseline = result_of(without(site_audits(5), "link-name"))
    current = result_of(without(site_audits(5), "color-contrast"))
    changes = compare_problems(current, baseline)
    assert rules(changes.new) == ["link-name"]
    assert rules(changes.fixed) == ["color-contrast"]
    assert changes.spread == []
    assert len(changes.unchanged) == len(current.problems) - 1
    assert [p.id for p in changes.unchanged] == [p.id for p in current.problems if p.rule_id != "link-name"]


def test_a_shared_component_on_more_pages_spread_and_is_not_new():
    baseline = result_of(site_audits(5)[:3])  # no footer link yet: it is on the last page only
    current = result_of(site_audits(5))
    changes = compare_problems(current, baseline)
    assert rules(changes.new) == ["link-name"]
    spread = {s.problem.rule_id: s.new_pages for s in changes.spread}
    # The header field is on every page, so it reached the two pages the baseline lacked;
    # the TOC links too (forty problems, one per link style).
    assert spread["label"] == (f"{SITE}/p3", f"{SITE}/p4")
    assert len(changes.spread) == 1 + 40 + 1 + 1  # label, the TOC styles, contrast, the review item
    assert changes.new_at_or_above("serious") == changes.new
    assert changes.new_at_or_above("critical") == []


def _args(path, *, group: str, fail_on_new: str | None = "minor") -> argparse.Namespace:
    return argparse.Namespace(baseline=str(path), baseline_run=None, server=None, token=None,
                              fail_on_new=fail_on_new, group=group)


def test_fail_on_new_counts_problems_with_group_problems(tmp_path):
    """Twenty pages of one new defect in the header are twenty new findings but one new
    problem: both fail; removing a finding's page from a known problem fails neither."""
    baseline_file = tmp_path / "baseline.json"
    baseline_file.write_text(result_of(without(site_audits(4), "link-name")).model_dump_json(by_alias=True))
    current = result_of(site_audits(4))
    for group in ("findings", "problems"):
        baseline = load_baseline(_args(baseline_file, group=group))
        comparison = compare(current, baseline)
        assert new_findings_exit(comparison, "serious", group) == 1
        assert new_findings_exit(comparison, "critical", group) == 0  # the new link is serious
    text = render_report(current, "text", baseline, comparison, "problems")
    assert "Baseline:    1 new, 0 fixed, 0 spread" in text
    assert "  new     [serious] link-name on 1 page(s)" in text

    same = result_of(without(site_audits(4), "link-name"))
    assert new_findings_exit(compare(same, baseline), "minor", "problems") == 0


def test_a_baseline_without_problems_is_refused_for_problem_counting(tmp_path):
    old = json.loads(result_of(site_audits(2)).model_dump_json(by_alias=True))
    old["problems"] = []
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    with pytest.raises(BaselineError, match="has no problems"):
        load_baseline(_args(path, group="problems"))
    assert isinstance(load_baseline(_args(path, group="findings")), Baseline)  # by finding it works
