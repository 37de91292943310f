"""The tabs pages are audited in, and who may share one.

A :class:`Tab` is a page made ready for audits: its dialogs are answered
(:mod:`audit.dialogs`), with ``--block-private-networks`` its requests are judged
(:mod:`audit.netguard`), and it has the audit tab's set-up (:mod:`audit.tab_setup`: the
readiness tracker from each document's first script, focus emulation, request counting).

Separate audit requests never share cookies, storage, cache or a renderer: each single-page
audit gets a tab in a fresh browser context of its own (:class:`SingleTabs`, a prepared spare
when one is ready, :mod:`audit.spares`), disposed afterwards. The pages of one crawl come from
one request (one origin, the same settings), so they share a browser context
(:class:`SharedTabs`), the one the start page was given, disposed when the crawl ends: up to
``concurrency`` tabs, each reused from page to page. A tab that navigates to the next page of
the same site keeps its renderer, where axe-core's code is already compiled and the site's
styles and scripts are cached, so every page after the first skips a context, a tab, a
renderer start and most of axe's load. A tab whose page failed, left a frame untested, or no
longer answers is closed rather than reused, so one page's hang never reaches the next. A
browser that serves one audit only (the CLI's) is that audit's alone: its pages share the
browser's own context (:meth:`SharedTabs.open_private`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Protocol

import trio

from cdpdriver import Browser, CDPError, Page
from cdpdriver.protocol import target as target_domain

from .dialogs import DialogAnswerer
from .netguard import NetGuard
from .phases import PhaseClock
from .spares import spare_pages
from .tab_setup import new_audit_page, set_up

log = logging.getLogger(__name__)

#: How long a tab that is to be reused may take to answer a trivial evaluation.
ALIVE_TIMEOUT = 2.0


@dataclass
class Tab:
    """A page ready for audits; :meth:`begin` clears what the previous page left."""

    page: Page
    dialogs: DialogAnswerer
    guard: NetGuard | None
    #: Set by the audit when this tab must not be used again (see the module docstring).
    spoiled: bool = False
    #: Where the tab's helpers run (request handlers the audit adds, e.g. :mod:`audit.auth`).
    nursery: trio.Nursery | None = None
    #: Prepares the tab of a request that may follow this one's (fresh context each): set
    #: for separate requests' tabs only (:class:`SingleTabs` with ``ahead``).
    prepare_next: Callable[[], None] | None = None

    @classmethod
    async def attach(cls, page: Page, nursery: trio.Nursery, *, guarded: bool, allow: frozenset[str]) -> Tab:
        """Answer dialogs (and judge requests) from now on, in ``nursery``, which must
        outlive every use of the tab; see that it has the audit tab's set-up."""
        dialogs = DialogAnswerer()
        await dialogs.attach(page, nursery)
        guard = None
        if guarded:
            guard = NetGuard(allow=allow)
            await guard.attach(page, nursery)
        await set_up(page)  # a page made for audits has it already (audit.tab_setup)
        return cls(page, dialogs, guard, nursery=nursery)

    def begin(self) -> None:
        """A new page's audit starts: the dialogs and refusals recorded are its own only."""
        self.dialogs.dialogs = []
        self.dialogs.count = 0
        if self.guard is not None:
            self.guard.blocked.clear()


class TabSource(Protocol):
    def tab(self, clock: PhaseClock) -> AbstractAsyncContextManager[Tab]:
        """A tab for one page's audit, for the duration of the block."""
        ...


class SingleTabs:
    """A tab in a fresh context of its own for each page: what separate requests get."""

    def __init__(self, browser: Browser, *, guarded: bool, allow: frozenset[str], ahead: bool = False) -> None:
        self.browser = browser
        self.guarded = guarded
        self.allow = allow
        self.ahead = ahead

    @asynccontextmanager
    async def tab(self, clock: PhaseClock) -> AsyncIterator[Tab]:
        spares = spare_pages(self.browser, guarded=self.guarded)
        async with spares.page(clock) as page, trio.open_nursery() as nursery:
            try:
                with clock.phase("lease"):
                    tab = await Tab.attach(page, nursery, guarded=self.guarded, allow=self.allow)
                if self.ahead:
                    tab.prepare_next = spares.prepare_beside
                yield tab
            finally:
                nursery.cancel_scope.cancel()


