"""The HTML report with evidence: screenshots beside their items, thumbnails, the trend, the
LLM's verdict, the controls, and the fragment the dashboard embeds (pure rendering; the
report's own audit and its script run in tests/audit/test_screenshots.py)."""

from __future__ import annotations

import base64
import re
from collections import Counter
from html.parser import HTMLParser

from audit.reports import render
from audit.reports.html import render_html, render_html_fragment
from audit.screenshots import Image, ScreenshotIndex, item_key

from .test_reports import EVIL_URL, build_result

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40
HISTORY = [
    {"id": "run-a", "createdAt": "2025-03-01T09:00:00Z", "status": "completed", "score": 70.0, "pages": 2,
     "findings": {"critical": 3, "serious": 2, "moderate": 0, "minor": 0, "total": 5}},
    {"id": "run-x", "createdAt": "2025-03-02T09:00:00Z", "status": "failed", "score": None, "pages": 0,
     "findings": {"critical": 0, "serious": 0, "moderate": 0, "minor": 0, "total": 0}},
    {"id": "run-b", "createdAt": "2025-03-03T09:00:00Z", "status": "completed", "score": 80.5, "pages": 3,
     "findings": {"critical": 2, "serious": 2, "moderate": 0, "minor": 0, "total": 4}},
]


