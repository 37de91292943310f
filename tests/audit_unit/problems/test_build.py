"""Problems of a run, pure: grouping across pages, the selector pattern, where the fix
lives, the documented priority with its per-rule rounds, and the issue-tracker shapes."""

from __future__ import annotations

import csv
import io

from audit.models import AuditRequest, Finding, NeedsReviewItem, PageResult
from audit.page_audit import PageAudit, assemble
from audit.problems.assign import assign_problems
from audit.problems.issues import CSV_COLUMNS, issue_of, problems_csv
from audit.problems.pattern import selector_pattern
from audit.problems.priority import ordered, priority
from audit.problems.where import fix_location

SITE = "https://example.test"


def component(
    tag: str, classes: list[str], path: list[tuple[str, list[str]]], landmarks: list[str]
) -> dict:
    return {
        "tag": tag,
        "classes": classes,
        "computedRole": "",
        "aria": [],
        "path": [{"tag": t, "classes": c, "role": ""} for t, c in reversed(path)],
        "landmarks": [[role, ""] for role in landmarks],
        "style": {
            "color": "rgb(150, 150, 150)",
            "background": "rgb(255, 255, 255)",
            "fontSize": "14px",
        },
    }


SEARCH = component("input", ["q"], [("header", ["top"]), ("form", ["search"])], ["banner"])
FOOTER_LINK = component("a", ["legal"], [("footer", []), ("p", [])], ["contentinfo"])
#: Forty look-alike link styles (class names of letters: digits would read as generated).
TOC_CLASSES = [f"toc-{chr(97 + n // 26)}{chr(97 + n % 26)}" for n in range(40)]
TOC = [component("a", [name], [("nav", ["toc"])], ["navigation"]) for name in TOC_CLASSES]
CODE = component("span", ["pre"], [("main", []), ("p", [])], ["main"])


def item(kind, rule_id: str, impact: str, page: str, selector: str, html: str, n: int):
    model = Finding if kind == "finding" else NeedsReviewItem
    extra = {"reason": "unsure"} if kind == "review" else {}
    return model(
        id=f"x{n}",
        rule_id=rule_id,
        description=f"{rule_id} description",
        help_text=f"{rule_id} must pass",
        impact=impact,
        element=html[1:].split(" ")[0].rstrip(">"),
        selector=selector,
        html=html,
        help=f"https://help.test/{rule_id}",
        page_url=page,
        level="AA",
        success_criteria=["1.4.3"] if rule_id == "color-contrast" else ["4.1.2"],
        fingerprint=f"fp{n}",
        **extra,
    )


def site_audits(pages: int = 20) -> list[PageAudit]:
    """``pages`` pages, each: the header's unlabelled search field; forty minor TOC link
    problems on every page; one colour style in the text; a footer link only on the last
    page; a needs-review item in the header."""
    audits = []
    counter = iter(range(1, 100_000))
    for index in range(pages):
        url = f"{SITE}/p{index}"
        findings, components = [], {}

        def add(
            kind, rule_id, impact, selector, html, described, into, url=url, components=components
        ):
            made = item(kind, rule_id, impact, url, selector, html, next(counter))
            components[selector] = described
            into.append(made)

        add(
            "finding",
            "label",
            "critical",
            f"#q{index}",
            '<input class="q" name="q">',
            SEARCH,
            findings,
        )
        for n, toc in enumerate(TOC):
            add(
                "finding",
                "target-size",
                "minor",
                f"nav li:nth-child({n + 1}) > a",
                f'<a class="{TOC_CLASSES[n]}" href="/s{n}">',
                toc,
                findings,
            )
        for n in range(1 + index % 3):
            add(
                "finding",
                "color-contrast",
                "serious",
                f"p:nth-child({n + 2}) > .pre",
                '<span class="pre">',
                CODE,
                findings,
            )
        if index == pages - 1:
            add(
                "finding",
                "link-name",
                "serious",
                "footer a",
                '<a class="legal" href="/legal">',
                FOOTER_LINK,
                findings,
            )
        review = []
        add(
            "review",
            "aria-valid-attr-value",
            "critical",
            f"#menu{index}",
            '<input class="q">',
            SEARCH,
            review,
        )
        assign_problems([*findings, *review], components)
        page = PageResult(url=url, status="ok", score=50.0, findings=len(findings))
        audits.append(PageAudit(page=page, findings=findings, needs_review=review))
    return audits


def site_result(pages: int = 20):
    return assemble(AuditRequest(url=f"{SITE}/p0"), site_audits(pages), 1000)


def test_every_instance_belongs_to_exactly_one_problem():
    result = site_result()
    assert sum(p.instances for p in result.problems) == len(result.findings) + len(
        result.needs_review
    )
    ids = {p.id for p in result.problems}
    assert {f.problem for f in result.findings} | {r.problem for r in result.needs_review} == ids
    assert len(result.problems) == 1 + 40 + 1 + 1 + 1
    search = next(p for p in result.problems if p.rule_id == "label")
    assert (search.instances, search.pages, len(search.page_sample), len(search.examples)) == (
        20,
        20,
        5,
        10,
    )
    assert search.fix_location == "shared by all 20 pages: header template (form.search input.q)"
    assert search.selector_pattern == "header.top form.search input.q"
    assert search.representative.item_id == "f1" and search.blocks_task
    code = next(p for p in result.problems if p.rule_id == "color-contrast")
    assert (
        code.fix_location == "one style: span.pre colour (20 pages)"
        and code.selector_pattern == "span.pre"
    )
    footer = next(p for p in result.problems if p.rule_id == "link-name")
    assert footer.fix_location == "one page: footer (p a.legal)" and footer.pages == 1


