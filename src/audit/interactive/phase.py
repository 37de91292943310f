"""The interaction phase: after the static pass, use the page and report what that shows.

The engine calls :func:`interact` once a page's axe run is done (its results are never
touched by what happens here). The selected checks (:func:`~audit.interactive.selected`, by
the request's version and level) run one after another, cheap ones first, each through the
same :class:`~audit.interactive.probe.Probe`, all within one time budget per page: a check
still running when it ends is stopped, keeps what it found, and is reported as skipped with the
reason ``budget``. Before anything acts, every form submission of the document is stopped and
counted (``js/submission_guard.js``), so no action ever sends a form to a server; popups a
check's action opens are closed; and a check whose action navigated the page ends the phase,
which then loads the audited URL again so that what follows (identifying the findings'
elements, their screenshots) finds the document it expects.

Outcomes become rule results of axe's shape (:func:`results_of`): ``failed`` in
``violations``, ``cantTell`` in ``incomplete``, and a rule that applied in ``passes``, so the
pure half of the package (findings, score, ``rulesTested``, fingerprints, reports) needs nothing
new. The screenshots a check took of the state it found a barrier in (``Outcome.shot``) are
handed on by rule and selector (:func:`state_shots_of`), for the run's screenshots to show in
place of shots of the restored page.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

import trio

from cdpdriver import CDPError, JavaScriptError, Page
from cdpdriver.scripts import call_expression, load_script

from ..findings import selector_from_target
from ..models import InteractionInfo, InteractionSkip
from ..screenshots import ScreenshotPolicy, StateKey, StateShot
from ..urls import without_credentials
from .probe import CALL_TIMEOUT, PreparedWorld, Probe
from .scans import prefetch
from .spec import CannotAct, InteractiveCheck, Outcome

log = logging.getLogger(__name__)

#: A page's whole interaction phase at most, by default: a cap for pages that fight back
#: (endless dialogs, a busy main thread), well above what the checks cost a typical page even
#: on a loaded machine, so that a result does not depend on the machine's load (README,
#: Interactive checks, has the measured cost).
DEFAULT_BUDGET = 10.0
#: Loading the audited URL again after a check navigated away.
RELOAD_TIMEOUT = 15.0

_KEYS = {"failed": "violations", "cantTell": "incomplete", "passed": "passes"}


@dataclass
class InteractionReport:
    """What one page's phase produced: rule results of axe's shape and what it did."""

    results: dict[str, list[dict[str, Any]]] = field(
        default_factory=lambda: {"violations": [], "incomplete": [], "passes": []}
    )
    info: InteractionInfo = field(default_factory=InteractionInfo)
    #: The checks' state shots by (rule id, selector): see :func:`state_shots_of`.
    state_shots: dict[StateKey, StateShot] = field(default_factory=dict)


def results_of(
    outcomes: Iterable[tuple[InteractiveCheck, Outcome]],
) -> dict[str, list[dict[str, Any]]]:
    """Rule results of axe's shape from outcomes: a rule appears once per list, with a node per
    failed or undecided target; a rule with only passed outcomes is listed in ``passes``. An
    outcome of another rule (:class:`~.spec.Outcome` ``rule``) is listed under that rule, its
    ``node`` kept as it is."""
    rules: dict[str, dict[str, Any]] = {}
    nodes: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for check, outcome in outcomes:
        key = _KEYS[outcome.verdict]
        rule = {**outcome.rule, "nodes": []} if outcome.rule is not None else check.axe_rule(())
        rules.setdefault(str(rule["id"]), rule)
        target = nodes[(key, str(rule["id"]))]
        if key == "passes":
            continue  # the score and rulesTested need the rule, not its elements
        if outcome.node is not None:
            target.append(dict(outcome.node))
            continue
        target.append(
            {
                "target": list(outcome.target.hops),
                "html": outcome.target.html,
                "impact": check.impact,
                "failureSummary": outcome.message,
                "any": [{"message": outcome.message}] if outcome.message else [],
                "all": [],
                "none": [],
            }
        )
    results: dict[str, list[dict[str, Any]]] = {"violations": [], "incomplete": [], "passes": []}
    for (key, rule_id), found in nodes.items():
        results[key].append({**rules[rule_id], "nodes": found})
    return results


def state_shots_of(
    outcomes: Iterable[tuple[InteractiveCheck, Outcome]],
) -> dict[StateKey, StateShot]:
    """The state shots of failed and undecided outcomes by the (rule id, selector) their
    finding will have (the rule and target :func:`results_of` reports them under): the first
    of each, as the finding is the first of its rule and selector."""
    shots: dict[StateKey, StateShot] = {}
    for check, outcome in outcomes:
        if outcome.shot is None or outcome.verdict == "passed":
            continue
        rule_id = str(outcome.rule["id"]) if outcome.rule is not None else check.rule_id
        hops = outcome.node.get("target") if outcome.node is not None else list(outcome.target.hops)
        shots.setdefault((rule_id, selector_from_target(hops)), outcome.shot)
    return shots


def merged(static: dict[str, Any], interactive: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """axe's results with the interaction phase's rules added (a new dict; axe's lists kept).

    A node the static results already list, under the same key for the same rule and target,
    is left out (a check that runs axe again on content it revealed may meet an element axe
    judged before, e.g. a hidden one that a rule checks regardless), and so is a violation or
    incomplete rule left with no node."""
    seen = {
        (key, rule.get("id"), _target_key(node))
        for key in interactive
        for rule in static.get(key) or []
        for node in rule.get("nodes") or []
    }
    added: dict[str, list[dict[str, Any]]] = {}
    for key, rules in interactive.items():
        added[key] = []
        for rule in rules:
            nodes = [
                n
                for n in rule.get("nodes") or []
                if (key, rule.get("id"), _target_key(n)) not in seen
            ]
            if nodes or key == "passes":
                added[key].append({**rule, "nodes": nodes} if key != "passes" else rule)
    return {**static, **{key: [*(static.get(key) or []), *rules] for key, rules in added.items()}}


def _target_key(node: Any) -> str:
    return json.dumps(node.get("target") if isinstance(node, dict) else None)


async def interact(
    page: Page,
    url: str,
    checks: Sequence[InteractiveCheck],
    budget: float = DEFAULT_BUDGET,
    *,
    axe_options: Mapping[str, Any] | None = None,
    prepared: PreparedWorld | None = None,
    shots: ScreenshotPolicy | None = None,
) -> InteractionReport:
    """Run ``checks`` on the loaded ``page`` within ``budget`` seconds (see the module
    docstring); ``axe_options`` are the request's axe-core options (the static pass's), for
    checks that run axe again on what they revealed (:meth:`Probe.axe`); ``prepared`` the
    interaction world made while the page settled (:func:`~.probe.prepare_world`); ``shots``
    the run's screenshot policy, None when it takes none (then no state shot is taken). Never
    raises for what the page does; cancellation from outside gets through."""
    report = InteractionReport()
    probe = Probe(
        page,
        url,
        trio.current_time() + budget,
        axe_options=axe_options,
        prepared=prepared,
        shots=shots,
        rules=[check.rule_id for check in checks],
    )
    outcomes: list[tuple[InteractiveCheck, Outcome]] = []
    try:
        with trio.fail_after(CALL_TIMEOUT):
            await probe.main_world(call_expression(load_script(__package__, "submission_guard")))
            await probe.call(load_script(__package__, "phase_begin"))
    except (CDPError, JavaScriptError, trio.TooSlowError) as exc:
        report.info.skipped = [
            _skip(c, "unresponsive", f"The page did not answer: {exc}") for c in checks
        ]
        return report
    ordered = sorted(checks, key=_order)
    try:  # the checks' first reads, in one call (a check whose read is missing reads itself)
        await prefetch(probe, [check.scan for check in ordered if check.scan is not None])
    except (CDPError, trio.TooSlowError) as exc:
        log.debug("the checks' first reads were not made together on %s: %s", without_credentials(url), exc)
    opened_before = await _popups(page)
    spent: dict[str, float] = {}  # seconds per check, logged at debug level as the phases are
    for index, check in enumerate(ordered):
        if probe.navigated:
            report.info.skipped += [
                _skip(c, "navigated", "An earlier check's action left the page.")
                for c in ordered[index:]
            ]
            break
        if probe.remaining() <= 0:
            report.info.skipped += [
                _skip(c, "budget", f"The page's {budget:g} s of interaction ran out.")
                for c in ordered[index:]
            ]
            break
        started = trio.current_time()
        following = ordered[index + 1] if index + 1 < len(ordered) else None
        probe.hold_screen = _goes_on(check, following)
        skip = await _run_one(probe, check, outcomes)
        spent[check.rule_id] = round(trio.current_time() - started, 4)
        if skip is None:
            report.info.ran.append(check.rule_id)
        else:
            report.info.skipped.append(skip)
    await _tidy(probe, opened_before)
    log.debug("interactive checks on %s: %s", without_credentials(url), spent)
    report.info.blocked_submissions = await _blocked_submissions(probe)
    report.results = results_of(outcomes)
    report.state_shots = state_shots_of(outcomes)
    return report


async def _run_one(
    probe: Probe, check: InteractiveCheck, outcomes: list[tuple[InteractiveCheck, Outcome]]
) -> InteractionSkip | None:
    """One check, its outcomes appended as they come (kept when it is stopped)."""
    probe.begin_check()
    with trio.move_on_at(probe.deadline) as scope:
        try:
            async with aclosing(check.run(probe)) as run:
                async for outcome in run:
                    outcomes.append((check, outcome))
        except (CDPError, trio.TooSlowError) as exc:
            if probe.navigated:
                return _skip(check, "navigated", "Its action left the page.")
            return _skip(check, "unresponsive", f"The page stopped answering: {exc}")
        except JavaScriptError as exc:
            if probe.navigated:
                return _skip(check, "navigated", "Its action left the page.")
            log.info("interactive check %s failed on %s: %s", check.rule_id, without_credentials(probe.url), exc)
            return _skip(check, "failed", f"Its page-side part failed: {exc}")
        except CannotAct as exc:
            return _skip(check, "unsupported", str(exc))
    if scope.cancelled_caught:
        return _skip(check, "budget", "The page's interaction time ran out while it ran.")
    return None


def _order(check: InteractiveCheck) -> tuple[bool, bool, tuple[int, ...]]:
    """Cheap checks first, then the relayouts: those at the page's own size, then those in a
    window of their own (``screen``), the widest first. The phase goes from one window
    straight to the next (:meth:`Probe.screen`), and only ever narrower and lower: every
    width or height at which the page's scripts change the layout (a menu folded below
    768 px) is crossed in the same direction, as from the page's own size."""
    return check.cost != "low", check.screen is not None, tuple(-side for side in check.screen or ())


