"""scripts/act_conformance.py grades ACT rules as the W3C implementation reports do
(act-tools), and scripts/act_earl.py writes the EARL report the W3C takes. Offline: the
grading is pure, the EARL report is written from a made-up run, the server is a local one."""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from pathlib import Path

import jsonschema
import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

import act_conformance as ac  # noqa: E402
import act_earl  # noqa: E402

Result, Procedure = ac.Result, ac.Procedure

#: An ACT rule's requirements as testcases.json gives them: 1.1.1 for conformance, 4.1.2
#: secondary (an explanation), 2.4.9 secondary though "forConformance" (``true``), and keys
#: that are no WCAG criterion.
REQUIREMENTS = {
    "wcag20:1.1.1": {"forConformance": True, "failed": "not satisfied", "passed": "further testing needed",
                     "inapplicable": "further testing needed"},
    "wcag20:4.1.2": {"secondary": "This success criterion is **less strict** than this rule."},
    "wcag20:2.4.9": {"forConformance": True, "secondary": True, "failed": "not satisfied"},
    "wcag-technique:ARIA4": {"forConformance": False, "failed": "not satisfied"},
    "aria12:#aria-label": {"forConformance": True, "failed": "not satisfied", "title": "ARIA 1.2"},
}


def results(*pairs: tuple[str, str], approved: bool = True) -> tuple[Result, ...]:
    """(expected, outcome) pairs -> results of one procedure."""
    return tuple(Result(expected, (outcome,), approved) for expected, outcome in pairs)


GOOD = (("passed", "passed"), ("failed", "failed"), ("failed", "failed"), ("inapplicable", "inapplicable"))


def grade(*pairs: tuple[str, str], criteria=("1.1.1",), requirements=REQUIREMENTS) -> str:
    return ac.grade_rule({"rule": Procedure(results(*pairs), frozenset(criteria))}, requirements).consistency


# --------------------------------------------------------------------------- grading


def test_complete_needs_every_condition():
    assert grade(*GOOD) == "complete"
    assert grade(("passed", "inapplicable"), ("failed", "failed"), ("inapplicable", "passed")) == "complete"


def test_a_failed_passed_or_inapplicable_case_is_inconsistent():
    assert grade(("passed", "failed"), ("failed", "failed")) == "inconsistent"
    assert grade(("inapplicable", "failed"), ("failed", "failed")) == "inconsistent"


def test_an_untested_case_keeps_it_partial():
    assert grade(*GOOD, ("passed", "untested")) == "partial"
    assert grade(*GOOD, ("failed", "untested")) == "partial"


def test_every_failed_case_must_be_failed_or_canttell():
    assert grade(("failed", "failed"), ("failed", "cantTell"), ("passed", "passed")) == "complete"
    assert grade(("failed", "failed"), ("failed", "passed")) == "partial"
    assert grade(("failed", "failed"), ("failed", "inapplicable")) == "partial"


def test_at_least_one_failed_case_must_really_fail():
    only_cant_tell = (("failed", "cantTell"), ("failed", "cantTell"), ("passed", "passed"))
    assert grade(*only_cant_tell) == "partial"  # cantTell, and every inapplicable case right
    assert grade(*only_cant_tell, ("inapplicable", "cantTell")) == "inconsistent"
    assert grade(("failed", "passed"), ("passed", "passed")) == "inconsistent"  # no positive at all


def test_canttell_on_a_passed_case_is_no_false_positive():
    assert grade(*GOOD, ("passed", "cantTell")) == "complete"


def test_only_approved_cases_count_when_there_are_any():
    proposed = (Result("passed", ("failed",), False), Result("failed", ("untested",), False))
    procedure = Procedure(results(*GOOD) + proposed, frozenset({"1.1.1"}))
    assert ac.grade_rule({"rule": procedure}, REQUIREMENTS).consistency == "complete"
    unapproved = Procedure(results(*GOOD, approved=False) + proposed, frozenset({"1.1.1"}))
    assert ac.grade_rule({"rule": unapproved}, REQUIREMENTS).consistency == "inconsistent"


