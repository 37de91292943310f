"""The audit engine: one entry (:func:`run_audit`) shared by the HTTP service, CLI and MCP tools.

Each page is audited in a tab of a browser context that no other request ever sees, disposed
on every path (:mod:`audit.tabs`; the pages of one crawl share theirs): load it (optionally
behind the private-network guard), wait until it settles, run axe-core over all its frames
(:mod:`audit.axe`), and map the results with the pure half of the package (findings, scoring,
:mod:`audit.page_audit`). With ``crawl.enabled`` the same-origin pages it links to follow
(:mod:`audit.crawl`). Every page records where its time went (:mod:`audit.phases`), and
:data:`OPTIMISATIONS` names the options that switch the fast paths off. Only the start page can fail the audit; every failure
leaves :func:`run_audit` and :func:`audit_page` as an :class:`~audit.failures.AuditFailed`,
classified once, at that boundary (:mod:`audit.failures`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import trio

from cdpdriver import (
    Browser,
    CDPError,
    JavaScriptError,
    NavigationFailed,
    Page,
    evaluate,
    isolated_world,
)
from cdpdriver.scripts import load_script

from .auth import LoginRunner, prepare_auth
from .axe import FRAME_TIMEOUT, PartialRunner, finish_run
from .axe_bundle import rule_impacts
from .crawl import PageProgress, PendingStart, crawl_site, normalize_url
from .egress import egress_proxy
from .element_identity import describe_elements
from .failures import AuditFailed, failures_classified
from .findings import best_practices_from, findings_from, rules_tested
from .fingerprints import fingerprint_page
from .interactive import DEFAULT_BUDGET as INTERACTION_BUDGET
from .interactive import PreparedWorld, interact, merged, prepare_world, start_ahead
from .interactive import selected as selected_interactive
from .llm.evidence import Evidence
from .llm.integration import collect_page_evidence, review_audit, scored_results
from .models import AuditRequest, AuditResult, ErrorInfo, PageResult
from .netguard import NetGuard, describe_block
from .page_audit import PageAudit, assemble
from .phases import PhaseClock
from .problems.assign import assign_problems
from .readiness import SETTLE_CAP, DocumentInfo, DocumentWatch, settle
from .request_options import requested_viewports
from .rules import axe_run_options
from .scoring import page_score
from .screenshots import RunScreenshots, StateKey, StateShot
from .tabs import SharedTabs, SingleTabs, Tab, TabSource
from .urls import without_credentials
from .viewports import audit_on_each

log = logging.getLogger(__name__)


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
    #: The pages of one crawl share a browser context and reuse its tabs (:mod:`audit.tabs`);
    #: off, every page gets a fresh context of its own, as separate requests always do.
    share_crawl_context: bool = True
    #: The browser serves this one audit and closes after it (the CLI's): pages open in its
    #: own context, starting with the tab it opened at launch, and no spare is prepared
    #: (unless ``block_private_networks``, which needs contexts made with the egress proxy).
    private_browser: bool = False
    #: A crawl keeps ``concurrency`` pages in flight across depth levels (the same pages in
    #: the same order, :func:`~audit.crawl.crawl_site`); off, each level waits for the last.
    pipelined_crawl: bool = True
    #: When a page's axe run starts, prepare the next request's tab (fresh context, blank)
    #: beside it rather than when the browser is next idle: requests that come back to back
    #: then find it made. Its renderer's start competes with the run for the cores, but costs
    #: the run less than it saves the next request, as long as a tab starts one renderer:
    #: audit browsers run without Chromium's spare renderer (:mod:`audit.launch`), which
    #: doubled it (small page back to back, measured: 313 ms without, 280 ms with, the bare
    #: axe floor 282 ms).
    prepare_ahead: bool = True
    #: Runs ``auth.login`` steps (:mod:`audit.auth`); given by the front ends, which may use
    #: the tools. Without one, a request with login steps fails with ``login_unsupported``.
    login_runner: LoginRunner | None = None
    #: Seconds of the interaction phase per page (:mod:`audit.interactive`), when the
    #: request has ``checks.interaction`` on.
    interaction_budget: float = INTERACTION_BUDGET
    #: Where one run's screenshots of its findings' elements go (:mod:`audit.screenshots`);
    #: make one per run. None, the default, takes none: a plain audit stays fast.
    screenshots: RunScreenshots | None = None


#: The options of :class:`EngineLimits` that only make audits cheaper: switched off, an audit
#: takes the plain path and must find exactly the same (tests compare the two).
OPTIMISATIONS = ("share_crawl_context", "private_browser", "pipelined_crawl")


# --------------------------------------------------------------------------- one page


async def audit_page(
    browser: Browser,
    url: str,
    request: AuditRequest,
    limits: EngineLimits | None = None,
    *,
    collect_links: bool = False,
    allow: Iterable[str] = (),
    tabs: TabSource | None = None,
    progress: PageProgress | None = None,
) -> PageAudit:
    """Audit one page, by default in a fresh browser context; raises :class:`AuditFailed`.

    A non-HTML page comes back ``skipped``. ``allow`` lists URLs the private-network guard
    lets through (tests only). ``collect_links`` fills ``links`` for the crawler. ``tabs``
    is where the page is audited instead, e.g. the :class:`~audit.tabs.SharedTabs` of the
    request the page belongs to. ``progress`` hears the page's URL and links before the
    audit ends (a job's crawl decides the next pages from them). ``timings`` says where
    the time went (:mod:`audit.phases`).
    """
    limits = limits or EngineLimits()
    with failures_classified(browser):
        return await _limited_page_audit(
            browser, url, request, limits, collect_links, frozenset(allow), tabs, progress
        )


async def _limited_page_audit(
    browser: Browser,
    url: str,
    request: AuditRequest,
    limits: EngineLimits,
    collect_links: bool,
    allow: frozenset[str] = frozenset(),
    tabs: TabSource | None = None,
    progress: PageProgress | None = None,
) -> PageAudit:
    """One page under the service-wide page limit; failures are still unclassified."""
    async with limits.page_limiter or nullcontext():
        return await _audit_page(
            browser, url, request, limits, collect_links, allow, tabs, progress
        )


async def _audit_page(
    browser: Browser,
    url: str,
    request: AuditRequest,
    limits: EngineLimits,
    collect_links: bool,
    allow: frozenset[str],
    tabs: TabSource | None = None,
    progress: PageProgress | None = None,
) -> PageAudit:
    clock = PhaseClock()
    source = tabs or SingleTabs(
        browser, guarded=limits.block_private_networks, allow=allow, ahead=limits.prepare_ahead
    )
    viewports = requested_viewports(request.viewport, request.viewports)
    async with _allowed_through_proxy(browser, allow), source.tab(clock) as tab:
        first_viewport = viewports[0] if viewports else None
        await prepare_auth(
            browser, source, tab, request, limits.login_runner, first_viewport, clock
        )
        audit = await audit_on_each(
            tab,
            viewports,
            lambda first: _audit_in_tab(
                browser,
                tab,
                url,
                request,
                limits,
                collect_links and first,
                clock,
                progress if first else None,
            ),
        )
        # A frame that hung, or a document that is not a page, may still hold the renderer.
        tab.spoiled |= bool(audit.page.untested_frames) or audit.page.status != "ok"
    audit.timings = clock.finish()
    log.debug(
        "page %s phases %s",
        without_credentials(url),
        audit.timings,
        extra={"a11y_timings": audit.timings},
    )
    return audit


async def _audit_in_tab(
    browser: Browser,
    tab: Tab,
    url: str,
    request: AuditRequest,
    limits: EngineLimits,
    collect_links: bool,
    clock: PhaseClock,
    progress: PageProgress | None = None,
) -> PageAudit:
    """Load ``url`` in the tab, let it settle, run axe over its frames, map the results.

    ``progress`` hears the document's URL as soon as it is known, if it is ``url`` itself
    (a redirected page's target is only final once the page is done: it may still fail),
    and the links once the page has settled, before axe runs, so a crawl can start the
    pages they lead to meanwhile."""
    judgment = request.llm.enabled and request.llm.judgment
    options = axe_run_options(request.version, request.level, request.best_practices, judgment)
    page = tab.page
    checks = (
        selected_interactive(request.version, request.level) if request.checks.interaction else []
    )
    start_ahead(checks)
    with clock.phase("navigate"):
        doc = await _load(page, url, limits, tab.guard)
    if progress is not None and normalize_url(doc.url) == normalize_url(url):
        progress.loaded(doc.url)
    if not doc.is_html:
        return _skipped(url, doc)
    runner = PartialRunner(
        page,
        options,
        frame_timeout=limits.frame_timeout,
        run_timeout=limits.audit_timeout,
        clock=clock,
    )
    world = _WorldAhead()
    async with trio.open_nursery() as waiting:  # axe loads while the page settles
        waiting.start_soon(runner.prepare)
        if checks:  # and the interaction world starts watching the page
            waiting.start_soon(world.prepare, page)
        with clock.phase("settle"):
            await settle(page, limits.settle_timeout)
    links: list[str] = []
    if collect_links:
        with clock.phase("links"):
            links = await _links(page)
        if progress is not None:
            progress.linked(links)
    with clock.phase("axe"):
        if tab.prepare_next is not None:  # the next request's tab, beside this run
            tab.prepare_next()  # (EngineLimits.prepare_ahead)
        run = await runner.run()
    results = run.results
    if results is None:
        with clock.phase("finish"):
            results = await finish_run(browser, run.partials, options, timeout=limits.audit_timeout)
    interaction = None
    state_shots: dict[StateKey, StateShot] = {}  # the interaction's evidence, by rule and selector
    if checks:
        with clock.phase("interact"):  # after axe, so the static results see the page as loaded
            report = await interact(
                page,
                url,
                checks,
                limits.interaction_budget,
                axe_options=options,
                prepared=world.prepared,
                shots=limits.screenshots.policy if limits.screenshots is not None else None,
            )
        results, interaction = merged(results, report.results), report.info
        state_shots = report.state_shots
    evidence = await collect_page_evidence(page, request, results, url)
    audit = _page_audit(url, doc, results, request, run.untested_frames, links, evidence)
    audit.page.interaction = interaction
    with clock.phase("identify"):  # while the page is open: its elements name the items
        described = await describe_elements(runner, results)
        fingerprint_page(audit, described.identities)
        assign_problems([*audit.findings, *audit.needs_review], described.components)
    if limits.screenshots is not None:  # last: the outline and scrolling change nothing above
        with clock.phase("screenshots"):
            await limits.screenshots.capture(
                page, url, audit.findings, audit.needs_review, state_shots
            )
    audit.page.dialogs = list(tab.dialogs.dialogs)  # a reused tab records the next page's anew
    return audit


class _WorldAhead:
    """The interaction world, made while the page settles (:func:`audit.interactive.prepare_world`):
    a page that refuses it leaves ``prepared`` None, and the phase makes its own."""

    prepared: PreparedWorld | None = None

    async def prepare(self, page: Page) -> None:
        try:
            self.prepared = await prepare_world(page)
        except (CDPError, JavaScriptError, trio.TooSlowError) as exc:
            log.debug("interaction world not prepared ahead: %s", exc)


@asynccontextmanager
async def _allowed_through_proxy(browser: Browser, allow: frozenset[str]) -> AsyncIterator[None]:
    """Let the egress proxy connect to the hosts of ``allow`` for the block (tests only: the
    request-level guard still judges every other URL on those hosts)."""
    if not allow:
        yield
        return
    proxy = await egress_proxy(browser)
    pairs = {
        (p.hostname or "", p.port or (443 if p.scheme == "https" else 80))
        for p in map(urlsplit, allow)
    }
    added = pairs - proxy.allow
    proxy.allow |= added
    try:
        yield
    finally:
        proxy.allow -= added


async def _load(page: Page, url: str, limits: EngineLimits, guard: NetGuard | None) -> DocumentInfo:
    """Navigate and wait for ``load``.

    Only what is known here alone becomes an AuditFailed here: a request the guard refused
    and an HTTP error status. Net errors and load timeouts leave as the driver raised them;
    the engine's boundary names them (:func:`audit.failures.classify`).
    """
    watch = DocumentWatch(page)
    try:
        await watch.start()
        result = await page.navigate(url, wait_until="load", timeout=limits.navigation_timeout)
        doc = await watch.document(str(result.loader_id) if result.loader_id else None)
    except NavigationFailed as exc:
        answered = watch.last_response()
        if answered is None or answered.status is None or answered.status < 400:
            blocked = guard.blocked_document() if guard is not None else None
            if blocked is None:
                raise
            raise AuditFailed(
                "navigation_failed",
                describe_block(blocked),
                [{"url": blocked.url, "netError": exc.error_text, "addresses": blocked.addresses}],
            ) from exc
        doc = answered
    finally:
        watch.close()
    if doc.status is not None and doc.status >= 400:
        raise AuditFailed(
            "http_error",
            f"{url} answered with HTTP status {doc.status}",
            [{"url": url, "status": doc.status}],
        )
    return doc


async def _links(page: Page) -> list[str]:
    world = await isolated_world(page.session, page.main_frame_id, "a11y-links")
    links = await evaluate(page.session, load_script("audit", "crawl_links"), world)
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
    evidence: Evidence | None,
) -> PageAudit:
    findings, review = findings_from(results, url)
    best = best_practices_from(results, url) if request.best_practices else []
    scored = scored_results(results)
    page = PageResult(
        url=url,
        status="ok",
        http_status=doc.status,
        score=page_score(scored, rule_impacts()),
        findings=len(findings),
        untested_frames=untested_frames,
        rules_tested=rules_tested(scored),
    )
    return PageAudit(page, findings, review, best, links, doc.url, results, llm_evidence=evidence)


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
    overrun = AuditFailed(
        "timeout",
        f"The audit did not finish within {limits.audit_timeout:g} s.",
        [{"url": request.url, "timeoutSeconds": limits.audit_timeout}],
    )
    try:
        with (
            failures_classified(browser, deadline=deadline, overrun=overrun),
            trio.fail_after(limits.audit_timeout),
        ):
            audits = await _audit_pages(browser, request, limits, on_page)
    except AuditFailed as failure:
        log.warning(
            "audit %s failed: %s: %s",
            without_credentials(request.url),
            failure.code,
            failure.message,
        )
        raise
    llm_summary = await review_audit(request, audits, deadline)  # never raises
    result = assemble(request, audits, int((time.monotonic() - started) * 1000))
    result.llm = llm_summary
    log.debug(  # the service and the CLI write the one line per audit
        "audit %s: %d page(s), %d finding(s), score %.1f, %d ms",
        without_credentials(request.url),
        len(result.pages),
        len(result.findings),
        result.score,
        result.duration_ms,
    )
    return result


async def _audit_pages(
    browser: Browser,
    request: AuditRequest,
    limits: EngineLimits,
    on_page: Callable[[PageResult], None] | None,
) -> list[PageAudit]:
    """The pages of the audit, in the tabs they may share (:mod:`audit.tabs`)."""
    crawl = request.crawl
    crawling = crawl.enabled and crawl.depth > 0 and crawl.max_pages > 1
    guarded = limits.block_private_networks
    if limits.private_browser and not guarded:  # a guarded page needs a proxied context
        async with SharedTabs.open_private(browser) as tabs:
            return await _audit_site(browser, request, limits, on_page, crawling, tabs)
    if crawling and limits.share_crawl_context:
        async with SharedTabs.open(browser, guarded=guarded) as tabs:
            return await _audit_site(browser, request, limits, on_page, crawling, tabs)
    return await _audit_site(browser, request, limits, on_page, crawling, None)


async def _audit_site(
    browser: Browser,
    request: AuditRequest,
    limits: EngineLimits,
    on_page: Callable[[PageResult], None] | None,
    crawling: bool,
    tabs: TabSource | None,
) -> list[PageAudit]:
    """The start page (its failure is the audit's, classified by :func:`run_audit`), then
    the crawl, where each page's failure is classified on its own and only a crashed browser
    ends the audit. A crawl audits the start page itself, so the pages it links to start as
    soon as its links are known."""
    crawl = request.crawl

    def notify(audit: PageAudit) -> None:
        if on_page is not None:
            on_page(audit.page)

    async def audit_start(progress: PageProgress | None = None) -> PageAudit:
        start = await _limited_page_audit(
            browser, request.url, request, limits, crawling, tabs=tabs, progress=progress
        )
        if start.page.status == "skipped":
            raise AuditFailed(
                "audit_failed",
                f"{request.url} is not an HTML page and cannot be audited.",
                [
                    {
                        "url": request.url,
                        "reason": start.page.error.message if start.page.error else "",
                    }
                ],
            )
        return start

    if not crawling:
        start = await audit_start()
        notify(start)
        return [start]

    async def audit_one(url: str, want_links: bool, progress: PageProgress) -> PageAudit:
        try:
            with failures_classified(browser):
                audit = await _limited_page_audit(
                    browser, url, request, limits, want_links, tabs=tabs, progress=progress
                )
            audit.axe_results = None  # a long crawl must not hold every page's raw results
            return audit
        except AuditFailed as failure:
            if failure.code == "browser_crashed":
                raise
            log.info(
                "page %s failed: %s: %s", without_credentials(url), failure.code, failure.message
            )
            status = next((d.get("status") for d in failure.details if isinstance(d, dict)), None)
            return PageAudit(
                PageResult(url=url, status="failed", http_status=status, error=failure.error_info())
            )

    return await crawl_site(
        PendingStart(request.url, audit_start),
        audit_one,
        depth=crawl.depth,
        max_pages=crawl.max_pages,
        concurrency=limits.concurrency,
        start_urls=[request.url],
        on_audit=notify,
        reports_loaded=True,
        by_level=not limits.pipelined_crawl,
    )
