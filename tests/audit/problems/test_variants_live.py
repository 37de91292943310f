"""Variants of one component in a real Chromium (docs/problems.md, the signature): code
blocks wrapped per language as Sphinx writes them (``div.highlight-python3 >
div.highlight > pre``), and BEM buttons (``btn btn--primary``), each one problem across
the pages of a crawl; look-alikes (a wrapper not named after the block, the header and the
body of one card) stay apart, and every problem's selector pattern selects its instances."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

from audit.engine import EngineLimits, run_audit
from tests.audit.support import make_request

LIMITS = EngineLimits(navigation_timeout=20, audit_timeout=120, concurrency=2)
PAGES = 3
LANGUAGES = ("python3", "pycon", "default", "c", "none", "shell-session")
KINDS = ("primary", "danger", "small")
LONG = "x = 1  # " + "a long line that scrolls " * 12

PAGE = """<!doctype html><html lang="en"><head><title>Variants {index}</title><style>
body {{ font: 16px/1.5 sans-serif; }}
pre {{ overflow: auto; max-width: 300px; white-space: pre; }}
</style></head><body><main><h1>Variants {index}</h1>{blocks}</main></body></html>"""
CODE = '<div class="highlight-{lang} notranslate"><div class="highlight"><pre data-case="code">{text}</pre></div></div>'
LISTING = '<div class="listing"><div class="highlight"><pre data-case="listing">{text}</pre></div></div>'
BUTTON = '<button class="btn btn--{kind}" data-case="btn"><svg width="16" height="16" aria-hidden="true"></svg></button>'
CARD = """<div class="card"><div class="card-header"><button class="action" data-case="head">
<svg width="16" height="16" aria-hidden="true"></svg></button></div><div class="card-body">
<button class="action" data-case="body"><svg width="16" height="16" aria-hidden="true"></svg></button></div></div>"""
CASE_RULES = {
    "code": "scrollable-region-focusable",
    "listing": "scrollable-region-focusable",
    "btn": "button-name",
    "head": "button-name",
    "body": "button-name",
}


def _page(index: int, served: Counter[str]) -> str:
    """Two code blocks in languages that differ by page, a listing, two buttons of other
    kinds on each page, a card."""
    blocks = []
    for offset in range(2):
        lang = LANGUAGES[(2 * index + offset) % len(LANGUAGES)]
        blocks.append(CODE.format(lang=lang, text=f"{LONG} {index}.{offset}"))
    blocks.append(LISTING.format(text=f"{LONG} listing {index}"))
    kinds = (KINDS[index % len(KINDS)], KINDS[(index + 1) % len(KINDS)])
    blocks.append("".join(BUTTON.format(kind=kind) for kind in kinds))
    blocks.append(CARD)
    served.update({"code": 2, "listing": 1, "btn": 2, "head": 1, "body": 1})
    return PAGE.format(index=index, blocks="\n".join(blocks))


def _case(html: str) -> str:
    marker = 'data-case="'
    start = html.find(marker)
    return html[start + len(marker) : html.index('"', start + len(marker))] if start >= 0 else ""


#: Whether every element of ``selectors`` is among those ``pattern`` selects.
_MATCHES_ALL = """(pattern, selectors) => {
  const all = new Set(document.querySelectorAll(pattern));
  return selectors.every((s) => all.has(document.querySelector(s)));
}"""


async def test_variants_of_a_component_are_one_problem(browser, site):
    served: Counter[str] = Counter()
    urls = [site.route(f"/variants/{index}", _page(index, served)) for index in range(PAGES)]
    links = "".join(f'<a href="{url}">page {n}</a> ' for n, url in enumerate(urls))
    start = site.route("/variants/", f'<!doctype html><html lang="en"><head><title>Start</title></head><body><main><h1>Start</h1><p>{links}</p></main></body></html>')
    request = make_request(
        start,
        crawl={"enabled": True, "depth": 1, "maxPages": PAGES + 1},
        checks={"interaction": False},
    )
    result = await run_audit(browser, request, LIMITS)
    assert [p.status for p in result.pages] == ["ok"] * (PAGES + 1)

    problems: dict[str, set[str]] = defaultdict(set)
    found: Counter[str] = Counter()
    for item in [*result.findings, *result.needs_review]:
        case = _case(item.html)
        if case and CASE_RULES[case] == item.rule_id:
            problems[case].add(item.problem)
            found[case] += 1
    assert found == served  # every instance served was found...
    assert all(len(ids) == 1 for ids in problems.values()), problems  # ...each case in one problem
    one = {case: next(iter(ids)) for case, ids in problems.items()}
    assert len(set(one.values())) == len(one), one  # and the look-alikes are not merged

    by_id = {problem.id: problem for problem in result.problems}
    code = by_id[one["code"]]
    assert code.pages == PAGES and code.instances == served["code"]
    assert '[class*="highlight-"]' in code.selector_pattern
    async with browser.context() as ctx, ctx.page() as page:
        for url in urls:
            await page.navigate(url, wait_until="load")
            for case, problem_id in one.items():
                selectors = [
                    f.selector for f in result.findings if f.problem == problem_id and f.page_url == url
                ]
                pattern = by_id[problem_id].selector_pattern
                call = f"({_MATCHES_ALL})({json.dumps(pattern)}, {json.dumps(selectors)})"
                assert selectors and await page.evaluate(call) is True, (case, pattern, selectors)