class SharedTabs:
    """The tabs the pages of one audit share, in one browser context; see the module docstring.

    :meth:`open` takes a prepared spare as the first tab and its fresh context for the rest,
    and disposes that context, with every tab in it, on exit. :meth:`open_private` is for a
    browser that serves this one audit alone (the CLI's): the browser's own context, starting
    with the blank tab it opened at launch, whose renderer started while the process was
    still importing the engine (never guarded: only a context made with the egress proxy can
    be).
    """

    def __init__(
        self, browser: Browser, nursery: trio.Nursery, first: Page | None, *, guarded: bool,
        allow: frozenset[str], context_id: str | None,
    ) -> None:
        self.browser = browser
        self.guarded = guarded
        self.allow = allow
        self._nursery = nursery
        self._context_id = context_id
        self._fresh: list[Page] = [first] if first is not None else []
        self._idle: list[Tab] = []
        self._pages: list[Page] = []

    @classmethod
    @asynccontextmanager
    async def open(
        cls, browser: Browser, *, guarded: bool, allow: frozenset[str] = frozenset()
    ) -> AsyncIterator[SharedTabs]:
        spares = spare_pages(browser, guarded=guarded)
        async with spares.page() as first, trio.open_nursery() as nursery:
            tabs = cls(browser, nursery, first, guarded=guarded, allow=allow, context_id=first.context_id)
            try:
                yield tabs
            finally:
                nursery.cancel_scope.cancel()
                tabs._close_all(keep=first)

    @classmethod
    @asynccontextmanager
    async def open_private(cls, browser: Browser) -> AsyncIterator[SharedTabs]:
        async with trio.open_nursery() as nursery:
            first = await _launch_tab(browser)
            tabs = cls(browser, nursery, first, guarded=False, allow=frozenset(), context_id=None)
            try:
                yield tabs
            finally:
                nursery.cancel_scope.cancel()
                tabs._close_all(keep=None)

    def _close_all(self, keep: Page | None) -> None:
        """Close every tab but ``keep`` (closed by its own owner) in the background."""
        for page in self._pages:
            if page is not keep and self.browser.is_connected:
                self.browser.start_task(page.close)

    @asynccontextmanager
    async def tab(self, clock: PhaseClock) -> AsyncIterator[Tab]:
        with clock.phase("lease"):
            tab = await self._take()
        try:
            yield tab
        except BaseException:
            tab.spoiled = True
            raise
        finally:
            with clock.phase("close"):
                await self._give_back(tab)

    async def _take(self) -> Tab:
        if self._idle:
            tab = self._idle.pop()
        else:
            page = self._fresh.pop() if self._fresh else await self._new_page()
            self._pages.append(page)
            tab = await Tab.attach(page, self._nursery, guarded=self.guarded, allow=self.allow)
        tab.begin()
        return tab

    async def _new_page(self) -> Page:
        # Shielded so that a target the browser created is always recorded for closing.
        with trio.CancelScope(shield=True):
            return await new_audit_page(self.browser, self._context_id)

    async def _give_back(self, tab: Tab) -> None:
        """Keep the tab for the next page if it is sound and still answers; else close it."""
        if not tab.spoiled and not tab.page.is_closed:
            with trio.move_on_after(ALIVE_TIMEOUT):
                try:
                    await tab.page.evaluate("0", timeout=ALIVE_TIMEOUT)
                    self._idle.append(tab)
                    return
                except CDPError as exc:
                    log.debug("tab no longer answers, closing it: %s", exc)
        if self.browser.is_connected:
            self.browser.start_task(tab.page.close)


async def _launch_tab(browser: Browser) -> Page | None:
    """The blank tab a launched browser opened in its own context, if it is still unused."""
    created = await browser.session.execute(target_domain.get_browser_contexts())
    for info in await browser.targets():
        if (
            info.type == "page" and not info.attached and info.url == "about:blank"
            and info.browser_context_id not in created.browser_context_ids
        ):
            try:
                return await browser.attach_page(str(info.target_id))
            except CDPError as exc:
                log.debug("could not use the launch tab: %s", exc)
    return None
