"""Crawling a generated 30-page site: depth and page limits, a broken link, a PDF link,
links that differ only in spelling, and a link to another origin."""

from __future__ import annotations

from collections import Counter

from audit.crawl import normalize_url
from audit.engine import EngineLimits, run_audit
from tests.audit.support import make_request
from tests.support.site import Response

PAGES = 30
LIMITS = EngineLimits(navigation_timeout=20, audit_timeout=240, concurrency=4)


def build_site(site, prefix: str) -> str:
    """Pages p0..p29 as a binary tree (p{i} links to p{2i+1} and p{2i+2}); every page links
    home in several spellings; p0 also links to a 404, a PDF, another origin and mailto:."""
    for i in range(PAGES):
        children = "".join(
            f"<li><a href='{prefix}/p{c}'>Page {c}</a></li>" for c in (2 * i + 1, 2 * i + 2) if c < PAGES
        )
        home = (
            f"<a href='{prefix}/p0'>Home</a> <a href='{prefix}/p0#top'>Top</a>"
            f" <a href='{site.url(prefix + '/p0')}'>Home again</a> <a href='p0'>Relative home</a>"
        )
        extra = ""
        if i == 0:
            extra = (
                f"<li><a href='{prefix}/missing'>Broken</a></li>"
                f"<li><a href='{prefix}/doc.pdf'>A PDF</a></li>"
                f"<li><a href='{site.cross_site_url(prefix + '/p1')}'>Other origin</a></li>"
                "<li><a href='mailto:someone@example.org'>Mail</a></li>"
            )
        site.route(
            f"{prefix}/p{i}",
            f"<!doctype html><html lang=en><title>Page {i}</title>"
            "<style>a{display:inline-block;padding:6px}</style><main><h1>Page {i}</h1>"
            f"<nav>{home}</nav><ul>{children}{extra}</ul></main>",
        )
    site.route(f"{prefix}/doc.pdf", Response(b"%PDF-1.4\n%%EOF", content_type="application/pdf"))
    return site.url(f"{prefix}/p0")


def tree_pages(depth: int) -> list[int]:
    """Page numbers within ``depth`` hops of p0, in BFS order."""
    level, out = [0], [0]
    for _ in range(depth):
        level = [c for i in level for c in (2 * i + 1, 2 * i + 2) if c < PAGES]
        out += level
    return out


def gets(site, prefix: str) -> Counter:
    return Counter(r.path for r in site.log if r.method == "GET" and r.path.startswith(prefix))


async def test_crawl_depth_limit_broken_link_and_pdf(browser, site):
    prefix = "/crawl-depth"
    start = build_site(site, prefix)
    request = make_request(start, crawl={"enabled": True, "depth": 2, "maxPages": 50})
    seen = []
    result = await run_audit(browser, request, LIMITS, on_page=seen.append)

    by_url = {p.url: p for p in result.pages}
    expected = [site.url(f"{prefix}/p{i}") for i in tree_pages(2)]
    expected += [site.url(f"{prefix}/missing"), site.url(f"{prefix}/doc.pdf")]
    assert sorted(by_url) == sorted(expected)
    assert len(result.pages) == len(by_url)  # no URL twice
    assert result.pages[0].url == start
    assert {p.url for p in seen} == set(by_url)

    missing = by_url[site.url(f"{prefix}/missing")]
    assert missing.status == "failed" and missing.http_status == 404
    assert missing.error is not None and missing.error.code == "http_error"
    pdf = by_url[site.url(f"{prefix}/doc.pdf")]
    assert pdf.status == "skipped" and pdf.error is not None and pdf.error.code == "not_html"
    assert all(p.status == "ok" for u, p in by_url.items() if "/p" in u)

    assert result.conformant is False  # a page of the audit failed to load
    assert result.score == 100  # mean over the pages that were audited
    assert result.stats.total_pages == len(expected) - 1  # the skipped PDF is not covered
    counts = gets(site, prefix)
    for i in tree_pages(2):
        assert counts[f"{prefix}/p{i}"] == 1, counts
    assert not any(r.path.startswith(prefix) and r.headers.get("Host", "").startswith("localhost")
                   for r in site.log)


async def test_crawl_page_limit_keeps_breadth_first_order(browser, site):
    prefix = "/crawl-limit"
    start = build_site(site, prefix)
    request = make_request(start, crawl={"enabled": True, "depth": 5, "maxPages": 8})
    result = await run_audit(browser, request, LIMITS)
    urls = [p.url for p in result.pages]
    # Level 1 is p1, p2, the 404 and the PDF (document order); level 2 starts with p3.
    assert urls[:3] == [site.url(f"{prefix}/p{i}") for i in (0, 1, 2)]
    assert set(urls[3:5]) == {site.url(f"{prefix}/missing"), site.url(f"{prefix}/doc.pdf")}
    assert urls[5:] == [site.url(f"{prefix}/p{i}") for i in (3, 4, 5)]
    assert len(set(urls)) == 8


async def test_findings_are_numbered_across_pages(browser, site):
    prefix = "/crawl-ids"
    for name, target in (("a", "b"), ("b", "a")):
        site.route(
            f"{prefix}/{name}",
            f"<!doctype html><html lang=en><title>{name}</title><main><img src=x.png>"
            f"<input><a href='{prefix}/{target}'>next</a></main>",
        )
    request = make_request(site.url(f"{prefix}/a"), crawl={"enabled": True, "depth": 3, "maxPages": 10})
    result = await run_audit(browser, request, LIMITS)
    assert [p.url for p in result.pages] == [site.url(f"{prefix}/a"), site.url(f"{prefix}/b")]
    assert [f.id for f in result.findings] == ["f1", "f2", "f3", "f4"]
    assert [f.page_url for f in result.findings] == [site.url(f"{prefix}/{n}") for n in "aabb"]
    assert [p.findings for p in result.pages] == [2, 2]
    assert result.stats.total_pages == 2 and result.stats.total_findings == 4


async def test_crawl_disabled_audits_the_start_page_only(browser, site):
    prefix = "/crawl-off"
    start = build_site(site, prefix)
    result = await run_audit(browser, make_request(start, crawl={"enabled": False, "depth": 3}), LIMITS)
    assert [p.url for p in result.pages] == [start]


def test_normalize_url():
    base = "http://Example.ORG:80/dir/page?x=1"
    assert normalize_url("other#frag", base) == "http://example.org/dir/other"
    assert normalize_url("HTTPS://Example.org:443/a?b=1#c") == "https://example.org/a?b=1"
    assert normalize_url("http://example.org:8080") == "http://example.org:8080/"
    assert normalize_url("?q=2", base) == "http://example.org/dir/page?q=2"
    assert normalize_url("#only-fragment", base) == "http://example.org/dir/page?x=1"
    assert normalize_url("http://[::1]:8000/x") == "http://[::1]:8000/x"
    for bad in ("mailto:a@b.c", "javascript:void(0)", "ftp://example.org/", "http://host:99999/"):
        assert normalize_url(bad, base) is None