def test_secondary_requirements_are_marked_by_a_secondary_key():
    every, primary = ac.wcag_requirements(REQUIREMENTS)
    assert every == {"1.1.1", "4.1.2", "2.4.9"}
    assert primary == {"1.1.1"}
    assert ac.wcag_requirements({"wcag21:1.3.5": {"forConformance": True}}) == ({"1.3.5"}, {"1.3.5"})
    assert ac.wcag_requirements(None) == (frozenset(), frozenset())


def test_the_criteria_must_cover_the_rule_and_stay_inside_it():
    assert grade(*GOOD, criteria=()) == "partial"  # 1.1.1 missing
    assert grade(*GOOD, criteria=("1.1.1", "4.1.2")) == "complete"  # a secondary one is allowed
    assert grade(*GOOD, criteria=("1.1.1", "2.4.9", "4.1.2")) == "complete"
    assert grade(*GOOD, criteria=("4.1.2",)) == "partial"  # secondary only
    assert grade(*GOOD, criteria=("1.1.1", "1.3.1")) == "partial"  # outside the rule
    assert grade(*GOOD, criteria=("1.1.1", "9.9.9")) == "complete"  # no WCAG criterion: ignored


def test_a_rule_with_only_secondary_or_no_criteria_takes_none_outside():
    secondary_only = {"wcag20:4.1.2": {"secondary": "less strict"}}
    assert grade(*GOOD, criteria=(), requirements=secondary_only) == "complete"
    assert grade(*GOOD, criteria=("4.1.2",), requirements=secondary_only) == "complete"
    assert grade(*GOOD, criteria=(), requirements=None) == "complete"
    assert grade(*GOOD, criteria=("1.1.1",), requirements=None) == "partial"


def test_criteria_count_only_from_failed_and_canttell_outcomes():
    assert Procedure(results(("passed", "passed")), frozenset({"1.1.1"})).reported == frozenset()
    assert Procedure(results(("passed", "cantTell")), frozenset({"1.1.1", "9.9.9"})).reported == {"1.1.1"}


def test_why_not_complete_is_reported():
    graded = ac.grade_rule({"r": Procedure(results(*GOOD), frozenset({"2.4.4"}))}, REQUIREMENTS)
    assert (graded.consistency, graded.criteria_right, graded.criteria_block) == ("partial", False, True)
    assert (graded.reported, graded.required, graded.allowed) == (["2.4.4"], ["1.1.1"], ["1.1.1", "2.4.9", "4.1.2"])
    missed = ac.grade_rule({"r": Procedure(results(("failed", "passed"), ("failed", "failed")), frozenset())},
                           REQUIREMENTS)
    assert (missed.consistency, missed.criteria_block) == ("partial", False)


def test_no_procedure_is_untested():
    assert ac.grade_rule({}, REQUIREMENTS).consistency == "untested"


def test_the_best_procedures_are_taken_and_partial_ones_combined():
    cases = ("failed", "failed", "passed")
    first = Procedure(results(*zip(cases, ("failed", "passed", "passed"), strict=True)), frozenset({"1.1.1"}))
    second = Procedure(results(*zip(cases, ("passed", "failed", "passed"), strict=True)), frozenset({"4.1.2"}))
    wrong = Procedure(results(*zip(cases, ("failed", "failed", "failed"), strict=True)), frozenset({"1.1.1"}))
    assert ac.grade_rule({"a": first}, REQUIREMENTS).consistency == "partial"
    together = ac.grade_rule({"a": first, "b": second, "c": wrong}, REQUIREMENTS)
    assert (together.consistency, together.procedures, together.reported) == ("complete", ["a", "b"], ["1.1.1", "4.1.2"])
    assert ac.grade_rule({"c": wrong}, REQUIREMENTS).consistency == "inconsistent"
    complete = Procedure(results(("failed", "failed"), ("failed", "failed"), ("passed", "passed")), frozenset({"1.1.1"}))
    best = ac.grade_rule({"c": wrong, "d": complete, "a": first}, REQUIREMENTS)
    assert (best.consistency, best.procedures) == ("complete", ["d"])