class Tree(HTMLParser):
    """Start tags with their attributes and the ids of the ``li`` each one is inside."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None], str | None]] = []
        self._items: list[str | None] = []
        self._open: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        inside = next((i for i in reversed(self._items) if i), None)
        self.tags.append((tag, attrs, inside))
        if tag in ("img", "input", "br", "meta", "link", "line", "rect", "polyline", "circle"):
            return
        self._open.append(tag)
        self._items.append(attrs.get("id") if tag == "li" else None)

    def handle_endtag(self, tag):
        while self._open:
            self._items.pop()
            if self._open.pop() == tag:
                break


def parse(html: str) -> Tree:
    tree = Tree()
    tree.feed(html)
    return tree


def evidence(result, *, inline: bool) -> ScreenshotIndex:
    index = ScreenshotIndex()
    first, review = result.findings[0], result.needs_review[0]
    data = PNG if inline else None
    index.items[item_key("finding", first)] = Image("image/png", 144, 72, 2.0, data, "shot-0-f1.png")
    index.items[item_key("review", review)] = Image("image/png", 80, 40, 1.0, data, "shot-0-r1.png")
    index.thumbnails[result.pages[0].url] = Image("image/jpeg", 320, 200, 0.25, data, "thumb-0.jpg")
    return index


def test_screenshots_sit_beside_their_items_inline():
    result = build_result()
    html = render_html(result, evidence(result, inline=True), HISTORY)
    images = [(attrs, inside) for tag, attrs, inside in parse(html).tags if tag == "img"]
    by_item = {inside: attrs for attrs, inside in images}
    assert set(by_item) == {"f1", "r1", None}  # the thumbnail is in the pages table
    shot = by_item["f1"]
    assert shot["src"] == "data:image/png;base64," + base64.b64encode(PNG).decode()
    assert (shot["width"], shot["height"]) == ("72", "36")  # CSS pixels: 144 x 72 at scale 2
    assert "outlined" in shot["alt"] and by_item["r1"]["alt"]
    thumb = by_item[None]
    assert thumb["src"].startswith("data:image/jpeg;base64,") and thumb["alt"]
    assert (thumb["width"], thumb["height"]) == ("1280", "800")
    for attrs, _inside in images:  # everything inline: the report opens offline
        assert attrs["src"].startswith("data:image/")
    assert not re.search(r"url\(|@import|<link|<iframe|src=\"http", html)
    assert html.count("<script") == 1 and "<script src" not in html


def test_trend_and_llm_verdict():
    result = build_result()
    html = render_html(result, None, HISTORY, run_id="run-b")
    assert "Trend of this site" in html and '<svg class="trend-chart"' in html
    assert "from 70.0 to 80.5 and the findings from 5 to 4" in html  # the failed run is left out
    assert "run-x" not in html and "<code>run-b</code> (this report)" in html
    assert html.count('<circle ') == 2
    card = re.search(r'<li class="item" id="f1".*?</li>', html, re.S).group(0)
    assert "LLM verdict</dt><dd>confirmed (confidence 0.90): Logo &lt;img&gt; has no alt" in card
    assert "Suggested fix</dt><dd><code>&lt;img alt=&quot;ACME&quot; src=&quot;logo.png&quot;&gt;</code>" in card
    assert "Trend of this site" not in render_html(result)  # no history, no trend
    one = render_html(result, None, HISTORY[:1], run_id="run-a")
    assert "One run of this site so far" in one and "<svg" not in one  # no one-bar chart
    assert "Trend of this site" not in render(result, "html", history=[HISTORY[1]])


def test_controls_filter_by_impact_level_and_page():
    result = build_result()
    tree = parse(render_html(result))
    form = next(attrs for tag, attrs, _ in tree.tags if tag == "form")
    assert "hidden" in form  # shown by the script only
    inputs = [attrs for tag, attrs, _ in tree.tags if tag == "input"]
    assert {(i["name"], i["value"]) for i in inputs} == {
        ("impact", "critical"), ("impact", "serious"), ("impact", "moderate"), ("impact", "minor"),
        ("level", "A"), ("level", "AA"), ("level", "AAA"), ("group", "rule"), ("group", "page"),
    }
    options = [attrs.get("value") for tag, attrs, _ in tree.tags if tag == "option"]
    assert options == ["", "0", "1", "2"]
    items = [attrs for tag, attrs, _ in tree.tags if tag == "li" and attrs.get("class") == "item"]
    assert len(items) == len(result.findings) + len(result.needs_review)
    evil = [i for i in items if i["data-page"] == "1"]  # the second page's items name it by index
    assert evil and all(i["data-impact"] and i["data-level"] in ("A", "AA", "AAA") for i in items)
    assert EVIL_URL not in str(items)


def test_fragment_for_the_dashboard():
    result = build_result()
    html = render_html_fragment(result, evidence(result, inline=False), HISTORY, heading=3, prefix="run-")
    tree = parse(html)
    tags = [tag for tag, _, _ in tree.tags]
    assert "script" not in tags and "html" not in tags and "style" not in tags
    assert min(int(t[1]) for t in tags if re.fullmatch(r"h[1-6]", t)) == 3
    ids = [attrs["id"] for _, attrs, _ in tree.tags if "id" in attrs]
    assert ids and all(i.startswith("run-") for i in ids)
    assert not [i for i, n in Counter(ids).items() if n > 1]
    images = [attrs for tag, attrs, _ in tree.tags if tag == "img"]
    assert {i["data-artifact"] for i in images} == {"shot-0-f1.png", "shot-0-r1.png", "thumb-0.jpg"}
    assert all("src" not in i for i in images)  # the dashboard fetches them with its token


def test_structure_stays_accessible_with_evidence():
    result = build_result()
    tree = parse(render_html(result, evidence(result, inline=True), HISTORY))
    tags = [tag for tag, _, _ in tree.tags]
    levels = [int(t[1]) for t in tags if re.fullmatch(r"h[1-6]", t)]
    assert levels[0] == 1 and tags.count("h1") == 1
    assert all(b - a <= 1 for a, b in zip(levels, levels[1:], strict=False))
    assert tags.count("table") == tags.count("caption")
    ids = [attrs["id"] for _, attrs, _ in tree.tags if "id" in attrs]
    assert len(ids) == len(set(ids))
    labelled = {attrs["for"] for tag, attrs, _ in tree.tags if tag == "label" and "for" in attrs}
    for tag, attrs, _ in tree.tags:
        if tag == "select":
            assert attrs["id"] in labelled
        if tag == "img":
            assert attrs.get("alt")


def test_a_problem_shows_the_picture_of_its_first_instance_that_has_one():
    # A crawl shoots each problem on the pages audited first, which need not be first in order:
    # the problem's entry falls back from its first instance to the next one pictured.
    result = build_result()
    first, second = result.findings[0], result.findings[1]
    first.problem = second.problem = "0123456789abcdef"
    result.problems = []  # made again from the items, as for a stored run
    index = ScreenshotIndex()
    index.items[item_key("finding", second)] = Image("image/png", 80, 40, 1.0, PNG, "shot-1-1.png")
    html = render_html(result, index, HISTORY)
    entries = re.findall(r'<li class="problem".*?</li>\n', html, re.S)
    shared = [entry for entry in entries if f'href="#{first.id}"' in entry and f'href="#{second.id}"' in entry]
    assert len(shared) == 1
    assert 'class="shot-img"' in shared[0] and f"Screenshot of {second.id}," in shared[0]
