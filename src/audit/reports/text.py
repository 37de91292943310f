"""Plain-text terminal report: summary first, then problems (docs/problems.md), pages, and
findings grouped by rule.

No colours or box drawing, so it reads the same in a terminal, a CI log and a screen reader.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..models import AuditResult
from ..problems.build import problems_of
from ..problems.schema import Problem
from ._common import clean, fmt_score, group_by_rule

#: Problems the text report lists; the rest are counted.
PROBLEMS_SHOWN = 25


def _one_line(text: str) -> str:
    return " ".join(clean(text).split())


def problem_lines(problems: Sequence[Problem], limit: int = PROBLEMS_SHOWN) -> list[str]:
    """The problems section: the first ``limit`` problems in priority order, one block each
    (the CLI's summary prints the same)."""
    if not problems:
        return []
    lines = ["", f"Problems ({len(problems)}, most important first; docs/problems.md)"]
    for n, problem in enumerate(problems[:limit], 1):
        review = " needs review:" if problem.certainty == "needs_review" else ""
        lines.append(
            f"{n:>3}. [{problem.impact}]{review} {problem.rule_id}: {_one_line(problem.title)}"
        )
        lines.append(
            f"     {problem.instances} instance(s) on {problem.pages} page(s); fix: "
            f"{_one_line(problem.fix_location)}"
        )
        lines.append(f"     matches: {_one_line(problem.selector_pattern)}")
    if len(problems) > limit:
        lines.append(
            f"  ... and {len(problems) - limit} more (the JSON result or GET /audits/{{id}}/problems)"
        )
    return lines


def render_text(result: AuditResult) -> str:
    s = result.stats
    out: list[str] = []
    add = out.append
    add(f"Accessibility audit of {result.url}")
    add(
        f"WCAG {result.wcag_version} level {result.wcag_level}, "
        f"{result.engine.name} {result.engine.version}, {result.duration_ms} ms"
    )
    add("")
    add(f"Score:       {result.score:.1f} / 100")
    add(f"Conformant:  {'yes' if result.conformant else 'no'}")
    add(
        f"Findings:    {s.total_findings} (critical {s.critical}, serious {s.serious}, "
        f"moderate {s.moderate}, minor {s.minor})"
    )
    add(f"Needs review: {len(result.needs_review)}")
    if result.best_practices:
        add(f"Best-practice issues (not WCAG): {len(result.best_practices)}")
    add(f"Pages:       {s.total_pages}")
    if result.llm is not None:
        llm = result.llm
        line = f"LLM review:  {llm.provider} {llm.model}, {llm.reviewed} reviewed"
        if llm.error:
            line += f" (error: {_one_line(llm.error)})"
        add(line)

    out.extend(problem_lines(problems_of(result)))

    if result.pages:
        add("")
        add("Pages")
        add(f"  {'STATUS':<8} {'HTTP':>4} {'SCORE':>6} {'FINDINGS':>8}  URL")
        for p in result.pages:
            http = str(p.http_status) if p.http_status is not None else "-"
            add(f"  {p.status:<8} {http:>4} {fmt_score(p.score):>6} {p.findings:>8}  {p.url}")
            if p.error is not None:
                add(f"  {'':<8} error {p.error.code}: {_one_line(p.error.message)}")
            for frame in p.untested_frames:
                add(f"  {'':<8} untested frame: {frame}")

    groups = group_by_rule(result.findings)
    if groups:
        add("")
        add("Findings by rule")
        for g in groups:
            add("")
            scs = ", ".join(g.success_criteria) or "-"
            add(f"[{g.impact}] {g.rule_id}: {_one_line(g.help_text or g.description)}")
            add(f"  WCAG level {g.level}, success criteria {scs}; {len(g.findings)} element(s)")
            if g.help_url:
                add(f"  Help: {g.help_url}")
            for f in g.findings:
                add(f"  {f.id:<5} {f.selector}")
                add(f"        page: {f.page_url}")
                if f.html:
                    add(f"        {_one_line(f.html)}")
                if f.llm is not None:
                    add(f"        LLM: {f.llm.verdict} ({f.llm.confidence:.2f})")

    if result.needs_review:
        add("")
        add("Needs review (axe-core could not decide; not counted as findings)")
        for r in result.needs_review:
            add(f"  {r.id:<5} {r.rule_id} {r.selector}")
            add(f"        page: {r.page_url}")
            add(f"        {_one_line(r.reason)}")

    if result.best_practices:
        add("")
        add("Best practices (not WCAG; no effect on score or conformance)")
        for b in result.best_practices:
            add(f"  {b.id:<5} [{b.impact}] {b.rule_id} {b.selector} ({b.outcome})")
    if not result.findings:
        add("")
        add("No WCAG findings.")
    return "\n".join(clean(line) for line in out) + "\n"