def test_case_outcomes_per_procedure():
    procedures = ["image-alt", "a11y-x", "role-img-alt"]
    ran = ac.Ran(flagged={"image-alt": "failed", "a11y-x": "cantTell", "region": "failed"})
    outcome = ac.case_outcome(ran, procedures)
    assert outcome.outcome == "failed" and outcome.rules == ["a11y-x", "image-alt"]
    assert outcome.procedures == {"image-alt": "failed", "a11y-x": "cantTell", "role-img-alt": "passed"}
    assert ac.case_outcome(ac.Ran(flagged={"a11y-x": "cantTell"}), procedures).outcome == "cantTell"
    assert ac.case_outcome(ac.Ran(declined=True), procedures).procedures["a11y-x"] == "inapplicable"
    failed = ac.case_outcome(ac.Ran(error="TooSlowError"), procedures)
    assert (failed.outcome, failed.error, set(failed.procedures.values())) == ("untested", "TooSlowError", {"untested"})


# --------------------------------------------------------------------------- a made-up run

RULE = "abc123"
W3C = "https://www.w3.org/WAI/content-assets/wcag-act-rules/testcases"


def _case(n: int, expected: str, approved: bool = True, suffix: str = "html") -> ac.Case:
    case_id = f"{n:040x}"
    path = f"testcases/{RULE}/{case_id}.{suffix}"
    return ac.Case(RULE, "Made-up rule", True, case_id, f"Example {n}", expected, path, approved, f"{W3C}/{RULE}/{case_id}.{suffix}")


CASES = [
    _case(1, "passed"), _case(2, "failed"), _case(3, "failed"), _case(4, "inapplicable"),
    _case(5, "inapplicable", suffix="svg"), _case(6, "passed", approved=False),
]
PROCEDURES = {RULE: ["image-alt", "a11y-image-name"]}
CRITERIA = {"image-alt": ["1.1.1", "4.1.2"], "a11y-image-name": ["1.1.1", "2.4.4"]}
RUNS = {
    CASES[0].key: ac.Ran(),
    CASES[1].key: ac.Ran(flagged={"image-alt": "failed", "a11y-image-name": "cantTell"}),
    CASES[2].key: ac.Ran(flagged={"image-alt": "cantTell", "a11y-image-name": "failed"}),
    CASES[3].key: ac.Ran(flagged={"a11y-image-name": "failed"}),
    CASES[4].key: ac.Ran(declined=True),
    CASES[5].key: ac.Ran(error="AuditFailed: the page did not load"),
}


def _run() -> tuple[dict[str, ac.Outcome], list[ac.RuleFigures]]:
    outcomes = {c.key: ac.case_outcome(RUNS[c.key], PROCEDURES[RULE]) for c in CASES}
    figures = ac.score(CASES, outcomes, PROCEDURES, CRITERIA, {RULE: REQUIREMENTS})
    return outcomes, figures


def test_scoring_a_run():
    _, [figures] = _run()
    assert figures.consistency == "complete"  # image-alt; a11y-image-name flags an inapplicable case
    assert figures.grade.procedures == ["image-alt"]
    assert (figures.cases, figures.agree, figures.false_positives, figures.untested) == (6, 4, 1, 1)


def test_a_run_leaving_a_rule_out_counts_it_untested():
    _, figures = _run()
    ours = ac.counts(figures, {RULE: True, "xyz789": True, "pqr456": False})
    assert (ours.approved, ours.proposed, ours.consistent) == ((1, 0, 0, 1), (0, 0, 0, 1), 1)


# --------------------------------------------------------------------------- the EARL report

