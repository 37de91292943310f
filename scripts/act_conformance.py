#!/usr/bin/env python3
"""Agreement of the audit engine with the W3C ACT Rules test cases, as the implementation
reports of w3c/wcag-act-rules measure it.

    .venv/bin/python scripts/act_conformance.py /tmp/act                  # the engine
    .venv/bin/python scripts/act_conformance.py /tmp/act --engine axe     # raw axe-core
    .venv/bin/python scripts/act_conformance.py /tmp/act --rules 047fe0,2ee8b8 --misses
    .venv/bin/python scripts/act_conformance.py /tmp/act --judgment --rules c4a8a4,b49b2e

The argument is a checkout of w3c/wcag-act-rules (nothing of it is copied into this repo): its
``content-assets/wcag-act-rules/testcases.json`` lists every test case (ACT rule id, expected
outcome ``passed``/``failed``/``inapplicable``, the HTML file). The files are served from a
local HTTP server on 127.0.0.1 under the path the cases' own URLs use (``/WAI/content-assets/
wcag-act-rules/``, where their absolute asset links point), and each case is audited on its
own page by :func:`audit.engine.run_audit` (WCAG 2.2 AAA and best practices by default, so
every rule with an ACT mapping runs), a few at a time in one browser.

Scoring follows axe-core's act-runner: for an ACT rule, a case *fails* when an item of an
engine rule mapped to that ACT rule (an axe rule's ``actIds``, or one of our own checks'
declared ACT ids; read from ``axe.getRules()`` after the engine's injection) is on the page. A
finding is the outcome ``failed``, a needs-review item alone ``cantTell``, nothing ``passed``.
A case agrees when an expected failure was flagged (failed or cantTell), or an expected pass or
inapplicable case has no finding. Only HTML cases run (act-runner skips the SVG and XML ones);
an ACT rule nothing maps to is ``untested``.

Per ACT rule the consistency is that of the W3C reports (act-tools): *inconsistent* when some
passed or inapplicable case failed (a false positive) or no expected failure was found;
*consistent* when, besides, every expected failure was found and every case has an outcome;
else *partial* (a rule found only as cantTell, with no wrong inapplicable case, counts as
partial too: the reports' "minimal"). Prints figures; asserts nothing.

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
import sys
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from os import PathLike, environ
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import trio

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
from audit.interactive import interactive_act_rules  # noqa: E402
from audit.models import AuditRequest  # noqa: E402
from audit.readiness import install_tracker, settle  # noqa: E402
from cdpdriver import Browser, CDPError, evaluate, launch  # noqa: E402
from cdpdriver.protocol import page as page_domain  # noqa: E402

TESTCASES = "testcases.json"
#: The rule ids of our own checks; every other rule is axe-core's.
OWN_PREFIX = "a11y-"
HTML_SUFFIXES = (".html", ".htm", ".xhtml")
AGREES = {"failed": ("failed", "cantTell"), "passed": ("passed", "cantTell"), "inapplicable": ("passed", "cantTell")}


@dataclass(frozen=True)
class Case:
    rule_id: str
    rule_name: str
    rule_approved: bool
    testcase_id: str
    title: str
    expected: str
    path: str  # relative to the asset root

    @property
    def key(self) -> str:
        """Unique per case: one file can be a case of several rules (the same testcaseId)."""
        return f"{self.rule_id}/{self.testcase_id}"

    @property
    def runnable(self) -> bool:
        return self.path.lower().endswith(HTML_SUFFIXES)


@dataclass
class Outcome:
    outcome: str  # failed, cantTell, passed, untested
    rules: list[str] = field(default_factory=list)
    error: str = ""


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


def load_cases(testcases: Path) -> tuple[list[Case], str]:
    """The cases and the URL path their asset root is published under (what absolute links
    inside the cases point to)."""
    data = json.loads(testcases.read_text(encoding="utf-8"))
    rule_approved: dict[str, bool] = {}
    cases: list[Case] = []
    prefix = ""
    for item in data["testcases"]:
        rel = item["relativePath"]
        url_path = urlsplit(item.get("url", "")).path
        if not prefix and url_path.endswith(rel):
            prefix = url_path[: -len(rel)]
        rule_approved.setdefault(item["ruleId"], bool(item.get("approved")))
        cases.append(
            Case(
                rule_id=item["ruleId"],
                rule_name=item.get("ruleName", ""),
                rule_approved=rule_approved[item["ruleId"]],
                testcase_id=item["testcaseId"],
                title=item.get("testcaseTitle", ""),
                expected=item["expected"],
                path=rel,
            )
        )
    return cases, prefix or "/"


class _AssetHandler(SimpleHTTPRequestHandler):
    """Files under the asset root, at ``prefix`` (the path the suite's URLs use) and at /,
    text declared UTF-8 as the W3C's server does (several cases have no ``<meta charset>``,
    and read as windows-1252 their symbols turn into letters)."""

    prefix = "/"

    def guess_type(self, path: str | PathLike[str]) -> str:
        kind = super().guess_type(path)
        textual = kind.startswith("text/") or kind.endswith(("+xml", "/xml", "/javascript"))
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


async def rule_mapping(browser: Browser, engine: str, judgment: bool = False) -> dict[str, list[str]]:
    """Engine rule id -> ACT rule ids, as ``axe.getRules()`` reports them: of the bundle
    alone for axe-core, of the engine's injection (axe's rules and every check of ours
    registered with it) for the engine; the judgment checks only with ``judgment`` (they run
    only then)."""
    async with browser.context() as ctx, ctx.page() as page:
        world = await axe_world(page.session, page.main_frame_id)
        if engine == "axe":
            await evaluate(page.session, f"{load_bundle().source};0", world)
        else:
            await inject(page.session, world)
        rules = await evaluate(
            page.session, "axe.getRules().map(r => [r.ruleId, r.actIds || []])", world
        )
    unasked = set() if judgment else {c.rule_id for c in CHECKS if c.judgment}
    mapping = {str(rule): list(ids) for rule, ids in rules if ids and rule not in unasked}
    if engine != "axe":  # the interactive checks act on the page after axe, outside it
        mapping.update(interactive_act_rules())
    return mapping


def _outcome(flagged: dict[str, str]) -> Outcome:
    """``flagged``: engine rule -> "failed" or "cantTell" for one ACT rule's rules."""
    if not flagged:
        return Outcome("passed")
    kind = "failed" if "failed" in flagged.values() else "cantTell"
    return Outcome(kind, sorted(flagged))


