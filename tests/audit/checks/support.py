"""Helpers for the checks' tests: serve a few pages, audit them in one shared browser (a few
at a time), and read one rule's outcome off each result; raw axe-core alone, for showing what
an override changes."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import trio

from audit import engine, interactive
from audit.axe_bundle import load_bundle
from audit.engine import EngineLimits, run_audit
from audit.models import AuditResult
from audit.readiness import install_tracker, settle
from cdpdriver import Browser
from cdpdriver.protocol.page import add_script_to_evaluate_on_new_document
from tests.audit.support import make_request
from tests.support.site import Site

LIMITS = EngineLimits(navigation_timeout=15, audit_timeout=60)
#: The checks' pages are audited with the interaction phase on, so that every check of ours,
#: static or interactive, is held to the same pages (the clean ones included).
INTERACTIVE = {"interaction": True}
AT_ONCE = 3


def interactive_alone(monkeypatch: Any, rule_id: str, *, budget: float = 10.0) -> None:
    """Run the interaction phase with the check ``rule_id`` alone and ``budget`` seconds: on a
    loaded machine the other checks' time and the phase's budget, not the page, would decide
    how far a check gets. Its own time caps are the test's to raise, the budget the phase's
    tests' to test."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == rule_id])
    monkeypatch.setattr(sys.modules[__name__], "LIMITS", dataclasses.replace(LIMITS, interaction_budget=budget))


def page(body: str, title: str = "A test page", head: str = "") -> str:
    """A small HTML document in English around ``body``."""
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"{head}</head><body>{body}</body></html>"
    )


@dataclass
class Outcome:
    """What one audit says about one rule: its findings, needs-review items and whether the
    rule applied at all."""

    findings: list = field(default_factory=list)
    review: list = field(default_factory=list)
    tested: bool = False

    @property
    def clean(self) -> bool:
        return not self.findings and not self.review


def outcome(result: AuditResult, rule_id: str) -> Outcome:
    return Outcome(
        [f for f in result.findings if f.rule_id == rule_id],
        [r for r in result.needs_review if r.rule_id == rule_id],
        rule_id in result.pages[0].rules_tested,
    )


async def audit_pages(
    browser: Browser, site: Site, prefix: str, pages: Mapping[str, str], **request: object
) -> dict[str, AuditResult]:
    """Each page served at ``/{prefix}/{name}`` and audited on its own, ``AT_ONCE`` at a time."""
    results: dict[str, AuditResult] = {}
    limiter = trio.CapacityLimiter(AT_ONCE)

    async def one(name: str, html: str) -> None:
        url = site.route(f"/{prefix}/{name}", html)
        async with limiter:
            results[name] = await run_audit(browser, make_request(url, **{"checks": INTERACTIVE, **request}), LIMITS)

    async with trio.open_nursery() as nursery:
        for name, html in pages.items():
            nursery.start_soon(one, name, html)
    return results


async def raw_axe_targets(browser: Browser, url: str, rule_id: str) -> list[str]:
    """Selectors of the elements axe-core alone (no check of ours) fails for ``rule_id``: as
    axe's own ACT runner runs it, loaded into the page's world of every frame."""
    async with browser.context() as ctx, ctx.page() as tab:
        await tab.session.execute(add_script_to_evaluate_on_new_document(source=load_bundle().source))
        await install_tracker(tab)
        await tab.navigate(url, wait_until="load")
        await settle(tab)
        options = json.dumps({"runOnly": {"type": "rule", "values": [rule_id]}})
        text = await tab.evaluate(
            f"axe.run(document, {options}).then(r => JSON.stringify(r.violations.flatMap("
            "v => v.nodes.map(n => n.target.join(' >>> ')))))"
        )
    return json.loads(text)