EARL_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["@context", "@graph"],
    "properties": {
        "@context": {
            "type": "object",
            "required": ["@vocab", "WCAG2", "source", "title", "name", "release", "revision", "isPartOf",
                         "assertions", "outcome"],
            "properties": {
                "@vocab": {"const": "http://www.w3.org/ns/earl#"},
                "WCAG2": {"type": "string", "pattern": r"^https?://www\.w3\.org/TR/WCAG2/#$"},
                "source": {"const": "dct:source"},
                "title": {"const": "dct:title"},
                "name": {"const": "doap:name"},
                "release": {"const": "doap:release"},
                "revision": {"const": "doap:revision"},
                "dct": {"const": "http://purl.org/dc/terms/"},
                "doap": {"const": "http://usefulinc.com/ns/doap#"},
                "isPartOf": {"const": {"@id": "dct:isPartOf", "@type": "@id"}},
                "assertions": {"const": {"@reverse": "earl:subject"}},
                "outcome": {"const": {"@type": "@id"}},
            },
        },
        "@graph": {
            "type": "array",
            "minItems": 2,
            "prefixItems": [{"$ref": "#/$defs/assertor"}],
            "items": {"$ref": "#/$defs/subject"},
        },
    },
    "$defs": {
        "assertor": {
            "type": "object",
            "required": ["@id", "@type", "name", "release"],
            "properties": {
                "@type": {"type": "array", "contains": {"const": "Assertor"}},
                "name": {"type": "string", "minLength": 1},
                "release": {
                    "type": "object",
                    "required": ["revision"],
                    "properties": {"@type": {"const": "Version"}, "revision": {"type": "string", "minLength": 1}},
                },
            },
        },
        "subject": {
            "type": "object",
            "required": ["@type", "source", "assertions"],
            "additionalProperties": False,
            "properties": {
                "@type": {"type": "array", "contains": {"const": "TestSubject"}},
                "source": {
                    "type": "string",
                    "pattern": r"^https://www\.w3\.org/WAI/content-assets/wcag-act-rules/testcases/"
                               r"[a-z0-9]{6}/[a-z0-9]{40}\.[a-z]{2,5}$",
                },
                "assertions": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/assertion"}},
            },
        },
        "assertion": {
            "type": "object",
            "required": ["@type", "assertedBy", "mode", "test", "result"],
            "additionalProperties": False,
            "properties": {
                "@type": {"const": "Assertion"},
                "assertedBy": {"type": "string", "minLength": 1},
                "mode": {"enum": ["earl:automatic", "earl:semiAuto", "earl:manual"]},
                "test": {
                    "type": "object",
                    "required": ["@type", "title", "isPartOf"],
                    "additionalProperties": False,
                    "properties": {
                        "@type": {"const": "TestCase"},
                        "title": {"type": "string", "minLength": 1},
                        "isPartOf": {
                            "type": "array",
                            "uniqueItems": True,
                            "items": {"type": "string", "pattern": "^WCAG2:[a-z0-9-]+$"},
                        },
                    },
                },
                "result": {
                    "type": "object",
                    "required": ["@type", "outcome"],
                    "additionalProperties": False,
                    "properties": {
                        "@type": {"const": "TestResult"},
                        "outcome": {"enum": ["earl:passed", "earl:failed", "earl:cantTell", "earl:inapplicable",
                                             "earl:untested"]},
                    },
                },
            },
        },
    },
}

_CASE_URL = re.compile(r"/([a-z0-9]{6})/([a-z0-9]{40})\.[a-z]{2,5}$")


def _read_back(report: dict) -> dict[str, dict[str, tuple[str, frozenset[str]]]]:
    """What an EARL reader gets from the report: case id -> procedure -> (outcome, criteria)."""
    number = {f"WCAG2:{slug}": sc for sc, slug in act_earl.WCAG_CRITERIA.items()}
    read: dict[str, dict[str, tuple[str, frozenset[str]]]] = {}
    for subject in report["@graph"][1:]:
        rule_id, case_id = _CASE_URL.search(subject["source"]).groups()
        assert rule_id == RULE
        for node in subject["assertions"]:
            outcome = node["result"]["outcome"].removeprefix("earl:")
            read.setdefault(case_id, {})[node["test"]["title"]] = (
                outcome, frozenset(number[part] for part in node["test"]["isPartOf"]))
    return read


def test_the_earl_report_of_a_run(tmp_path):
    outcomes, [figures] = _run()
    path = tmp_path / "earl.json"
    act_earl.write_earl(
        path, ac.earl_assertions(CASES, outcomes, PROCEDURES, CRITERIA), "a11y", "1.2.3", description="a made-up run"
    )
    report = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(report, EARL_SCHEMA)

    assertor, *subjects = report["@graph"]
    assert (assertor["name"], assertor["release"]["revision"]) == ("a11y", "1.2.3")
    assert [s["source"] for s in subjects] == [c.url for c in CASES]  # one per case, its W3C URL
    for subject in subjects:
        assert [a["test"]["title"] for a in subject["assertions"]] == PROCEDURES[RULE]
        assert {a["assertedBy"] for a in subject["assertions"]} == {assertor["@id"]}
    by_case = {s["source"]: s["assertions"] for s in subjects}
    failed = {a["test"]["title"]: a for a in by_case[CASES[1].url]}
    assert failed["image-alt"]["result"]["outcome"] == "earl:failed"
    assert failed["image-alt"]["test"]["isPartOf"] == ["WCAG2:non-text-content", "WCAG2:name-role-value"]
    assert failed["a11y-image-name"]["result"]["outcome"] == "earl:cantTell"
    assert {a["result"]["outcome"] for a in by_case[CASES[4].url]} == {"earl:inapplicable"}
    assert {a["result"]["outcome"] for a in by_case[CASES[5].url]} == {"earl:untested"}

    # graded from the report alone, the rule gets the grade the run got
    read = _read_back(report)
    procedures = {
        name: Procedure(
            tuple(Result(c.expected, (read[c.testcase_id][name][0],), c.approved) for c in CASES),
            read[CASES[0].testcase_id][name][1],
        )
        for name in PROCEDURES[RULE]
    }
    again = ac.grade_rule(procedures, REQUIREMENTS)
    assert (again.consistency, again.procedures) == (figures.consistency, figures.grade.procedures)


