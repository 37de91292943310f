"""Engine logic that needs no browser: error classification, crawl order and limits."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import trio

from audit.crawl import crawl_site
from audit.failures import AuditFailed, classify
from audit.models import PageResult
from audit.page_audit import PageAudit
from cdpdriver import (
    BrowserClosed,
    CommandTimeout,
    JavaScriptError,
    NavigationTimeout,
    TargetClosed,
    TargetCrashed,
)

UP = SimpleNamespace(is_connected=True)
DOWN = SimpleNamespace(is_connected=False)


@pytest.mark.parametrize(
    ("exc", "browser", "code"),
    [
        (BrowserClosed("gone"), UP, "browser_crashed"),
        (TargetCrashed("boom"), UP, "browser_crashed"),
        (JavaScriptError("x"), DOWN, "browser_crashed"),
        (AuditFailed("http_error", "404"), DOWN, "browser_crashed"),
        (trio.TooSlowError(), UP, "timeout"),
        (CommandTimeout("Runtime.evaluate", 1), UP, "timeout"),
        (NavigationTimeout("u", "load", 1), UP, "timeout"),
        (TargetClosed("detached"), UP, "audit_failed"),
        (JavaScriptError("axe is not defined"), UP, "audit_failed"),
        (ValueError("bug"), UP, "audit_failed"),
        (ExceptionGroup("g", [AuditFailed("http_error", "404")]), UP, "http_error"),
        (ExceptionGroup("g", [JavaScriptError("x"), BrowserClosed("gone")]), UP, "browser_crashed"),
    ],
)
def test_classify(exc, browser, code):
    failure = classify(exc, browser)
    assert failure is not None and failure.code == code
    assert failure.message


def test_classify_lets_cancellation_through():
    class FakeCancelled(BaseException):
        pass

    assert classify(KeyboardInterrupt(), UP) is None
    assert classify(BaseExceptionGroup("g", [FakeCancelled(), ValueError()]), UP) is None


def tree_site(size: int, extra: dict[str, list[str]] | None = None):
    """A fake audit_one over pages /0../size-1 (page i links to 2i+1 and 2i+2, and home)."""
    calls: list[str] = []

    def links_of(path: str) -> list[str]:
        if extra and path in extra:
            return extra[path]
        i = int(path.strip("/"))
        return [f"http://h/{c}" for c in (2 * i + 1, 2 * i + 2) if c < size] + ["http://h/0#x", "/0"]

    async def audit_one(url: str, want_links: bool) -> PageAudit:
        calls.append(url)
        await trio.sleep(0)
        path = url.removeprefix("http://h")
        links = [link if "://" in link else "http://h" + link for link in links_of(path)]
        return PageAudit(PageResult(url=url, status="ok", score=100), links=links if want_links else [])

    return audit_one, calls


async def crawl(depth: int, max_pages: int, size: int = 30, concurrency: int = 3):
    audit_one, calls = tree_site(size)
    start = await audit_one("http://h/0", True)
    calls.clear()
    audits = await crawl_site(start, audit_one, depth=depth, max_pages=max_pages, concurrency=concurrency)
    return [a.page.url.removeprefix("http://h/") for a in audits], calls


@pytest.mark.parametrize(
    ("depth", "max_pages", "expected"),
    [
        (0, 50, ["0"]),
        (1, 50, ["0", "1", "2"]),
        (2, 50, ["0", "1", "2", "3", "4", "5", "6"]),
        (5, 5, ["0", "1", "2", "3", "4"]),
        (4, 50, [str(i) for i in range(30)]),
        (5, 1, ["0"]),
    ],
)
async def test_crawl_is_breadth_first_within_limits(depth, max_pages, expected):
    urls, calls = await crawl(depth, max_pages)
    assert urls == expected
    assert len(calls) == len(set(calls)) == len(expected) - 1  # never twice, start not again


async def test_crawl_concurrency_is_bounded():
    running = 0
    peak = 0

    async def audit_one(url: str, want_links: bool) -> PageAudit:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await trio.sleep(0.01)
        running -= 1
        return PageAudit(PageResult(url=url, status="ok"))

    links = [f"http://h/{i}" for i in range(1, 12)]
    start = PageAudit(PageResult(url="http://h/", status="ok"), links=links)
    audits = await crawl_site(start, audit_one, depth=1, max_pages=50, concurrency=3)
    assert len(audits) == 12 and peak == 3


async def test_crawl_stays_on_origin_and_skips_non_http():
    links = ["https://h/secure", "http://other/x", "http://h:8080/port", "mailto:a@h", "javascript:0",
             "http://H:80/same#frag", "http://h/same"]
    audit_one, calls = tree_site(1, {"/": links, "/same": []})
    start = PageAudit(PageResult(url="http://h/", status="ok"), links=links)
    audits = await crawl_site(start, audit_one, depth=2, max_pages=50, concurrency=2)
    assert [a.page.url for a in audits] == ["http://h/", "http://h/same"]
