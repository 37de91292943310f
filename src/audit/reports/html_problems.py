"""The problems part of the HTML report (docs/problems.md): what a person reads first.

A crawl's findings are mostly one defect repeated on every page, so the report leads with
the problems, most important first, above the instances: an overview (problems by impact and
by WCAG principle, how many pages they touch, and what changed since the baseline when the
caller knows one), then one entry per problem that opens (``details``) to where the fix
lives, the selector that matches every instance, its pages and links to its instances' cards
further down. The representative instance's screenshot is shown in the entry, so the page is
useful closed; its other instances keep theirs on their cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..models import AuditResult, Finding, NeedsReviewItem
from ..problems.build import problems_of
from ..problems.changes import ProblemChanges
from ..problems.schema import Problem
from ..rules import IMPACT_RANK
from .html_common import Context, badge, esc, help_link, image_tag

#: WCAG's four principles, by the first number of a success criterion.
PRINCIPLES = {"1": "Perceivable", "2": "Operable", "3": "Understandable", "4": "Robust"}
#: Pages listed in a problem's entry; the rest are counted.
PAGES_SHOWN = 5


def problems_section(ctx: Context, result: AuditResult, changes: ProblemChanges | None = None) -> list[str]:
    problems = problems_of(result)
    if not problems:
        return []
    items = {item.id: item for item in (*result.findings, *result.needs_review)}
    heading = ctx.id("problems")
    out = [
        f'<section class="report-problems" aria-labelledby="{heading}">',
        ctx.h(0, "Problems", ident=heading),
        f"<p>{len(problems)} problem(s), most important first. A problem is one defect of one "
        "component wherever it repeats: fix it once, in the place named, and every instance goes.</p>",
        *_overview(ctx, result, problems, changes),
        '<ol class="problems">',
        *(_entry(ctx, problem, items) for problem in problems),
        "</ol>",
        "</section>",
    ]
    return out


def _overview(ctx: Context, result: AuditResult, problems: Sequence[Problem],
              changes: ProblemChanges | None) -> list[str]:
    by_impact = Counter(problem.impact for problem in problems)
    instances = Counter()
    for problem in problems:
        instances[problem.impact] += problem.instances
    impact_rows = "".join(
        f'<tr><th scope="row">{badge(impact)}</th><td>{by_impact[impact]}</td><td>{instances[impact]}</td></tr>'
        for impact in sorted(IMPACT_RANK, key=lambda name: -IMPACT_RANK[name])
    )
    by_principle: Counter[str] = Counter()
    for problem in problems:
        for principle in {PRINCIPLES.get(sc.split(".", 1)[0], "") for sc in problem.success_criteria} or {""}:
            by_principle[principle or "No success criterion"] += 1
    principle_rows = "".join(
        f'<tr><th scope="row">{esc(name)}</th><td>{by_principle[name]}</td></tr>'
        for name in (*PRINCIPLES.values(), "No success criterion") if by_principle[name]
    )
    touched = {item.page_url for item in (*result.findings, *result.needs_review)}
    total = len(result.pages) or 1
    out = [
        f'<h{min(6, ctx.heading + 1)} class="visually-hidden">Overview</h{min(6, ctx.heading + 1)}>',
        '<div class="problem-overview">',
        "<table><caption>Problems by impact</caption>"
        '<thead><tr><th scope="col">Impact</th><th scope="col">Problems</th>'
        f'<th scope="col">Instances</th></tr></thead><tbody>{impact_rows}</tbody></table>',
        "<table><caption>Problems by WCAG principle</caption>"
        '<thead><tr><th scope="col">Principle</th><th scope="col">Problems</th></tr></thead>'
        f"<tbody>{principle_rows}</tbody></table>",
        "</div>",
        f"<p>Pages with at least one problem: {len(touched)} of {total}.</p>",
    ]
    if changes is not None:
        counts = changes.counts()
        out.append(
            f"<p>Since the baseline: {counts['new']} new, {counts['spread']} spread to more pages, "
            f"{counts['fixed']} fixed, {counts['unchanged']} unchanged.</p>"
        )
    return out


def _entry(ctx: Context, problem: Problem, items: dict[str, Finding | NeedsReviewItem]) -> str:
    review = " (needs review)" if problem.certainty == "needs_review" else ""
    head = (
        f"<summary>{badge(problem.impact)} <strong>{esc(problem.rule_id)}</strong>{esc(review)}: "
        f"{esc(problem.title)} <span class=\"muted\">{problem.instances} instance(s) on "
        f"{problem.pages} page(s)</span></summary>"
    )
    criteria = ", ".join(problem.success_criteria) or "-"
    facts = [
        ("Where the fix lives", esc(problem.fix_location)),
        ("Component", f"<code>{esc(problem.component)}</code>"),
        ("Matches every instance", f"<code>{esc(problem.selector_pattern)}</code>"),
        ("WCAG", f"level {esc(problem.level)}; success criteria {esc(criteria)}. "
                 f"{help_link(problem.help, problem.rule_id)}"),
    ]
    if problem.blocks_task:
        facts.append(("Blocks a task", "yes: someone can be kept from finishing what they came to do"))
    pages = "".join(f"<li><code>{esc(url)}</code></li>" for url in problem.page_sample[:PAGES_SHOWN])
    more = problem.pages - min(problem.pages, len(problem.page_sample[:PAGES_SHOWN]))
    if more:
        pages += f"<li>and {more} more</li>"
    facts.append(("Pages", f'<ul class="problem-pages">{pages}</ul>'))
    links = ", ".join(
        f'<a href="#{esc(ctx.id(example.item_id))}">{esc(example.item_id)}</a>' for example in problem.examples
    )
    facts.append(("Instances", links + (" …" if problem.instances > len(problem.examples) else "")))
    facts_html = "".join(f"<dt>{term}</dt><dd>{value}</dd>" for term, value in facts)
    return (
        f'<li class="problem" data-impact="{esc(problem.impact)}"><details>{head}'
        f'<div class="problem-body"><dl class="facts">{facts_html}</dl>'
        f"{_representative(ctx, problem, items)}</div></details></li>"
    )


def _representative(ctx: Context, problem: Problem, items: dict[str, Finding | NeedsReviewItem]) -> str:
    """The picture of the problem's first instance that has one: a run shoots each problem a
    few times, on the pages audited first, which in a crawl need not be the first in order."""
    for instance in (problem.representative, *problem.examples):
        item = items.get(instance.item_id)
        if item is None:
            continue
        kind = "review" if isinstance(item, NeedsReviewItem) else "finding"
        image = ctx.screenshots.for_item(kind, item)
        if image is not None:
            alt = f"Screenshot of {item.id}, an instance of this problem, outlined in its context"
            return f'<figure class="shot">{image_tag(image, alt, "shot-img")}</figure>'
    return ""