def _goes_on(check: InteractiveCheck, following: InteractiveCheck | None) -> bool:
    """Whether the page may go from ``check``'s window straight to the next check's: only to
    one no wider and no higher (see :func:`_order`)."""
    if check.screen is None or following is None or following.screen is None:
        return False
    return all(next_side <= side for side, next_side in zip(check.screen, following.screen, strict=True))


def _skip(check: InteractiveCheck, reason: Any, message: str) -> InteractionSkip:
    return InteractionSkip(rule_id=check.rule_id, reason=reason, message=message)


async def _popups(page: Page) -> set[str]:
    """Ids of the page targets the audited page opened."""
    try:
        with trio.fail_after(CALL_TIMEOUT):
            targets = await page.browser.targets()
    except (CDPError, trio.TooSlowError):
        return set()
    return {
        str(t.target_id)
        for t in targets
        if t.type == "page" and str(t.opener_id or "") == page.session.target_id
    }


async def _tidy(probe: Probe, opened_before: set[str]) -> None:
    """Leave the page as the checks found it: its own screen size, popups their actions
    opened closed, focus and pointer off every element, scrolled to the top, the audited
    document loaded."""
    page = probe.page
    with trio.CancelScope(shield=True), trio.move_on_after(RELOAD_TIMEOUT + CALL_TIMEOUT):
        try:  # a window the last check left the page in (Probe.hold_screen)
            await probe.release_screen()
        except (CDPError, trio.TooSlowError):
            pass
        for target_id in await _popups(page) - opened_before:
            try:
                await page.browser.session.send(
                    "Target.closeTarget", {"targetId": target_id}, timeout=CALL_TIMEOUT
                )
            except CDPError:
                pass
        if probe.navigated:
            try:
                await page.navigate(probe.url, wait_until="load", timeout=RELOAD_TIMEOUT)
            except Exception as exc:  # the engine's identify step falls back without the document
                log.info("reloading %s after an interaction failed: %s", without_credentials(probe.url), exc)
            return
        try:
            probe.deadline = trio.current_time() + CALL_TIMEOUT
            if probe.pointer_moved:  # a mouse event waits for the page's next frame
                await probe.move_mouse(0, 0)
            await probe.call(load_script(__package__, "reset_page"))
        except (CDPError, JavaScriptError, trio.TooSlowError):
            pass


async def _blocked_submissions(probe: Probe) -> int:
    if probe.navigated:
        return 0
    try:
        with trio.move_on_after(CALL_TIMEOUT):
            return int(
                await probe.main_world("window[Symbol.for('a11y.blockedSubmissions')] || 0") or 0
            )
    except (CDPError, JavaScriptError):
        pass
    return 0
