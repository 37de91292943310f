#!/usr/bin/env python3
"""Agreement of the audit engine with the W3C ACT Rules test cases, graded as the W3C's
implementation reports grade an implementation.

    .venv/bin/python scripts/act_conformance.py /tmp/act                  # the engine
    .venv/bin/python scripts/act_conformance.py /tmp/act --engine axe     # raw axe-core
    .venv/bin/python scripts/act_conformance.py /tmp/act --rules 047fe0,2ee8b8 --misses
    .venv/bin/python scripts/act_conformance.py /tmp/act --judgment --rules c4a8a4,b49b2e
    .venv/bin/python scripts/act_conformance.py /tmp/act --earl /tmp/earl.json --reports DIR

The argument is a checkout of w3c/wcag-act-rules (nothing of it is copied into this repo): its
``content-assets/wcag-act-rules/testcases.json`` lists every test case (ACT rule id, expected
outcome ``passed``/``failed``/``inapplicable``, whether the case is approved, the rule's
accessibility requirements, the HTML file and its W3C URL). The files are served from a local
HTTP server on 127.0.0.1 under the path the cases' own URLs use (``/WAI/content-assets/
wcag-act-rules/``, where their absolute asset links point), with the types the W3C's server
sends (``text/html; charset=utf-8`` for the HTML cases), and each case is audited on its own
page by :func:`audit.engine.run_audit` (WCAG 2.2 AAA and best practices by default, so every
rule with an ACT mapping runs), a few at a time in one browser. The SVG and XML cases run too:
the engine declines a document that is not HTML, so every rule is ``inapplicable`` there
(``--engine axe`` skips them, as axe-core's act-runner does: they stay ``untested``).

Procedures: the engine rules mapped to an ACT rule (an axe rule's ``actIds``, or one of our own
checks' declared ACT ids; read from ``axe.getRules()`` after the engine's injection), plus any
rule whose items on a case of that ACT rule name it. On each case each procedure has one
outcome: ``failed`` when it has a finding there, ``cantTell`` when only needs-review items,
else ``passed`` (``inapplicable`` on a document the engine declines, ``untested`` when the audit
failed). A procedure's success criteria are the ones the rule declares (its ``wcag…`` tags, and
the ``successCriteria`` of its items).

Grading is act-tools' (``act-rules/act-tools``, ``map-implementation``), which builds the W3C
pages from an implementation's EARL report, per ACT rule:

* only the approved cases count when the rule has any approved case;
* a procedure is *complete* when no passed or inapplicable case failed, no case is untested,
  every failed case is ``failed`` or ``cantTell``, at least one failed case really is
  ``failed``, and the criteria of its failed/cantTell outcomes are every success criterion of
  the ACT rule that is not *secondary* (a requirement with a ``secondary`` key in
  ``ruleAccessibilityRequirements``) and no WCAG criterion outside the rule's list; *partial*
  when no passed or inapplicable case failed and one failed case is ``failed``, or some case is
  ``cantTell`` and every inapplicable case is passed/inapplicable; else nothing;
* the rule takes its best procedures (complete, else partial): partial ones are graded again
  combined (their outcomes and criteria together), which can make them complete; *inconsistent*
  when procedures ran but none is partial; *untested* when no rule maps.

The last table sets the counts beside the published implementations' (approved and proposed
rules: complete / partial / inconsistent / untested; "consistent" is complete, the figure the
W3C pages print): read from the implementation reports with ``--reports`` (a checkout or export
of ``_data/wcag-act-rules/implementations``, or the whole repository, or a bare clone of it),
else from :data:`PUBLISHED`. ``--earl FILE`` writes the run as the EARL report the W3C takes
for an implementation (:mod:`act_earl`). Prints figures; asserts nothing.

The per-rule lines also give the act-runner view (axe-core's): a case agrees when an expected
failure was flagged (failed or cantTell) or an expected pass or inapplicable case has no
finding; FP, FN and ``?`` count false positives, missed failures and cantTell cases.

``--judgment`` also runs the judgment checks (``a11y-judge-…``: descriptive title, headings,
links, image names, labels, ...), as a request with ``llm.judgment`` does, but with no judge
(the provider is left unconfigured, so no model is called): their needs-review items score as
``cantTell``. Since act-runner counts ``cantTell`` as agreeing with an inapplicable case too,
each rule's line then also says how many inapplicable cases got an item anyway (``inapplicable
flagged``): the figure that shows whether the checks' applicability is exact.
"""

from __future__ import annotations

import argparse
import functools
import json
import posixpath
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from os import PathLike, environ, fspath
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import act_earl  # scripts/act_earl.py: this script's directory comes first on sys.path
import trio
import yaml

ROOT = Path(__file__).resolve().parents[1]
#: The source tree measured: this checkout's, or another one (an older commit exported with
#: ``git archive``, with ``A11Y_AXE_PATH`` naming the bundle) for a before/after comparison.
SRC = Path(environ.get("A11Y_SRC") or ROOT / "src").resolve()
sys.path.insert(0, str(SRC))

from audit.axe import axe_world, inject  # noqa: E402
from audit.axe_bundle import load_bundle  # noqa: E402
from audit.checks import CHECKS, act_rules_added  # noqa: E402
from audit.engine import EngineLimits, run_audit  # noqa: E402
from audit.failures import AuditFailed  # noqa: E402
from audit.interactive import INTERACTIVE  # noqa: E402
from audit.meta import package_version  # noqa: E402
from audit.models import AuditRequest  # noqa: E402
from audit.readiness import install_tracker, settle  # noqa: E402
from audit.rules import success_criteria  # noqa: E402
from cdpdriver import Browser, CDPError, evaluate, launch  # noqa: E402
from cdpdriver.protocol import page as page_domain  # noqa: E402

