"""Problems in a real Chromium: a generated site of four pages sharing a header, a footer,
a sidebar and a card component, with churn between pages (hrefs, texts, counts, positions,
the current page's state), crawled through ``run_audit``. Every instance of a shared
component lands in one problem; look-alike components stay apart; the order puts the
blocking, site-wide problems first."""

from __future__ import annotations

import json
from collections import defaultdict

from audit.engine import EngineLimits, run_audit
from audit.models import AuditResult
from tests.audit.support import make_request
from tests.support.problem_site import CASE_RULES, ProblemSite

LIMITS = EngineLimits(navigation_timeout=20, audit_timeout=120, concurrency=2)


def _case(html: str) -> str:
    marker = 'data-case="'
    start = html.find(marker)
    return html[start + len(marker) : html.index('"', start + len(marker))] if start >= 0 else ""


async def test_a_crawled_site_groups_into_problems_in_priority_order(browser, site):
    generated = ProblemSite(site)
    request = make_request(  # the static pass is what groups; interaction would only cost time
        generated.urls[0],
        crawl={"enabled": True, "depth": 1, "maxPages": generated.pages},
        checks={"interaction": False},
    )
    result = await run_audit(browser, request, LIMITS)
    shared_components_are_one_problem_each(generated, result)
    blocking_site_wide_problems_come_first(result)
    await patterns_match_their_instances(browser, generated.urls[2], result)


#: Whether every element of ``selectors`` is among those ``pattern`` selects.
_MATCHES_ALL = """(pattern, selectors) => {
  const all = new Set(document.querySelectorAll(pattern));
  return selectors.every((s) => all.has(document.querySelector(s)));
}"""


async def patterns_match_their_instances(browser, url: str, result: AuditResult) -> None:
    """On a page, each problem's selector pattern selects every instance found there."""
    async with browser.context() as ctx, ctx.page() as page:
        await page.navigate(url, wait_until="load")
        checked = 0
        for problem in result.problems:
            selectors = [
                f.selector for f in result.findings if f.problem == problem.id and f.page_url == url
            ]
            if selectors:
                call = f"({_MATCHES_ALL})({json.dumps(problem.selector_pattern)}, {json.dumps(selectors)})"
                assert await page.evaluate(call) is True, (problem.selector_pattern, selectors)
                checked += 1
        assert checked >= 6


def shared_components_are_one_problem_each(generated: ProblemSite, result: AuditResult) -> None:
    assert [p.status for p in result.pages] == ["ok"] * generated.pages
    problems_by_case: dict[str, set[str]] = defaultdict(set)
    instances: dict[str, int] = defaultdict(int)
    for item in [*result.findings, *result.needs_review]:
        assert len(item.problem) == 16 and item.component, item
        case = _case(item.html)
        if case and CASE_RULES[case] == item.rule_id:
            problems_by_case[case].add(item.problem)
            instances[case] += 1
    assert set(problems_by_case) == set(generated.expected)
    for case, expected in generated.expected.items():
        assert instances[case] == expected, case  # every instance served was found...
        assert len(problems_by_case[case]) == 1, case  # ...and all of them are one problem
    one = {case: next(iter(ids)) for case, ids in problems_by_case.items()}
    # Look-alikes: the same button in another component, a near colour in another style.
    assert one["card"] != one["promo"]
    assert one["hint"] != one["muted"]
    assert len(set(one.values())) == len(one)

    by_id = {problem.id: problem for problem in result.problems}
    assert sum(problem.instances for problem in result.problems) == len(result.findings) + len(
        result.needs_review
    )
    nav = by_id[one["nav"]]
    assert nav.rule_id == "link-name" and nav.instances == generated.expected["nav"]
    assert nav.pages == generated.pages and len(nav.page_sample) == generated.pages
    assert nav.fix_location.startswith(f"shared by all {generated.pages} pages: header")
    assert nav.selector_pattern.endswith("a.nav-link") and "current" not in nav.selector_pattern
    muted = by_id[one["muted"]]
    assert muted.rule_id == "color-contrast" and muted.fix_location.startswith(
        "one style: span.muted colour"
    )
    promo = by_id[one["promo"]]
    assert promo.pages == 2 and promo.fix_location.startswith(
        f"shared by 2 of {generated.pages} pages"
    )
    assert promo.representative.page_url in generated.urls and "promo" in promo.representative.html
    for problem in result.problems:  # a selector pattern matches its instances' last compound
        assert problem.selector_pattern.split(" ")[-1].split(".")[0] in problem.representative.html


def blocking_site_wide_problems_come_first(result: AuditResult) -> None:
    order = [problem.rule_id for problem in result.problems]
    confirmed = [p for p in result.problems if p.certainty == "violation"]
    assert result.problems[: len(confirmed)] == confirmed  # needs review last
    first = result.problems[0]
    assert first.blocks_task and first.pages == 4, order
    priorities = {p.id: p.priority for p in result.problems}
    card = next(p for p in result.problems if "card" in p.representative.html)
    promo = next(p for p in result.problems if "promo" in p.representative.html)
    assert priorities[card.id] > priorities[promo.id]  # same rule, on more pages
    assert order.index("button-name") < order.index("color-contrast")