def test_priority_order_with_rounds_per_rule():
    problems = site_result().problems
    rules = [p.rule_id for p in problems]
    # The first of every confirmed rule comes before a second of any: 40 minor TOC problems
    # do not push the one-page footer link off the first page.
    assert rules[:4] == ["label", "color-contrast", "link-name", "target-size"]
    assert rules[4:7] == ["target-size"] * 3
    assert rules[-1] == "aria-valid-attr-value" and problems[-1].certainty == "needs_review"
    by_rule = {p.rule_id: p for p in problems}
    # A header field on every page outranks a footer link on one page.
    assert by_rule["label"].priority > by_rule["link-name"].priority
    assert priority("serious", "link-name", pages=20, total_pages=20, instances=20) > priority(
        "serious", "link-name", pages=1, total_pages=20, instances=1
    )
    assert priority("serious", "label", pages=1, total_pages=1, instances=1) == 2 * priority(
        "serious", "color-contrast", pages=1, total_pages=1, instances=1
    )
    assert ordered(list(reversed(problems))) == problems  # the order depends on the problems alone


def test_selector_pattern_generalizes_and_keeps_frames():
    assert (
        selector_pattern(
            ["ul > li:nth-child(2) > a#x.y", "ul > li:nth-child(9) > a.y.active"], "", "a"
        )
        == "ul > li > a.y"
    )
    assert selector_pattern(["#a1", "#b2"], "", "a.more") == "a.more"
    assert selector_pattern([".hint", ".hint"], "", "span.hint") == "span.hint"
    assert (
        selector_pattern(["iframe#f >>> p > a", "iframe#f >>> div > a"], "", "a")
        == "iframe#f >>> a"
    )
    assert selector_pattern(["iframe#f >>> a", "iframe#g >>> a"], "", "a") == "* >>> a"
    assert selector_pattern(["a", "b"], "nav.toc > a", "a") == "nav.toc > a"  # the component's own


def test_fix_location_words():
    comp = "header \u203a navigation \u203a header.top > nav.main > ul > li > a.link"
    assert fix_location("link-name", comp, "a", "<a>", pages=5, total_pages=9, instances=7) == (
        "shared by 5 of 9 pages: header \u203a navigation template (li > a.link)"
    )
    assert fix_location(
        "link-name", "div > a", "a", "<a>", pages=1, total_pages=9, instances=3
    ) == ("one page, 3 instances: div > a")
    assert (
        fix_location(
            "target-size",
            "a.x: fontSize 9px",
            "a",
            '<a class="x is-open">',
            pages=1,
            total_pages=1,
            instances=1,
        )
        == "one style: a.x size and spacing (one page)"
    )
    # The same style in two regions is two problems (target size keeps the landmarks): the
    # words tell them apart.
    in_nav, in_main = (
        fix_location("target-size", f"{where} \u203a a.x: display inline", "a", '<a class="x">',
                     pages=3, total_pages=4, instances=9)
        for where in ("navigation", "main content \u203a sidebar")
    )
    assert in_nav == "one style: a.x size and spacing, in navigation (3 pages)"
    assert in_main == "one style: a.x size and spacing, in main content \u203a sidebar (3 pages)"


def test_issue_shapes_and_csv():
    result = site_result(6)
    search = result.problems[0]
    issue = issue_of(search, lambda instance: f"/shots/{instance.item_id}.png")
    assert issue.title == "[critical] label must pass: input.q (6 instances on 6 pages)"
    assert "shared by all 6 pages: header template" in issue.body
    assert (
        f'- {SITE}/p0 `#q0`: `<input class="q" name="q">` ([screenshot](/shots/f1.png))'
        in issue.body
    )
    assert issue.labels == ["accessibility", "impact:critical", "rule:label", "wcag:4.1.2"]
    rows = list(csv.reader(io.StringIO(problems_csv(result.problems))))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == 1 + len(result.problems)
    first = dict(zip(CSV_COLUMNS, rows[1], strict=True))
    assert first["problem"] == search.id and first["body"] == issue_of(search).body
    assert first["instances"] == "6" and first["sampleUrl"] == f"{SITE}/p0"
    review = dict(zip(CSV_COLUMNS, rows[-1], strict=True))
    assert review["certainty"] == "needs_review" and "needs-review" in review["labels"]


def test_a_formula_in_page_text_stays_text_in_csv():
    result = site_result(1)
    problem = result.problems[0].model_copy(
        update={"component": "=HYPERLINK(1)", "fix_location": "@x"}
    )
    row = list(csv.reader(io.StringIO(problems_csv([problem]))))[1]
    assert dict(zip(CSV_COLUMNS, row, strict=True))["fixLocation"] == "'@x"