TESTCASES = "testcases.json"
#: Where the W3C publishes the suite's files (a case without its own ``url`` is under it).
W3C_ASSETS = "https://www.w3.org/WAI/content-assets/wcag-act-rules/"
#: The rule ids of our own checks; every other rule is axe-core's.
OWN_PREFIX = "a11y-"
HTML_SUFFIXES = (".html", ".htm", ".xhtml")
#: act-runner's agreement (the per-rule "agree" column), by expected outcome.
AGREES = {
    "failed": ("failed", "cantTell"),
    "passed": ("passed", "inapplicable", "cantTell"),
    "inapplicable": ("passed", "inapplicable", "cantTell"),
}
COMPLETE, PARTIAL, INCONSISTENT, UNTESTED = "complete", "partial", "inconsistent", "untested"
LEVELS = (COMPLETE, PARTIAL, INCONSISTENT, UNTESTED)


@dataclass(frozen=True)
class Case:
    rule_id: str
    rule_name: str
    #: Approved when any of the rule's cases is (how the W3C reports sort a rule).
    rule_approved: bool
    testcase_id: str
    title: str
    expected: str
    path: str  # relative to the asset root
    #: This case is approved (a rule's cases can be approved or still proposed).
    approved: bool = False
    #: Where the W3C publishes it: the EARL report's test subject.
    url: str = ""

    @property
    def key(self) -> str:
        """Unique per case: one file can be a case of several rules (the same testcaseId)."""
        return f"{self.rule_id}/{self.testcase_id}"

    @property
    def runnable(self) -> bool:
        return self.path.lower().endswith(HTML_SUFFIXES)


@dataclass
class Ran:
    """One audit of a case: engine rule -> ``failed``/``cantTell`` (rules with an item there),
    the ACT ids each rule's items declared, the criteria of each rule's items; or that the
    engine declined the document (not HTML), or why the audit failed."""

    flagged: dict[str, str] = field(default_factory=dict)
    acts: dict[str, list[str]] = field(default_factory=dict)
    criteria: dict[str, list[str]] = field(default_factory=dict)
    declined: bool = False
    error: str = ""


@dataclass
class Outcome:
    outcome: str  # failed, cantTell, passed, inapplicable, untested: the procedures together
    rules: list[str] = field(default_factory=list)
    error: str = ""
    #: Each procedure (engine rule) of the case's ACT rule -> its outcome on the case.
    procedures: dict[str, str] = field(default_factory=dict)


# --------------------------------------------------------------------------- the suite


def find_testcases(checkout: Path) -> Path:
    """The suite's testcases.json: where the repo publishes it, else the only one found."""
    usual = checkout / "content-assets" / "wcag-act-rules" / TESTCASES
    if usual.is_file():
        return usual
    if (checkout / TESTCASES).is_file():
        return checkout / TESTCASES
    found = sorted(checkout.rglob(TESTCASES))
    if not found:
        raise SystemExit(f"no {TESTCASES} under {checkout}: is it a checkout of w3c/wcag-act-rules?")
    return found[0]


def load_cases(testcases: Path) -> tuple[list[Case], str, dict[str, dict[str, Any]]]:
    """The cases, the URL path their asset root is published under (what absolute links
    inside the cases point to), and each ACT rule's accessibility requirements."""
    items = json.loads(testcases.read_text(encoding="utf-8"))["testcases"]
    rule_approved: dict[str, bool] = {}
    requirements: dict[str, dict[str, Any]] = {}
    for item in items:
        rule_approved[item["ruleId"]] = rule_approved.get(item["ruleId"], False) or bool(item.get("approved"))
        requirements.setdefault(item["ruleId"], item.get("ruleAccessibilityRequirements") or {})
    cases: list[Case] = []
    prefix = ""
    for item in items:
        rel = item["relativePath"]
        url_path = urlsplit(item.get("url", "")).path
        if not prefix and url_path.endswith(rel):
            prefix = url_path[: -len(rel)]
        cases.append(
            Case(
                rule_id=item["ruleId"],
                rule_name=item.get("ruleName", ""),
                rule_approved=rule_approved[item["ruleId"]],
                testcase_id=item["testcaseId"],
                title=item.get("testcaseTitle", ""),
                expected=item["expected"],
                path=rel,
                approved=bool(item.get("approved")),
                url=item.get("url") or W3C_ASSETS + rel,
            )
        )
    return cases, prefix or "/", requirements


class _AssetHandler(SimpleHTTPRequestHandler):
    """Files under the asset root, at ``prefix`` (the path the suite's URLs use) and at /,
    typed as the W3C's server types them: the suite's own kinds from :attr:`types`, not from
    this system's MIME table (which SimpleHTTPRequestHandler reads), and text declared UTF-8
    (SimpleHTTPRequestHandler names no charset: several cases have no ``<meta charset>``, and
    read as windows-1252 their symbols turn into letters)."""

    prefix = "/"
    types = {
        ".html": "text/html",
        ".htm": "text/html",
        ".xhtml": "application/xhtml+xml",
        ".svg": "image/svg+xml",
        ".xml": "application/xml",
        ".css": "text/css",
        ".js": "text/javascript",
        ".json": "application/json",
        ".txt": "text/plain",
        ".vtt": "text/vtt",
    }

    def guess_type(self, path: str | PathLike[str]) -> str:
        suffix = posixpath.splitext(fspath(path))[1].lower()
        kind = self.types.get(suffix) or super().guess_type(path)
        textual = kind.startswith("text/") or kind.endswith(("+xml", "/xml", "/javascript", "/json"))
        return f"{kind}; charset=utf-8" if textual else kind

    def translate_path(self, path: str) -> str:
        if path.startswith(self.prefix):
            path = "/" + path[len(self.prefix) :]
        return super().translate_path(path)  # drops "..", stays inside the directory

    def log_message(self, *args: object) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A page that leaves before a video has been sent is no error of the suite's."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def serve(root: Path, prefix: str) -> tuple[ThreadingHTTPServer, str]:
    """A server for ``root`` on 127.0.0.1 (a random port), running in a daemon thread."""
    handler = type("Handler", (_AssetHandler,), {"prefix": prefix})
    server = _QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}{prefix}"