async def run_engine_case(browser: Browser, url: str, request: AuditRequest, limits: EngineLimits) -> dict[str, Any]:
    """Rule id -> outcome of everything the engine reported on the page."""
    result = await run_audit(browser, request.model_copy(update={"url": url}), limits)
    flagged: dict[str, str] = {}
    for finding in result.findings:
        flagged[finding.rule_id] = "failed"
    for item in result.best_practices:
        if item.outcome == "violation":
            flagged[item.rule_id] = "failed"
        else:
            flagged.setdefault(item.rule_id, "cantTell")
    for item in result.needs_review:
        flagged.setdefault(item.rule_id, "cantTell")
    acts: dict[str, list[str]] = {}
    for item in [*result.findings, *result.needs_review, *result.best_practices]:
        acts.setdefault(item.rule_id, list(getattr(item, "act_rules", None) or []))
    return {"flagged": flagged, "acts": acts}


async def run_axe_case(browser: Browser, url: str, rules: list[str], timeout: float) -> dict[str, Any]:
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
    flagged = {rule: "cantTell" for rule in found["incomplete"]}
    flagged.update({rule: "failed" for rule in found["violations"]})
    return {"flagged": flagged, "acts": {}}


async def run_all(args: argparse.Namespace, cases: list[Case], base: str) -> tuple[dict[str, Outcome], dict[str, list[str]]]:
    """Outcome per test case id for its ACT rule; and the mapping used."""
    outcomes: dict[str, Outcome] = {}
    fields: dict[str, Any] = {
        "url": "http://127.0.0.1/", "version": args.version, "level": args.level, "bestPractices": not args.no_best_practices
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
        mapping = await rule_mapping(browser, args.engine, args.judgment)
        by_act: dict[str, list[str]] = {}
        for rule, acts in mapping.items():
            for act in acts:
                by_act.setdefault(act, []).append(rule)
        todo = [c for c in cases if c.runnable and c.rule_id in by_act]
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
                            ran = await run_axe_case(browser, url, axe_rules, args.timeout)
                        else:
                            ran = await run_engine_case(browser, url, request, limits)
                    mine = set(by_act[case.rule_id])
                    for rule, acts in ran["acts"].items():  # the results' own actRules, if any
                        if case.rule_id in acts:
                            mine.add(rule)
                    outcomes[case.key] = _outcome({r: o for r, o in ran["flagged"].items() if r in mine})
                except (AuditFailed, CDPError, trio.TooSlowError) as exc:
                    outcomes[case.key] = Outcome("untested", error=f"{type(exc).__name__}: {exc}"[:200])
                done += 1
                if args.progress and done % 25 == 0:
                    print(f"  {done}/{len(todo)} cases, {time.monotonic() - started:.0f} s", file=sys.stderr)

        async with trio.open_nursery() as nursery:
            for _ in range(args.concurrency):
                nursery.start_soon(worker)
    return outcomes, by_act


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
    consistency: str = "untested"
    misses: list[str] = field(default_factory=list)
    #: Inapplicable cases with an item of the rule (agreement under act-runner semantics, but a
    #: wrong applicability).
    flagged_inapplicable: list[str] = field(default_factory=list)


def consistency(results: list[tuple[str, str]], mapped: bool) -> str:
    """act-tools' classification of one ACT rule from (expected, outcome) pairs."""
    if not mapped:
        return "untested"
    if any(exp != "failed" and out == "failed" for exp, out in results):
        return "inconsistent"
    true_positive = any(exp == "failed" and out == "failed" for exp, out in results)
    false_negative = any(exp == "failed" and out in ("passed", "untested") for exp, out in results)
    untested = any(out == "untested" for _, out in results)
    if true_positive and not false_negative and not untested:
        return "consistent"
    if true_positive:
        return "partial"
    cant_tell = any(out == "cantTell" for _, out in results)
    if cant_tell and all(out != "failed" for exp, out in results if exp == "inapplicable"):
        return "partial"  # the reports' "minimal"
    return "inconsistent"


def score(cases: list[Case], outcomes: dict[str, Outcome], by_act: dict[str, list[str]]) -> list[RuleFigures]:
    rules: dict[str, RuleFigures] = {}
    pairs: dict[str, list[tuple[str, str]]] = {}
    for case in cases:
        if not case.runnable:
            continue
        figures = rules.setdefault(
            case.rule_id,
            RuleFigures(case.rule_id, case.rule_name, case.rule_approved, sorted(by_act.get(case.rule_id, []))),
        )
        outcome = outcomes.get(case.key, Outcome("untested"))
        figures.cases += 1
        pairs.setdefault(case.rule_id, []).append((case.expected, outcome.outcome))
        if outcome.outcome in AGREES[case.expected]:
            figures.agree += 1
        else:
            figures.misses.append(f"{case.title} ({case.expected}, got {outcome.outcome}"
                                  f"{' ' + outcome.error if outcome.error else ''}): {case.path}")
        figures.untested += outcome.outcome == "untested"
        figures.cant_tell += outcome.outcome == "cantTell"
        if case.expected == "inapplicable" and outcome.outcome not in ("passed", "untested"):
            figures.flagged_inapplicable.append(f"{case.title}: {case.path}")
        figures.false_positives += case.expected != "failed" and outcome.outcome == "failed"
        figures.false_negatives += case.expected == "failed" and outcome.outcome in ("passed", "untested")
        figures.true_positives += case.expected == "failed" and outcome.outcome == "failed"
    for rule_id, figures in rules.items():
        figures.consistency = consistency(pairs[rule_id], bool(figures.engine_rules))
    return sorted(rules.values(), key=lambda f: (not f.engine_rules, f.rule_id))


def report(figures: list[RuleFigures], axe_acts: set[str], show_misses: bool, judgment: bool = False) -> None:
    print(f"{'ACT rule':8} {'agree':>9} {'FP':>3} {'FN':>3} {'?':>3}  {'consistency':12} engine rules / name")
    for f in figures:
        rules = ",".join(f.engine_rules) or "-"
        print(f"{f.rule_id:8} {f.agree:>4}/{f.cases:<4} {f.false_positives:>3} {f.false_negatives:>3} "
              f"{f.cant_tell:>3}  {f.consistency:12} {rules}  ({f.name[:60]})")
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
    print(f"all ACT rules ({len(figures)} rules, HTML cases, unmapped counted as misses): {total(figures)}")
    for label, group in (("approved", [f for f in figures if f.approved]), ("proposed", [f for f in figures if not f.approved])):
        counts = Counter(f.consistency for f in group)
        print(f"{label} rules: " + ", ".join(f"{k} {counts.get(k, 0)}" for k in ("consistent", "partial", "inconsistent", "untested")))


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
    parser.add_argument("--misses", action="store_true", help="list every case that disagrees")
    parser.add_argument("--json", type=Path, help="write per-case outcomes here")
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--judgment", action="store_true",
                        help="also run the judgment checks, unanswered (their items are cantTell)")
    args = parser.parse_args(argv)

    testcases = find_testcases(args.checkout.resolve())
    cases, prefix = load_cases(testcases)
    if args.rules:
        wanted = {r.strip() for r in args.rules.split(",") if r.strip()}
        cases = [c for c in cases if c.rule_id in wanted]
    server, base = serve(testcases.parent, prefix)
    started = time.monotonic()
    try:
        outcomes, by_act = trio.run(run_all, args, cases, base)
    finally:
        server.shutdown()
    axe_acts = _axe_own_acts(by_act)
    figures = score(cases, outcomes, by_act)
    print(f"engine {args.engine}, WCAG {args.version} {args.level}, axe-core {load_bundle().version}, "
          f"{len(outcomes)} cases in {time.monotonic() - started:.0f} s\n")
    report(figures, axe_acts, args.misses, args.judgment)
    if args.json:
        args.json.write_text(json.dumps(
            {"outcomes": {k: asdict(v) for k, v in outcomes.items()}, "rules": [asdict(f) for f in figures]}, indent=1
        ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
