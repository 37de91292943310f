"""The audit engine: one entry (:func:`run_audit`) shared by the HTTP service, CLI and MCP tools.

Each page is audited in a fresh browser context that is disposed on every path: load it
(optionally behind the private-network guard), wait until it settles, run axe-core over all
its frames (:mod:`audit.axe`), and map the results with the pure half of the package
(findings, scoring). With ``crawl.enabled`` the same-origin pages it links to follow
(:mod:`audit.crawl`). Only the start page can fail the audit; every failure is an
:class:`AuditFailed` carrying one of the service's 500 error codes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import trio

from cdpdriver import (
    Browser,
    CommandTimeout,
    ConnectionClosed,
    NavigationFailed,
    NavigationTimeout,
    Page,
    TargetClosed,
    TargetCrashed,
)

from .axe import (
    FRAME_TIMEOUT,
    PartialRunner,
    evaluate,
    finish_run,
    isolated_world,
    rule_impacts,
)
from .axe_bundle import load_bundle
from .crawl import crawl_site
from .findings import best_practices_from, findings_from, number_findings, rules_tested
from .llm.integration import collect_page_evidence, review_audit
from .models import (
    AuditRequest,
    AuditResult,
    BestPracticeItem,
    EngineInfo,
    ErrorInfo,
    Finding,
    NeedsReviewItem,
    PageResult,
)
from .netguard import NetGuard, describe_block
from .readiness import SETTLE_CAP, DocumentInfo, DocumentWatch, install_tracker, settle
from .rules import axe_run_options
from .scoring import conformant, overall_score, page_score, stats
from .spares import spare_pages

log = logging.getLogger(__name__)

ERROR_CODES = ("navigation_failed", "http_error", "timeout", "browser_crashed", "audit_failed")

_LINKS_JS = """(() => {
  const out = [];
  const walk = root => {
    for (const a of root.querySelectorAll('a[href], area[href]'))
      if (typeof a.href === 'string') out.push(a.href);
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return out;
})()"""


@dataclass
class EngineLimits:
    navigation_timeout: float = 30.0
    audit_timeout: float = 300.0
    concurrency: int = 4
    block_private_networks: bool = False
    #: Per child frame; a frame that takes longer is reported in ``untestedFrames``.
    frame_timeout: float = FRAME_TIMEOUT
    #: Upper bound of the post-load wait for network idle and a quiet DOM.
    settle_timeout: float = SETTLE_CAP
    #: Shared by every audit of a service, so ``concurrency`` bounds its open pages overall.
    page_limiter: trio.CapacityLimiter | None = None


class AuditFailed(Exception):
    """The audit could not be completed; ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str, details: list | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details: list[Any] = list(details or [])

    def error_info(self) -> ErrorInfo:
        return ErrorInfo(code=self.code, message=self.message)


@dataclass
class PageAudit:
    """One page's share of the result, before ids are made unique across pages."""

    page: PageResult
    findings: list[Finding] = field(default_factory=list)
    needs_review: list[NeedsReviewItem] = field(default_factory=list)
    best_practices: list[BestPracticeItem] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    final_url: str = ""
    axe_results: dict[str, Any] | None = None
    #: audit.llm.Evidence gathered while the page was open (LLM assistance only).
    llm_evidence: Any = None


# --------------------------------------------------------------------------- one page


async def audit_page(
    browser: Browser,
    url: str,
    request: AuditRequest,
    limits: EngineLimits | None = None,
    *,
    collect_links: bool = False,
    allow: Iterable[str] = (),
) -> PageAudit:
    """Audit one page in a fresh browser context; raises :class:`AuditFailed`.

    A non-HTML page comes back ``skipped``. ``allow`` lists URLs the private-network guard
    lets through (tests only). ``collect_links`` fills ``links`` for the crawler.
    """
    limits = limits or EngineLimits()
    try:
        async with limits.page_limiter or nullcontext():
            return await _audit_page(browser, url, request, limits, collect_links, frozenset(allow))
    except BaseException as exc:
        failure = classify(exc, browser)
        if failure is None or failure is exc:
            raise
        raise failure from exc


async def _audit_page(
    browser: Browser,
    url: str,
    request: AuditRequest,
    limits: EngineLimits,
    collect_links: bool,
    allow: frozenset[str],
) -> PageAudit:
    options = axe_run_options(request.version, request.level, request.best_practices)
    async with (
        spare_pages(browser).page() as page,
        trio.open_nursery() as nursery,
    ):
        try:
            guard = None
            if limits.block_private_networks:
                guard = NetGuard(allow=allow)
                await guard.attach(page, nursery)
            doc = await _load(page, url, limits, guard)
            if not doc.is_html:
                return _skipped(url, doc)
            runner = PartialRunner(
                page, options, frame_timeout=limits.frame_timeout, run_timeout=limits.audit_timeout
            )
            async with trio.open_nursery() as waiting:  # axe loads while the page settles
                waiting.start_soon(runner.prepare)
                waiting.start_soon(settle, page, limits.settle_timeout)
            run = await runner.run()
            results = run.results or await finish_run(
                browser, run.partials, options, timeout=limits.audit_timeout
            )
            links = await _links(page) if collect_links else []
            evidence = await collect_page_evidence(page, request, results, url)
        finally:
            nursery.cancel_scope.cancel()
    audit = _page_audit(url, doc, results, request, run.untested_frames, links)
    audit.llm_evidence = evidence
    return audit


async def _load(page: Page, url: str, limits: EngineLimits, guard: NetGuard | None) -> DocumentInfo:
    """Navigate and wait for ``load``; net errors, timeouts and HTTP errors raise AuditFailed."""
    watch = DocumentWatch(page)
    try:
        await watch.start()
        await install_tracker(page)
        result = await page.navigate(url, wait_until="load", timeout=limits.navigation_timeout)
        doc = await watch.document(str(result.loader_id) if result.loader_id else None)
    except NavigationFailed as exc:
        answered = watch.last_response()
        if answered is None or answered.status is None or answered.status < 400:
            raise _navigation_failed(url, exc, guard) from exc
        doc = answered
    except NavigationTimeout as exc:
        raise AuditFailed(
            "timeout",
            f"{url} did not finish loading within {limits.navigation_timeout:g} s",
            [{"url": url, "timeoutSeconds": limits.navigation_timeout}],
        ) from exc
    finally:
        watch.close()
    if doc.status is not None and doc.status >= 400:
        raise AuditFailed(
            "http_error",
            f"{url} answered with HTTP status {doc.status}",
            [{"url": url, "status": doc.status}],
        )
    return doc


def _navigation_failed(url: str, exc: NavigationFailed, guard: NetGuard | None) -> AuditFailed:
    blocked = guard.blocked_document() if guard is not None else None
    if blocked is not None:
        return AuditFailed(
            "navigation_failed",
            describe_block(blocked),
            [{"url": blocked.url, "netError": exc.error_text, "addresses": blocked.addresses}],
        )
    return AuditFailed(
        "navigation_failed",
        f"Could not load {url}: {exc.error_text}",
        [{"url": url, "netError": exc.error_text}],
    )


async def _links(page: Page) -> list[str]:
    world = await isolated_world(page.session, page.main_frame_id, "a11y-links")
    links = await evaluate(page.session, _LINKS_JS, world)
    return [str(link) for link in links or []]


def _skipped(url: str, doc: DocumentInfo) -> PageAudit:
    kind = doc.mime_type or "unknown type"
    return PageAudit(
        page=PageResult(
            url=url,
            status="skipped",
            http_status=doc.status,
            error=ErrorInfo(code="not_html", message=f"Not an HTML page ({kind}); not audited."),
        ),
        final_url=doc.url,
    )


def _page_audit(
    url: str,
    doc: DocumentInfo,
    results: dict[str, Any],
    request: AuditRequest,
    untested_frames: list[str],
    links: list[str],
) -> PageAudit:
    findings, review = findings_from(results, url)
    best = best_practices_from(results, url) if request.best_practices else []
    page = PageResult(
        url=url,
        status="ok",
        http_status=doc.status,
        score=page_score(results, rule_impacts()),
        findings=len(findings),
        untested_frames=untested_frames,
        rules_tested=rules_tested(results),
    )
    return PageAudit(page, findings, review, best, links, doc.url, results)


# --------------------------------------------------------------------------- errors


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def classify(exc: BaseException, browser: Browser) -> AuditFailed | None:
    """The AuditFailed an exception (or exception group) stands for; None for cancellation
    and interrupts, which must propagate unchanged."""
    leaves = _leaves(exc)
    if any(not isinstance(leaf, Exception) for leaf in leaves):
        return None
    failures = [leaf for leaf in leaves if isinstance(leaf, AuditFailed)]
    crashed = [f for f in failures if f.code == "browser_crashed"]
    if crashed:
        return crashed[0]
    lost = next((leaf for leaf in leaves if isinstance(leaf, ConnectionClosed)), None)
    if lost is not None or not browser.is_connected:
        reason = str(lost) if lost is not None else "connection to the browser lost"
        return AuditFailed(
            "browser_crashed", "The browser crashed or closed during the audit.", [{"reason": reason}]
        )
    renderer = next((leaf for leaf in leaves if isinstance(leaf, TargetCrashed)), None)
    if renderer is not None:
        return AuditFailed(
            "browser_crashed", "The page's renderer crashed during the audit.", [{"reason": str(renderer)}]
        )
    if failures:
        return failures[0]
    slow = next(
        (leaf for leaf in leaves if isinstance(leaf, (trio.TooSlowError, CommandTimeout, NavigationTimeout))),
        None,
    )
    if slow is not None:
        return AuditFailed("timeout", f"The audit took too long: {str(slow) or 'deadline reached'}.")
    closed = next((leaf for leaf in leaves if isinstance(leaf, TargetClosed)), None)
    if closed is not None:
        return AuditFailed("audit_failed", "The page was closed during the audit.", [{"reason": str(closed)}])
    return AuditFailed("audit_failed", f"The audit failed: {leaves[0]}", [{"reason": repr(leaves[0])}])


# --------------------------------------------------------------------------- whole audit


async def run_audit(
    browser: Browser,
    request: AuditRequest,
    limits: EngineLimits | None = None,
    *,
    on_page: Callable[[PageResult], None] | None = None,
) -> AuditResult:
    """Audit ``request.url`` (and, with ``crawl.enabled``, the pages it links to).

    Raises :class:`AuditFailed` when the start page cannot be audited, the browser dies, or
    the whole audit exceeds ``limits.audit_timeout``. ``on_page`` sees each page as it is done.
    """
    limits = limits or EngineLimits()
    started = time.monotonic()
    deadline = trio.current_time() + limits.audit_timeout
    try:
        with trio.fail_after(limits.audit_timeout):
            audits = await _audit_pages(browser, request, limits, on_page)
    except BaseException as exc:
        failure = classify(exc, browser)
        if failure is None:
            raise
        if trio.current_time() >= deadline and failure.code != "browser_crashed":
            failure = AuditFailed(
                "timeout",
                f"The audit did not finish within {limits.audit_timeout:g} s.",
                [{"url": request.url, "timeoutSeconds": limits.audit_timeout}],
            )
        log.warning("audit %s failed: %s: %s", request.url, failure.code, failure.message)
        if failure is exc:
            raise
        raise failure from exc
    llm_summary = await review_audit(request, audits, deadline)  # never raises
    result = assemble(request, audits, int((time.monotonic() - started) * 1000))
    result.llm = llm_summary
    log.debug(  # the service and the CLI write the one line per audit
        "audit %s: %d page(s), %d finding(s), score %.1f, %d ms",
        request.url, len(result.pages), len(result.findings), result.score, result.duration_ms,
    )
    return result


async def _audit_pages(
    browser: Browser,
    request: AuditRequest,
    limits: EngineLimits,
    on_page: Callable[[PageResult], None] | None,
) -> list[PageAudit]:
    crawl = request.crawl
    crawling = crawl.enabled and crawl.depth > 0 and crawl.max_pages > 1
    start = await audit_page(browser, request.url, request, limits, collect_links=crawling)
    if start.page.status == "skipped":
        raise AuditFailed(
            "audit_failed",
            f"{request.url} is not an HTML page and cannot be audited.",
            [{"url": request.url, "reason": start.page.error.message if start.page.error else ""}],
        )

    def notify(audit: PageAudit) -> None:
        if on_page is not None:
            on_page(audit.page)

    notify(start)
    if not crawling:
        return [start]

    async def audit_one(url: str, want_links: bool) -> PageAudit:
        try:
            audit = await audit_page(browser, url, request, limits, collect_links=want_links)
            audit.axe_results = None  # a long crawl must not hold every page's raw results
            return audit
        except AuditFailed as failure:
            if failure.code == "browser_crashed":
                raise
            log.info("page %s failed: %s: %s", url, failure.code, failure.message)
            status = next((d.get("status") for d in failure.details if isinstance(d, dict)), None)
            return PageAudit(PageResult(url=url, status="failed", http_status=status, error=failure.error_info()))

    return await crawl_site(
        start,
        audit_one,
        depth=crawl.depth,
        max_pages=crawl.max_pages,
        concurrency=limits.concurrency,
        start_urls=[request.url],
        on_audit=notify,
    )


def assemble(request: AuditRequest, audits: list[PageAudit], duration_ms: int) -> AuditResult:
    """The AuditResult of audited pages: ids made unique, score, conformance, stats."""
    findings = number_findings([f for a in audits for f in a.findings], "f")
    review = number_findings([r for a in audits for r in a.needs_review], "r")
    best = number_findings([b for a in audits for b in a.best_practices], "b")
    pages = [a.page for a in audits]
    covered = sum(1 for p in pages if p.status != "skipped")
    return AuditResult(
        url=request.url,
        wcag_version=request.version,
        wcag_level=request.level,
        score=overall_score(p.score for p in pages if p.status == "ok"),
        conformant=conformant(pages, findings),
        stats=stats(findings, covered),
        findings=findings,
        needs_review=review,
        best_practices=best,
        pages=pages,
        duration_ms=max(0, duration_ms),
        engine=EngineInfo(version=load_bundle().version),
    )
