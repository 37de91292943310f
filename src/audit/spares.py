"""Blank pages made ready before an audit asks for one.

Opening a tab in a fresh browser context starts a renderer process, and loading axe into a
new process compiles half a megabyte of JavaScript: together more than auditing a small page.
So the next page is prepared in the background, beside an audit's axe run or between audits:
its own context, a blank tab, and, once the browser is idle, axe loaded and run once over a
small sample document in a throw-away isolated world, so the renderer's caches already hold
its compiled code. The first navigation of a new tab stays in that renderer, where the
audit's own injection and run then start warm. Each spare serves one audit request (a
single page, or the pages of one crawl: :mod:`audit.tabs`), in a context no other request
ever saw, so isolation between audits is what a cold page would give.

With ``--block-private-networks`` the contexts are *guarded*: created with the browser's
egress proxy (:mod:`audit.egress`), so every connection of their pages is judged by the
address actually connected to. Guarded and unguarded spares are kept apart.

Spares exist only for headless browsers (in a headed one each would be a visible window), and
their refill and clean-up tasks run in the browser's own nursery, so none outlives the browser.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import trio

from cdpdriver import Browser, Page, call_function, isolated_world
from cdpdriver.scripts import load_script

from .axe import STEP_TIMEOUT, finisher_pool, inject
from .egress import BYPASS_NOTHING, egress_proxy
from .phases import PhaseClock
from .tab_setup import new_audit_page

log = logging.getLogger(__name__)

#: How long a caller waits for a spare being prepared before making a page of its own.
FILL_WAIT = 5.0
#: How long the browser must be idle before spares are made (or warmed).
IDLE_DELAY = 0.1


# A small document with the kinds of content most rules look at (no URLs: nothing is fetched).
_WARM_DOCUMENT = (
    "<head><title>warm</title></head><body><header><nav><a href='#m'>skip</a></nav></header>"
    "<main id=m><h1>Title</h1><h3>Skipped level</h3><p style='color:#aaa'>Text <a>link</a></p>"
    "<ul><li>one</li></ul><dl><dt>t</dt><dd>d</dd></dl><img><img alt=''><svg role=img></svg>"
    "<form><label for=a>A</label><input id=a><input type=checkbox><select><option>o</option>"
    "</select><textarea></textarea><button></button></form><table><caption>c</caption>"
    "<tr><th scope=col>h</th></tr><tr><td>d</td></tr></table><div role=button tabindex=0></div>"
    "<div aria-hidden=true><a href='#m'>hidden</a></div><video></video><iframe></iframe>"
    "</main><footer lang=xx>f</footer></body>"
)


@dataclass
class _Spare:
    page: Page
    context_id: str
    #: Set when a caller took it: a warm-up still running stops at its next step.
    taken: bool = False
    #: Set once a warm-up started (a spare made beside an audit is warmed when idle, if ever).
    warming: bool = False


class SparePages:
    """Up to ``target`` ready pages for one browser; see the module docstring.

    Spares are prepared once no audit has run on the browser for ``IDLE_DELAY``, so they use
    idle time and rarely take CPU from an audit; and, without their warm-up, beside an audit's
    axe run (:meth:`prepare_beside`), for a request that follows at once, the warm-up then
    waiting for idle time. A spare is ready as soon as its context and tab exist; axe is
    compiled in it afterwards, and a caller that takes it meanwhile never waits for that
    warm-up (what of it is done already is done for the caller's page too; the rest is
    skipped). A caller that finds none ready waits only for a tab being made, and otherwise
    makes its page cold. Used pages are closed in the browser's nursery, off the caller's
    critical path.
    """

    def __init__(self, browser: Browser, target: int = 1, *, guarded: bool = False) -> None:
        self.browser = browser
        self.guarded = guarded
        self.target = target if browser.is_headless else 0
        self._ready: list[_Spare] = []
        self._scheduled = 0
        self.closing = 0  # used pages whose close and context disposal still run
        self._filling = 0
        self._active = 0
        self._filled = trio.Event()

    @asynccontextmanager
    async def page(self, clock: PhaseClock | None = None) -> AsyncIterator[Page]:
        """A page in a fresh context of its own; page and context are disposed after the block.

        ``clock`` gets the ``lease`` (and, for a page made cold, ``context``) and ``close``
        phases."""
        clock = clock or PhaseClock()
        self._active += 1
        try:
            with clock.phase("lease"):
                spare = await self._take(clock)
        except BaseException:
            self._active -= 1
            raise
        try:
            yield spare.page
        finally:
            with clock.phase("close"):
                self._active -= 1
                self._release(spare)
                if not self._active:
                    self._refill()

    def prepare_beside(self) -> None:
        """Make the next spare now, beside a running audit, for a request that may follow at
        once: its context and blank tab only, since compiling axe beside an audit slows the
        audit more than it saves the next one. Its warm-up waits for idle time."""
        self._refill(idle=False)

    async def _take(self, clock: PhaseClock) -> _Spare:
        # A tab half made costs less to finish than a cold one made beside it.
        with trio.move_on_after(FILL_WAIT):
            while not self._ready and self._filling:
                await self._filled.wait()
        while self._ready:
            spare = self._ready.pop()
            spare.taken = True
            if not spare.page.is_closed:
                return spare
            self._release(spare)
        return await self._make(clock)

    def _release(self, spare: _Spare) -> None:
        """Close a used page and dispose its context in the background (shielded there); once
        the browser is gone there is nothing left to close."""
        if self.browser.is_connected:
            self.browser.start_task(self._close_released, spare.page, spare.context_id)
            self.closing += 1  # counted once started: the task runs only after this returns

    async def _close_released(self, page: Page, context_id: str) -> None:
        try:
            await self._close(page, context_id)
        finally:
            self.closing -= 1

    def _refill(self, *, idle: bool = True) -> None:
        """Schedule spares up to the target, in the browser's nursery; when idle, also the
        warm-up of spares made beside an audit."""
        while len(self._ready) + self._scheduled < self.target and self.browser.is_connected:
            self._scheduled += 1
            self.browser.start_task(self._fill_one, idle)
        if idle:
            for spare in self._ready:
                if not spare.warming and self.browser.is_connected:
                    spare.warming = True
                    self.browser.start_task(self._warm_when_idle, spare)

    async def _fill_one(self, idle: bool) -> None:
        """Make one spare, and warm it when made in idle time. With ``idle``, only once the
        browser has been idle for ``IDLE_DELAY``, giving up if an audit started meanwhile (on
        a busy machine back-to-back audits gain nothing from a spare they compete with)."""
        try:
            if idle and not await self._idle_for_a_while():
                return
            self._filling += 1
            try:
                spare = await self._make()
            finally:
                self._filling -= 1
                self._filled.set()
                self._filled = trio.Event()
            self._ready.append(spare)
            if idle:
                spare.warming = True
                await self._warm(spare)
            elif not self._active:  # the audit it was made beside ended meanwhile
                self._refill()
        except Exception as exc:  # noqa: BLE001 - a spare is an optimisation; a cold page will do
            log.debug("could not prepare a spare page: %s", exc)
        finally:
            self._scheduled -= 1

    async def _warm_when_idle(self, spare: _Spare) -> None:
        """Warm a spare made beside an audit, once the browser is idle (and if still unused)."""
        try:
            if await self._idle_for_a_while():
                await self._warm(spare)
            else:
                spare.warming = False  # the next idle time tries again
        except Exception as exc:  # noqa: BLE001 - an unwarmed spare still serves
            log.debug("could not warm a spare page: %s", exc)

    async def _idle_for_a_while(self) -> bool:
        await trio.sleep(IDLE_DELAY)
        return not self._active

    async def _make(self, clock: PhaseClock | None = None) -> _Spare:
        """A new context and a blank tab in it, set up for audits (:mod:`audit.tab_setup`)."""
        page: Page | None = None
        clock = clock or PhaseClock()
        # Shielded so that whatever the browser created is recorded for disposal.
        with trio.CancelScope(shield=True), trio.fail_after(STEP_TIMEOUT):
            with clock.phase("context"):
                context_id = await self._create_context()
            try:
                page = await new_audit_page(self.browser, context_id)
            except BaseException:
                await self._close(page, context_id)
                raise
        return _Spare(page, context_id)

    async def _warm(self, spare: _Spare) -> None:
        """Compile axe in the spare's renderer (and run it once over a sample) until taken."""
        page = spare.page
        with trio.fail_after(STEP_TIMEOUT):
            if spare.taken:
                return
            world = await isolated_world(page.session, page.main_frame_id, "a11y-warm")
            if spare.taken:
                return
            await inject(page.session, world)
            if spare.taken:
                return
            await call_function(
                page.session, load_script("audit", "axe_warm_run"), _WARM_DOCUMENT,
                context_id=world, await_promise=True,
            )

    async def _create_context(self) -> str:
        """A fresh context; a guarded one connects only through the egress proxy."""
        if not self.guarded:
            return await self.browser.create_context()
        proxy = await egress_proxy(self.browser)
        return await self.browser.create_context(
            proxy_server=proxy.proxy_server, proxy_bypass_list=BYPASS_NOTHING
        )

    async def _close(self, page: Page | None, context_id: str) -> None:
        with trio.CancelScope(shield=True):
            if page is not None:
                await page.close()
            await self.browser.dispose_context(context_id)


_SPARES: weakref.WeakKeyDictionary[Browser, dict[bool, SparePages]] = weakref.WeakKeyDictionary()


def spare_pages(browser: Browser, *, guarded: bool = False) -> SparePages:
    """The spares of ``browser``, guarded or not (made on first use, gone with the browser)."""
    kinds = _SPARES.setdefault(browser, {})
    spares = kinds.get(guarded)
    if spares is None:
        spares = kinds[guarded] = SparePages(browser, guarded=guarded)
    return spares


def warm_up(browser: Browser, *, guarded: bool = False) -> None:
    """Start preparing a spare page and a finisher now (e.g. right after a service launched
    its browser), so that the first audit is as fast as the later ones."""
    spare_pages(browser, guarded=guarded)._refill()
    finisher_pool(browser).prewarm_in_background()