# --------------------------------------------------------------------------- running cases


async def rule_mapping(
    browser: Browser, engine: str, judgment: bool = False
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Engine rule id -> ACT rule ids, as ``axe.getRules()`` reports them: of the bundle
    alone for axe-core, of the engine's injection (axe's rules and every check of ours
    registered with it) for the engine; the judgment checks only with ``judgment`` (they run
    only then). And engine rule id -> the success criteria its tags declare."""
    async with browser.context() as ctx, ctx.page() as page:
        world = await axe_world(page.session, page.main_frame_id)
        if engine == "axe":
            await evaluate(page.session, f"{load_bundle().source};0", world)
        else:
            await inject(page.session, world)
        rules = await evaluate(
            page.session, "axe.getRules().map(r => [r.ruleId, r.actIds || [], r.tags || []])", world
        )
    unasked = set() if judgment else {c.rule_id for c in CHECKS if c.judgment}
    mapping = {str(rule): list(ids) for rule, ids, _ in rules if ids and rule not in unasked}
    criteria = {str(rule): success_criteria(tags) for rule, _, tags in rules}
    if engine != "axe":  # the interactive checks act on the page after axe, outside it
        for check in INTERACTIVE:
            mapping[check.rule_id] = list(check.act_rules)
            criteria[check.rule_id] = success_criteria(check.tags)
    return mapping, criteria


def _add(table: dict[str, list[str]], key: str, values: Sequence[str]) -> None:
    bucket = table.setdefault(key, [])
    bucket.extend(v for v in values if v not in bucket)


async def run_engine_case(browser: Browser, url: str, request: AuditRequest, limits: EngineLimits) -> Ran:
    """Everything the engine reported on the page, by rule."""
    result = await run_audit(browser, request.model_copy(update={"url": url}), limits)
    ran = Ran()
    for finding in result.findings:
        ran.flagged[finding.rule_id] = "failed"
    for item in result.best_practices:
        if item.outcome == "violation":
            ran.flagged[item.rule_id] = "failed"
        else:
            ran.flagged.setdefault(item.rule_id, "cantTell")
    for item in result.needs_review:
        ran.flagged.setdefault(item.rule_id, "cantTell")
    for item in [*result.findings, *result.needs_review, *result.best_practices]:
        _add(ran.acts, item.rule_id, list(getattr(item, "act_rules", None) or []))
    for item in [*result.findings, *result.needs_review]:
        _add(ran.criteria, item.rule_id, item.success_criteria)
    return ran


async def run_axe_case(browser: Browser, url: str, rules: list[str], timeout: float) -> Ran:
    """act-runner's way: axe-core in the page's own world of every frame, ``axe.run`` with
    only the mapped rules, once the page settled."""
    source = load_bundle().source
    async with browser.context() as ctx, ctx.page() as page:
        await page.session.execute(page_domain.add_script_to_evaluate_on_new_document(source=source))
        await install_tracker(page)
        await page.navigate(url, wait_until="load", timeout=timeout)
        await settle(page)
        options = {"runOnly": {"type": "rule", "values": rules}, "resultTypes": ["violations", "incomplete"]}
        text = await page.evaluate(
            f"axe.run(document, {json.dumps(options)}).then(r => JSON.stringify("
            "{violations: r.violations.map(x => x.id), incomplete: r.incomplete.map(x => x.id)}))",
            timeout=timeout,
        )
    found = json.loads(text)
    ran = Ran(flagged={rule: "cantTell" for rule in found["incomplete"]})
    ran.flagged.update({rule: "failed" for rule in found["violations"]})
    return ran


def _declined(case: Case, failure: AuditFailed) -> bool:
    """The engine refused the case's document as not HTML (the SVG and XML cases): then no
    rule of ours applies to it."""
    return not case.runnable and "not an HTML page" in failure.message


async def run_all(
    args: argparse.Namespace, cases: list[Case], base: str
) -> tuple[dict[str, Ran], dict[str, list[str]], dict[str, list[str]]]:
    """The run of every case an engine rule maps (by case key); ACT rule -> the engine rules
    mapped to it; engine rule -> the criteria its tags declare."""
    runs: dict[str, Ran] = {}
    fields: dict[str, Any] = {
        "url": "http://127.0.0.1/", "version": args.version, "level": args.level, "bestPractices": not args.no_best_practices,
        "checks": {"interaction": args.engine != "axe"},  # the engine: its interactive checks too
    }
    if args.judgment:  # the questions without a judge: an unconfigured provider calls nobody
        fields["llm"] = {"enabled": True, "judgment": True, "provider": "openai-compatible"}
        environ.pop("A11Y_LLM_BASE_URL", None)
        environ["A11Y_LLM_IMAGES"] = "0"
    request = AuditRequest.model_validate(fields)
    limits = EngineLimits(
        navigation_timeout=args.timeout / 2, audit_timeout=args.timeout, concurrency=args.concurrency
    )
    async with launch() as browser:
        mapping, criteria = await rule_mapping(browser, args.engine, args.judgment)
        by_act: dict[str, list[str]] = {}
        for rule, acts in mapping.items():
            for act in acts:
                by_act.setdefault(act, []).append(rule)
        # act-runner runs only the HTML cases; the engine is given every case, and declines
        # the documents that are not HTML itself
        todo = [c for c in cases if c.rule_id in by_act and (c.runnable or args.engine != "axe")]
        axe_rules = sorted({r for c in todo for r in by_act[c.rule_id]})
        send, receive = trio.open_memory_channel[Case](len(todo))
        for case in todo:
            send.send_nowait(case)
        send.close()
        done = 0
        started = time.monotonic()

        async def worker() -> None:
            nonlocal done
            async for case in receive:
                url = base + case.path
                try:
                    with trio.fail_after(args.timeout + 10):
                        if args.engine == "axe":
                            runs[case.key] = await run_axe_case(browser, url, axe_rules, args.timeout)
                        else:
                            runs[case.key] = await run_engine_case(browser, url, request, limits)
                except AuditFailed as exc:
                    declined = _declined(case, exc)
                    runs[case.key] = Ran(declined=declined, error="" if declined else f"AuditFailed: {exc}"[:200])
                except (CDPError, trio.TooSlowError) as exc:
                    runs[case.key] = Ran(error=f"{type(exc).__name__}: {exc}"[:200])
                done += 1
                if args.progress and done % 25 == 0:
                    print(f"  {done}/{len(todo)} cases, {time.monotonic() - started:.0f} s", file=sys.stderr)

        async with trio.open_nursery() as nursery:
            for _ in range(args.concurrency):
                nursery.start_soon(worker)
    return runs, by_act, criteria


def procedures_of(cases: Sequence[Case], runs: Mapping[str, Ran], by_act: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """ACT rule -> its procedures: the engine rules mapped to it, and every rule whose items on
    one of its cases declared it (the results' own ``actRules``)."""
    found = {act: set(rules) for act, rules in by_act.items()}
    for case in cases:
        ran = runs.get(case.key)
        for rule, acts in (ran.acts if ran else {}).items():
            if case.rule_id in acts:
                found.setdefault(case.rule_id, set()).add(rule)
    return {act: sorted(rules) for act, rules in found.items()}


def criteria_of(declared: Mapping[str, Sequence[str]], runs: Mapping[str, Ran]) -> dict[str, list[str]]:
    """Engine rule -> its success criteria: its tags', and those of its items."""
    out: dict[str, list[str]] = {}
    for rule, criteria in declared.items():
        _add(out, rule, criteria)
    for ran in runs.values():
        for rule, criteria in ran.criteria.items():
            _add(out, rule, criteria)
    return out


def case_outcome(ran: Ran | None, procedures: Sequence[str]) -> Outcome:
    """The case's outcome under each procedure of its ACT rule, and all together (failed when
    one failed, else cantTell when one could not tell)."""
    if ran is None or ran.error:
        return Outcome("untested", error=ran.error if ran else "", procedures=dict.fromkeys(procedures, "untested"))
    if ran.declined:
        return Outcome("inapplicable", procedures=dict.fromkeys(procedures, "inapplicable"))
    each = {rule: ran.flagged.get(rule, "passed") for rule in procedures}
    flagged = sorted(rule for rule, outcome in each.items() if outcome != "passed")
    together = "failed" if "failed" in each.values() else "cantTell" if flagged else "passed"
    return Outcome(together, flagged, procedures=each)


# --------------------------------------------------------------------------- grading (act-tools)


@dataclass(frozen=True)
class Result:
    """A test case as act-tools grades it: expected outcome, whether the case is approved, and
    every outcome the procedure (or the set of procedures) asserted on it."""

    expected: str
    outcomes: tuple[str, ...] = ("untested",)
    approved: bool = False


@dataclass(frozen=True)
class Procedure:
    """One procedure of an ACT rule: its result on each of the rule's cases (in the rule's case
    order) and the success criteria (dotted numbers) its assertions are part of."""

    results: tuple[Result, ...]
    criteria: frozenset[str] = frozenset()

    @property
    def reported(self) -> frozenset[str]:
        """act-tools' "failed requirements": the criteria of its failed and cantTell outcomes
        (only WCAG 2 criteria reach the report)."""
        said = any(o in ("failed", "cantTell") for r in self.results for o in r.outcomes)
        return frozenset(c for c in self.criteria if c in act_earl.WCAG_CRITERIA) if said else frozenset()


_WCAG_KEY = re.compile(r"^wcag2\d:(.+)$", re.IGNORECASE)


def wcag_requirements(requirements: Mapping[str, Any] | None) -> tuple[frozenset[str], frozenset[str]]:
    """(every WCAG 2 criterion of an ACT rule, the ones that are not secondary) from its
    ``ruleAccessibilityRequirements``: keys ``wcag20:1.3.1``/``wcag21:…``/``wcag22:…`` (ARIA,
    technique and other keys are not criteria and count for nothing); a requirement is secondary
    when it has a ``secondary`` entry (an explanation, or ``true``), whatever its
    ``forConformance`` says."""
    every: set[str] = set()
    primary: set[str] = set()
    for key, requirement in (requirements or {}).items():
        match = _WCAG_KEY.match(key)
        if not match or match.group(1) not in act_earl.WCAG_CRITERIA:
            continue
        every.add(match.group(1))
        if not (isinstance(requirement, Mapping) and "secondary" in requirement):
            primary.add(match.group(1))
    return frozenset(every), frozenset(primary)


def maps_all_requirements(reported: Collection[str], requirements: Mapping[str, Any] | None) -> bool:
    """act-tools' test of the criteria: every non-secondary criterion of the ACT rule reported,
    and no WCAG criterion reported that the rule does not list (secondary ones may be)."""
    every, primary = wcag_requirements(requirements)
    normative = {c for c in reported if c in act_earl.WCAG_CRITERIA}
    return primary <= normative and normative <= every


def _counted(results: Sequence[Result]) -> list[Result]:
    """Only the approved cases, when the rule has any."""
    approved = [r for r in results if r.approved]
    return approved or list(results)


def procedure_consistency(
    results: Sequence[Result], reported: Collection[str], requirements: Mapping[str, Any] | None,
    *, ignore_criteria: bool = False,
) -> str | None:
    """act-tools' grade of one procedure: ``complete``, ``partial`` or None (``ignore_criteria``
    takes the criteria as right, to tell whether they are what keeps it from complete)."""
    results = _counted(results)
    if any(r.expected in ("passed", "inapplicable") and "failed" in r.outcomes for r in results):
        return None  # a false positive
    true_positive = any(r.expected == "failed" and "failed" in r.outcomes for r in results)
    untested = any("untested" in r.outcomes or not r.outcomes for r in results)
    missed = any(
        r.expected == "failed" and all(o in ("passed", "inapplicable", "untested") for o in r.outcomes)
        for r in results
    )
    criteria = ignore_criteria or maps_all_requirements(reported, requirements)
    if criteria and true_positive and not untested and not missed:
        return COMPLETE
    if true_positive:
        return PARTIAL
    cant_tell = any("cantTell" in r.outcomes for r in results)
    inapplicable_right = all(
        r.expected != "inapplicable" or all(o in ("passed", "inapplicable") for o in r.outcomes) for r in results
    )
    return PARTIAL if cant_tell and inapplicable_right else None


@dataclass
class Grade:
    consistency: str  # complete, partial, inconsistent, untested
    #: The procedures the grade is of (the best ones; every one when none is partial).
    procedures: list[str] = field(default_factory=list)
    #: The criteria those procedures reported, and the ones the ACT rule requires / allows.
    reported: list[str] = field(default_factory=list)
    required: list[str] = field(default_factory=list)
    allowed: list[str] = field(default_factory=list)
    criteria_right: bool = True
    #: Complete but for the criteria.
    criteria_block: bool = False


def _combined(procedures: Sequence[Procedure]) -> Procedure:
    results = tuple(
        Result(column[0].expected, tuple(o for r in column for o in r.outcomes), column[0].approved)
        for column in zip(*(p.results for p in procedures), strict=True)
    )
    return Procedure(results, frozenset().union(*(p.reported for p in procedures)))


def _sc_key(sc: str) -> tuple[int, ...]:
    return tuple(int(part) for part in sc.split(".") if part.isdigit())


def grade_rule(procedures: Mapping[str, Procedure], requirements: Mapping[str, Any] | None) -> Grade:
    """act-tools' grade of an ACT rule from its procedures: the best level any procedure has;
    the procedures at that level graded again together when it is partial (they can be
    complete together); ``inconsistent`` when none is even partial; ``untested`` with none."""
    every, primary = wcag_requirements(requirements)
    if not procedures:
        return Grade(UNTESTED, required=sorted(primary, key=_sc_key), allowed=sorted(every, key=_sc_key))
    levels = {name: procedure_consistency(p.results, p.reported, requirements) for name, p in procedures.items()}
    best = COMPLETE if COMPLETE in levels.values() else PARTIAL if PARTIAL in levels.values() else None
    chosen = [name for name, level in levels.items() if level == best]
    together = _combined([procedures[name] for name in chosen])
    if best == PARTIAL:
        best = procedure_consistency(together.results, together.reported, requirements)
    right = maps_all_requirements(together.reported, requirements)
    block = best != COMPLETE and not right and procedure_consistency(
        together.results, together.reported, requirements, ignore_criteria=True
    ) == COMPLETE
    return Grade(
        best or INCONSISTENT, chosen, sorted(together.reported, key=_sc_key),
        sorted(primary, key=_sc_key), sorted(every, key=_sc_key), right, block,
    )


# --------------------------------------------------------------------------- scoring


@dataclass
class RuleFigures:
    rule_id: str
    name: str
    approved: bool
    engine_rules: list[str]
    cases: int = 0
    agree: int = 0
    false_positives: int = 0
    false_negatives: int = 0
    true_positives: int = 0
    cant_tell: int = 0
    untested: int = 0
    consistency: str = UNTESTED
    grade: Grade | None = None
    misses: list[str] = field(default_factory=list)
    #: Inapplicable cases with an item of the rule (agreement under act-runner semantics, but a
    #: wrong applicability).
    flagged_inapplicable: list[str] = field(default_factory=list)


def score(
    cases: list[Case],
    outcomes: Mapping[str, Outcome],
    procedures: Mapping[str, Sequence[str]],
    criteria: Mapping[str, Sequence[str]],
    requirements: Mapping[str, Mapping[str, Any]],
) -> list[RuleFigures]:
    rules: dict[str, RuleFigures] = {}
    by_rule: dict[str, list[tuple[Case, Outcome]]] = {}
    for case in cases:
        figures = rules.setdefault(
            case.rule_id,
            RuleFigures(case.rule_id, case.rule_name, case.rule_approved, list(procedures.get(case.rule_id, []))),
        )
        outcome = outcomes.get(case.key) or Outcome("untested")
        by_rule.setdefault(case.rule_id, []).append((case, outcome))
        figures.cases += 1
        if outcome.outcome in AGREES[case.expected]:
            figures.agree += 1
        else:
            figures.misses.append(f"{case.title} ({case.expected}, got {outcome.outcome}"
                                  f"{' ' + outcome.error if outcome.error else ''}): {case.path}")
        figures.untested += outcome.outcome == "untested"
        figures.cant_tell += outcome.outcome == "cantTell"
        if case.expected == "inapplicable" and outcome.outcome not in ("passed", "inapplicable", "untested"):
            figures.flagged_inapplicable.append(f"{case.title}: {case.path}")
        figures.false_positives += case.expected != "failed" and outcome.outcome == "failed"
        figures.false_negatives += case.expected == "failed" and outcome.outcome in ("passed", "inapplicable", "untested")
        figures.true_positives += case.expected == "failed" and outcome.outcome == "failed"
    for rule_id, figures in rules.items():
        graded = {
            rule: Procedure(
                tuple(
                    Result(case.expected, (outcome.procedures.get(rule, "untested"),), case.approved)
                    for case, outcome in by_rule[rule_id]
                ),
                frozenset(criteria.get(rule, ())),
            )
            for rule in figures.engine_rules
        }
        figures.grade = grade_rule(graded, requirements.get(rule_id))
        figures.consistency = figures.grade.consistency
    return sorted(rules.values(), key=lambda f: (not f.engine_rules, f.rule_id))


def earl_assertions(
    cases: Sequence[Case], outcomes: Mapping[str, Outcome], procedures: Mapping[str, Sequence[str]],
    criteria: Mapping[str, Sequence[str]],
) -> list[act_earl.Assertion]:
    """One assertion per case run and procedure of its ACT rule (a case not run has none:
    act-tools counts it untested)."""
    return [
        act_earl.Assertion(case.url, rule, outcomes[case.key].procedures.get(rule, "untested"), tuple(criteria.get(rule, ())))
        for case in cases
        if case.key in outcomes
        for rule in procedures.get(case.rule_id, [])
    ]


# --------------------------------------------------------------------------- published figures


@dataclass(frozen=True)
class Published:
    """An implementation's figures on the W3C's pages: approved and proposed rules, each
    (complete, partial, inconsistent, untested)."""

    name: str
    version: str
    date: str
    kind: str
    approved: tuple[int, int, int, int]
    proposed: tuple[int, int, int, int]

    @property
    def consistent(self) -> int:
        return self.approved[0] + self.proposed[0]


#: Where :data:`PUBLISHED` comes from (``--reports`` reads the same files at run time).
PUBLISHED_SOURCE = (
    "w3c/wcag-act-rules 800c3b49 (2026-08-20): _data/wcag-act-rules/implementations/*.json "
    "(approvedRules, proposedRules), types from _data/wcag-act-rules/act-implementations.yml"
)
PUBLISHED: tuple[Published, ...] = (
    Published("UsableNet AQA - WCAG 2.2 AA Semi-auto", "2026.03 1.0.2", "7 May 2026", "Semi-automated tool", (35, 1, 0, 1), (23, 1, 1, 25)),
    Published("Alfa (semi-automated)", "0.118.0", "13 July 2026", "Semi-automated tool", (29, 0, 6, 2), (25, 4, 2, 19)),
    Published("Webmate Accessibility Workbench", "", "13 July 2026", "Automated tool", (33, 1, 0, 3), (15, 8, 1, 26)),
    Published("Total Validator (+Browser)", "17.4.0", "16 May 2026", "Automated tool", (33, 1, 0, 3), (10, 4, 1, 35)),
    Published("SortSite", "6.55", "9 June 2026", "Automated tool", (33, 1, 0, 3), (8, 1, 1, 40)),
    Published("Total Validator", "17.4.0", "16 May 2026", "Linter", (29, 1, 0, 7), (9, 4, 1, 36)),
    Published("UsableNet AQA - WCAG 2.2 AA Auto", "2026.03 1.0.2", "6 May 2026", "Automated tool", (32, 0, 0, 5), (6, 0, 0, 44)),
    Published("QualWeb", "3.0.0", "14 July 2026", "Automated tool", (23, 10, 0, 4), (9, 8, 16, 17)),
    Published("Axe DevTools Pro", "4.37.1", "30 October 2023", "Semi-automated tool", (29, 1, 6, 1), (3, 15, 6, 26)),
    Published("Alfa (fully automated)", "0.118.0", "13 July 2026", "Automated tool", (27, 2, 6, 2), (3, 7, 3, 37)),
    Published("Axe-core", "4.10.2", "2 November 2023", "Automated tool", (26, 1, 5, 5), (3, 11, 4, 32)),
    Published("Equal Access Accessibility Checker", "3.1.42-rc.0", "20 July 2026", "Automated tool", (21, 3, 7, 6), (2, 0, 3, 45)),
    Published("Trusted Tester", "5.1", "4 May 2023", "Test methodology", (6, 1, 1, 29), (5, 5, 2, 38)),
    Published("@accesslint/core", "0.21.0", "11 August 2026", "Automated tool", (5, 29, 0, 3), (0, 0, 0, 50)),
    Published("ember-template-lint", "5.5.1", "14 February 2023", "Linter", (0, 2, 12, 23), (0, 3, 3, 44)),
)

IMPLEMENTATIONS = "_data/wcag-act-rules/implementations"
IMPLEMENTATIONS_YML = "_data/wcag-act-rules/act-implementations.yml"


def _git(repo: Path, *argv: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={repo}", *argv], capture_output=True, text=True, check=True
    ).stdout


def _report_texts(path: Path) -> tuple[dict[str, str], str, str]:
    """The implementation reports under ``path`` (file stem -> JSON text), the text of
    act-implementations.yml if found, and what was read."""
    if (path / "HEAD").is_file() and (path / "objects").is_dir():  # a bare clone
        names = _git(path, "ls-tree", "--name-only", "HEAD", f"{IMPLEMENTATIONS}/").split()
        texts = {Path(n).stem: _git(path, "show", f"HEAD:{n}") for n in names if n.endswith(".json")}
        try:
            yml = _git(path, "show", f"HEAD:{IMPLEMENTATIONS_YML}")
        except subprocess.CalledProcessError:
            yml = ""
        commit = _git(path, "log", "-1", "--format=%h (%cs)").strip()
        return texts, yml, f"{path} {commit}: {IMPLEMENTATIONS}/*.json"
    for folder in (path, path / IMPLEMENTATIONS, path / "implementations"):
        files = sorted(folder.glob("*.json"))
        if files:
            texts = {f.stem: f.read_text(encoding="utf-8") for f in files}
            ymls = [p for p in (folder / "act-implementations.yml", folder.parent / "act-implementations.yml") if p.is_file()]
            return texts, ymls[0].read_text(encoding="utf-8") if ymls else "", f"{folder}/*.json"
    raise SystemExit(f"--reports: no implementation reports (*.json) in {path} or its {IMPLEMENTATIONS}")


def load_published(path: Path) -> tuple[list[Published], str]:
    """The published figures of every implementation report under ``path`` (a folder of the
    reports, a checkout of w3c/wcag-act-rules, or a bare clone), best first."""
    texts, yml, source = _report_texts(path)
    kinds: dict[str, str] = {}
    for entry in (yaml.safe_load(yml) if yml else None) or []:
        if isinstance(entry, Mapping) and entry.get("uniqueKey"):
            kinds[str(entry["uniqueKey"])] = str(entry.get("type") or "")
    found: list[Published] = []
    for stem, text in texts.items():
        data = json.loads(text)
        if not isinstance(data, Mapping) or "approvedRules" not in data:
            continue

        def four(stats: Mapping[str, int]) -> tuple[int, int, int, int]:
            return (stats.get(COMPLETE, 0), stats.get(PARTIAL, 0), stats.get(INCONSISTENT, 0), stats.get(UNTESTED, 0))

        found.append(Published(
            str(data.get("name") or stem), str(data.get("version") or ""), str(data.get("lastModified") or ""),
            kinds.get(stem, ""), four(data["approvedRules"]), four(data.get("proposedRules") or {}),
        ))
    found.sort(key=lambda p: -p.consistent)
    return found, source


# --------------------------------------------------------------------------- the report


def counts(
    figures: Sequence[RuleFigures], all_rules: Mapping[str, bool], name: str = "a11y (this run)", version: str = ""
) -> Published:
    """Our figures as the W3C pages count them: every ACT rule of the suite (``all_rules``:
    rule id -> approved), a rule this run left out being untested."""
    graded = {f.rule_id: f.consistency for f in figures}
    tally = {
        approved: Counter(graded.get(rule, UNTESTED) for rule, a in all_rules.items() if a == approved)
        for approved in (True, False)
    }

    def four(counter: Counter[str]) -> tuple[int, int, int, int]:
        return (counter[COMPLETE], counter[PARTIAL], counter[INCONSISTENT], counter[UNTESTED])

    return Published(name, version, date.today().isoformat(), "", four(tally[True]), four(tally[False]))


def print_table(ours: Published, published: Sequence[Published], source: str) -> None:
    """Our counts among the published ones, by consistent rules (complete approved + proposed)."""
    rows = sorted([*published, ours], key=lambda p: (-p.consistent, p is ours))
    n_approved, n_proposed = sum(ours.approved), sum(ours.proposed)
    print(f"W3C ACT implementation reports: approved ({n_approved}) and proposed ({n_proposed}) rules, "
          "complete / partial / inconsistent / untested; consistent = complete, approved + proposed")
    print(f"  {'implementation':40} {'version':14} {'type':20} {'approved C/P/I/U':>17} {'proposed C/P/I/U':>17} {'consistent':>10}")
    for p in rows:
        mark = ">" if p is ours else " "
        approved = "/".join(f"{n:>2}" for n in p.approved)
        proposed = "/".join(f"{n:>2}" for n in p.proposed)
        print(f"{mark} {p.name[:40]:40} {p.version[:14]:14} {p.kind[:20]:20} {approved:>17} {proposed:>17} {p.consistent:>10}")
    print(f"  published figures: {source}")


def report(figures: list[RuleFigures], axe_acts: set[str], show_misses: bool, judgment: bool = False) -> None:
    print(f"{'ACT rule':8} {'agree':>9} {'FP':>3} {'FN':>3} {'?':>3}  {'consistency':12} engine rules / name")
    for f in figures:
        rules = ",".join(f.engine_rules) or "-"
        print(f"{f.rule_id:8} {f.agree:>4}/{f.cases:<4} {f.false_positives:>3} {f.false_negatives:>3} "
              f"{f.cant_tell:>3}  {f.consistency:12} {rules}  ({f.name[:60]})")
        grade = f.grade
        if grade and grade.procedures and (grade.criteria_block or (show_misses and not grade.criteria_right)):
            print(f"           criteria: {', '.join(grade.procedures)} report {', '.join(grade.reported) or 'none'}; "
                  f"the ACT rule needs {', '.join(grade.required) or 'none'}"
                  f"{' (allows ' + ', '.join(grade.allowed) + ')' if set(grade.allowed) - set(grade.required) else ''}"
                  f"{': all that keeps it from complete' if grade.criteria_block else ''}")
        if judgment and f.engine_rules:
            print(f"           inapplicable flagged: {len(f.flagged_inapplicable)}")
        if show_misses:
            for miss in f.misses:
                print(f"           miss: {miss}")
            if judgment:
                for case in f.flagged_inapplicable:
                    print(f"           flagged inapplicable: {case}")
    print()
    axe_part = [f for f in figures if f.rule_id in axe_acts]
    other = [f for f in figures if f.rule_id not in axe_acts]
    mapped_other = [f for f in other if f.engine_rules]

    def total(part: list[RuleFigures]) -> str:
        agree, cases = sum(f.agree for f in part), sum(f.cases for f in part)
        return f"{agree}/{cases} ({100 * agree / cases:.1f}%)" if cases else "0/0"

    print(f"ACT rules axe-core itself maps ({len(axe_part)} rules): {total(axe_part)}")
    print(f"other ACT rules with a verdict ({len(mapped_other)} rules): {total(mapped_other)}; "
          f"at >= 90% agreement: {sum(1 for f in mapped_other if f.agree >= 0.9 * f.cases)}")
    print(f"all ACT rules ({len(figures)} rules, all cases, unmapped counted as misses): {total(figures)}")
    blocked = [f.rule_id for f in figures if f.grade and f.grade.criteria_block]
    if blocked:
        print(f"complete but for the success criteria reported ({len(blocked)}): {', '.join(blocked)}")
    print()


def _axe_own_acts(by_act: dict[str, list[str]]) -> set[str]:
    """The ACT rules axe-core itself maps: those of its rules' own ``actIds``, not the ids we add
    to its rules (adopted rules), so "outside axe's 50" counts what our additions bring."""
    added = act_rules_added()
    return {
        act for act, rules in by_act.items()
        if any(not r.startswith(OWN_PREFIX) and act not in added.get(r, ()) for r in rules)
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of w3c/wcag-act-rules")
    parser.add_argument("--engine", choices=("a11y", "axe"), default="a11y")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=40.0, help="seconds per case")
    parser.add_argument("--version", default="2.2")
    parser.add_argument("--level", default="AAA")
    parser.add_argument("--no-best-practices", action="store_true")
    parser.add_argument("--rules", default="", help="comma-separated ACT rule ids (default: all)")
    parser.add_argument("--misses", action="store_true",
                        help="list every case that disagrees, and every rule whose criteria are off")
    parser.add_argument("--json", type=Path, help="write per-case outcomes here")
    parser.add_argument("--earl", type=Path, help="write the run as an EARL (JSON-LD) report here")
    parser.add_argument("--reports", type=Path,
                        help="the published implementation reports to compare with (a folder of them, a checkout "
                             "of w3c/wcag-act-rules or a bare clone); default: the figures kept in this script")
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--judgment", action="store_true",
                        help="also run the judgment checks, unanswered (their items are cantTell)")
    args = parser.parse_args(argv)

    testcases = find_testcases(args.checkout.resolve())
    cases, prefix, requirements = load_cases(testcases)
    all_rules = {c.rule_id: c.rule_approved for c in cases}
    if args.rules:
        wanted = {r.strip() for r in args.rules.split(",") if r.strip()}
        cases = [c for c in cases if c.rule_id in wanted]
    published, source = load_published(args.reports) if args.reports else (list(PUBLISHED), PUBLISHED_SOURCE)
    server, base = serve(testcases.parent, prefix)
    started = time.monotonic()
    try:
        runs, by_act, declared = trio.run(run_all, args, cases, base)
    finally:
        server.shutdown()
    procedures = procedures_of(cases, runs, by_act)
    criteria = criteria_of(declared, runs)
    outcomes = {c.key: case_outcome(runs[c.key], procedures.get(c.rule_id, [])) for c in cases if c.key in runs}
    axe_acts = _axe_own_acts(by_act)
    figures = score(cases, outcomes, procedures, criteria, requirements)
    axe_version = load_bundle().version
    print(f"engine {args.engine}, WCAG {args.version} {args.level}, axe-core {axe_version}, "
          f"{len(outcomes)} cases in {time.monotonic() - started:.0f} s\n")
    report(figures, axe_acts, args.misses, args.judgment)
    name, version = ("a11y", package_version()) if args.engine == "a11y" else ("axe-core", axe_version)
    print_table(counts(figures, all_rules, f"{name} (this run)", version), published, source)
    if args.rules:
        print(f"  this run: {len({c.rule_id for c in cases})} of the suite's {len(all_rules)} ACT rules; "
              "the others count as untested")
    if args.earl:
        written = act_earl.write_earl(
            args.earl, earl_assertions(cases, outcomes, procedures, criteria), name, version,
            description=f"{name} {version}, axe-core {axe_version}: WCAG {args.version} {args.level}"
                        f"{', best practices' if not args.no_best_practices else ''}"
                        f"{', judgment checks unanswered' if args.judgment else ''} (scripts/act_conformance.py)",
            created=date.today().isoformat(),
        )
        subjects = len(written["@graph"]) - 1
        print(f"  EARL report: {args.earl} ({subjects} test subjects, "
              f"{sum(len(s['assertions']) for s in written['@graph'][1:])} assertions)")
    if args.json:
        args.json.write_text(json.dumps(
            {"outcomes": {k: asdict(v) for k, v in outcomes.items()}, "rules": [asdict(f) for f in figures]}, indent=1
        ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