def test_a_case_not_run_has_no_assertion():
    outcomes, _ = _run()
    del outcomes[CASES[0].key]
    assertions = ac.earl_assertions(CASES, outcomes, PROCEDURES, CRITERIA)
    assert {a.url for a in assertions} == {c.url for c in CASES[1:]}


def test_the_earl_writer_refuses_what_a_reader_would_miscount():
    with pytest.raises(ValueError, match="two assertions"):
        act_earl.earl_report([act_earl.Assertion("u", "p", "passed")] * 2, "a11y", "1")
    with pytest.raises(ValueError, match="unknown outcome"):
        act_earl.earl_report([act_earl.Assertion("u", "p", "fail")], "a11y", "1")
    assert act_earl.criterion_id("1.4.12") == "WCAG2:text-spacing"
    assert act_earl.criterion_id("9.9.9") is None
    assert len(act_earl.WCAG_CRITERIA) == 87


# --------------------------------------------------------------------------- serving, published figures


def test_cases_are_served_as_the_w3c_serves_them(tmp_path):
    prefix = "/WAI/content-assets/wcag-act-rules/"
    for name in ("case.html", "case.htm", "case.svg", "case.xml", "style.css"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    server, base = ac.serve(tmp_path, prefix)
    try:
        def kind(name: str) -> str:
            with urllib.request.urlopen(base + name, timeout=5) as response:
                return response.headers["Content-Type"]

        assert kind("case.html") == "text/html; charset=utf-8"
        assert kind("case.htm") == "text/html; charset=utf-8"
        assert kind("case.svg") == "image/svg+xml; charset=utf-8"
        assert kind("case.xml") == "application/xml; charset=utf-8"
        assert kind("style.css") == "text/css; charset=utf-8"
    finally:
        server.shutdown()
        server.server_close()


def test_published_figures():
    by_name = {p.name: p for p in ac.PUBLISHED}
    assert by_name["UsableNet AQA - WCAG 2.2 AA Semi-auto"].consistent == 58
    assert by_name["Alfa (semi-automated)"].consistent == 54
    assert by_name["Webmate Accessibility Workbench"].consistent == 48
    assert by_name["Axe-core"].consistent == 29
    assert all(sum(p.approved) == 37 and sum(p.proposed) == 50 for p in ac.PUBLISHED)


def test_published_figures_read_from_the_reports(tmp_path):
    folder = tmp_path / "_data" / "wcag-act-rules" / "implementations"
    folder.mkdir(parents=True)
    report = {"name": "Tool", "version": 6.5, "lastModified": "1 May 2026",
              "approvedRules": {"complete": 30, "partial": 2, "inconsistent": 1, "untested": 4},
              "proposedRules": {"complete": 9, "partial": 1, "inconsistent": 0, "untested": 40}, "actRuleMapping": []}
    (folder / "tool.json").write_text(json.dumps(report), encoding="utf-8")
    (folder.parent / "act-implementations.yml").write_text("- name: Tool\n  uniqueKey: tool\n  type: Linter\n")
    for where in (tmp_path, folder):
        [tool], source = ac.load_published(where)
        assert (tool.name, tool.version, tool.kind, tool.approved, tool.consistent) == (
            "Tool", "6.5", "Linter", (30, 2, 1, 4), 39)
        assert str(folder) in source
