"""The findings and needs-review items of the HTML report: one card per item, grouped by
rule, with its screenshot beside it, and the controls the report's script wires up.

Without the script (a mail client, a strict viewer) the report is complete: every item,
grouped by rule, and the controls stay hidden. With it (``js/report_view.js``) the controls
filter the cards by impact, WCAG level and page and regroup the findings by page, moving
the same cards, so no image is ever in the document twice. Each card carries what the
filters need as ``data-`` attributes.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..models import AuditResult, Finding, NeedsReviewItem
from ..rules import IMPACT_RANK
from ._common import RuleGroup, group_by_rule
from .html_common import Context, badge, esc, help_link, image_tag

LEVELS = ("A", "AA", "AAA")


def page_numbers(result: AuditResult) -> dict[str, int]:
    """Each page URL's index in ``result.pages``: how cards name their page."""
    numbers: dict[str, int] = {}
    for n, page in enumerate(result.pages):
        numbers.setdefault(page.url, n)
    return numbers


def controls(ctx: Context, result: AuditResult) -> str:
    """The filter and grouping controls, hidden until the script shows them."""
    impacts = "".join(
        f'<label><input type="checkbox" name="impact" value="{i}" checked> {i}</label>'
        for i in sorted(IMPACT_RANK, key=lambda i: -IMPACT_RANK[i])
    )
    levels = "".join(
        f'<label><input type="checkbox" name="level" value="{lv}" checked> {lv}</label>'
        for lv in LEVELS
    )
    options = "".join(
        f'<option value="{n}">{esc(page.url)}</option>' for n, page in enumerate(result.pages)
    )
    page_id = ctx.id("filter-page")
    return (
        f'<form class="report-controls" hidden aria-label="Filter and group">'
        f'<fieldset><legend>Impact</legend>{impacts}</fieldset>'
        f'<fieldset><legend>WCAG level</legend>{levels}</fieldset>'
        f'<p class="report-page"><label for="{page_id}">Page</label> '
        f'<select id="{page_id}" name="page"><option value="">All pages</option>{options}</select></p>'
        f'<fieldset><legend>Group findings by</legend>'
        f'<label><input type="radio" name="group" value="rule" checked> rule</label>'
        f'<label><input type="radio" name="group" value="page"> page</label></fieldset>'
        f'<p class="report-count" role="status"></p>'
        f"</form>"
    )


def findings_section(ctx: Context, result: AuditResult) -> list[str]:
    pages = page_numbers(result)
    out = [
        f'<section id="{ctx.id("findings")}" class="report-findings" '
        f'aria-labelledby="{ctx.id("findings-h")}" tabindex="-1">',
        ctx.h(0, "Findings", ident=ctx.id("findings-h")),
        controls(ctx, result),
    ]
    groups = group_by_rule(result.findings)
    if not groups:
        out.append("<p>No WCAG findings.</p>")
    out.append('<div class="groups" data-grouping="rule">')
    for group in groups:
        out.extend(_rule_group(ctx, group, "finding", pages))
    out.append("</div>")
    out.append(f'<div class="groups-by-page" hidden data-heading="{ctx.heading + 1}"></div>')
    out.append("</section>")
    return out


def review_section(ctx: Context, result: AuditResult) -> list[str]:
    if not result.needs_review:
        return []
    pages = page_numbers(result)
    out = [
        f'<section class="report-review" aria-labelledby="{ctx.id("review")}">',
        ctx.h(0, "Needs review", ident=ctx.id("review")),
        "<p>axe-core could not decide these elements; check them by hand. "
        "They do not count as findings.</p>",
    ]
    by_rule: dict[str, list[NeedsReviewItem]] = {}
    for item in result.needs_review:
        by_rule.setdefault(item.rule_id, []).append(item)
    for rule_id, items in sorted(by_rule.items()):
        first = items[0]
        out.append('<section class="group">')
        out.append(ctx.h(1, f"{esc(rule_id)}: {esc(first.help_text or first.description)}"))
        out.append(_criteria(first.level, first.success_criteria, first.help, rule_id))
        out.append('<ol class="items">')
        out.extend(_card(ctx, "review", item, pages) for item in items)
        out.append("</ol></section>")
    out.append("</section>")
    return out


def _rule_group(ctx: Context, group: RuleGroup, kind: str, pages: dict[str, int]) -> list[str]:
    out = [
        f'<section class="group" data-rule="{esc(group.rule_id)}">',
        ctx.h(1, f"{badge(group.impact)} {esc(group.rule_id)}: {esc(group.help_text or group.description)}"),
    ]
    if group.description:
        out.append(f'<p class="muted">{esc(group.description)}</p>')
    out.append(_criteria(group.level, group.success_criteria, group.help_url, group.rule_id))
    out.append(f'<p class="visually-hidden">Elements failing {esc(group.rule_id)}: {len(group.findings)}</p>')
    out.append('<ol class="items">')
    out.extend(_card(ctx, kind, f, pages) for f in group.findings)
    out.append("</ol></section>")
    return out


def _criteria(level: str, criteria: Sequence[str], help_url: str, rule_id: str) -> str:
    return (
        f"<p>WCAG level {esc(level)}; success criteria "
        f"{esc(', '.join(criteria) or '-')}. {help_link(help_url, rule_id)}</p>"
    )


def _card(ctx: Context, kind: str, item: Finding | NeedsReviewItem, pages: dict[str, int]) -> str:
    """One item: what it is, where, how to fix it, the LLM's opinion, and its screenshot."""
    facts = [
        ("Page", f"<code>{esc(item.page_url)}</code>"),
        ("Element", f"<code>{esc(item.selector)}</code>"),
        ("Markup", f"<code>{esc(item.html)}</code>"),
    ]
    if isinstance(item, NeedsReviewItem):
        facts.append(("Why it needs review", esc(item.reason)))
    elif item.failure_summary:
        facts.append(("How to fix", esc(item.failure_summary).replace("\n", "<br>")))
    review = item.llm
    if review is not None:
        facts.append(("LLM verdict", f"{esc(review.verdict.replace('_', ' '))} "
                      f"(confidence {review.confidence:.2f}): {esc(review.reasoning)}"))
        if review.suggested_fix:
            facts.append(("Suggested fix", f"<code>{esc(review.suggested_fix)}</code>"))
    facts_html = "".join(f"<dt>{term}</dt><dd>{value}</dd>" for term, value in facts)
    image = ctx.screenshots.for_item(kind, item)
    shot = ""
    if image is not None:
        alt = f"Screenshot of the element of {item.id}, outlined, in its context"
        shot = f'<figure class="shot">{image_tag(image, alt, "shot-img")}</figure>'
    page = pages.get(item.page_url, -1)
    return (
        f'<li class="item" id="{esc(ctx.id(item.id))}" data-kind="{kind}" '
        f'data-impact="{esc(item.impact)}" data-level="{esc(item.level)}" data-page="{page}">'
        f'<div class="item-text"><p class="item-head"><span class="item-id">{esc(item.id)}</span> '
        f'{badge(item.impact)} <span class="item-rule">{esc(item.rule_id)}</span></p>'
        f'<dl class="facts">{facts_html}</dl></div>{shot}</li>'
    )
