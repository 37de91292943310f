"""Load a page and wait until it is worth auditing.

"Loaded" is not enough for pages that render after the load event (SPAs, deferred widgets),
and a fixed quiet window either misses them or taxes every static page. So the engine watches
the work a page still has queued: a small tracker, installed before the first page script
(``Page.addScriptToEvaluateOnNewDocument``), counts pending short timers (``setTimeout`` up to
a second; a callback that re-arms itself is a poller and is not counted) and notes the last DOM
mutation; the driver counts requests in flight. The page is ready when no request is in flight,
no short timer is pending, and neither the network nor the DOM changed for ``QUIET`` seconds.
The whole wait is capped (``SETTLE_CAP``), so a page that polls or animates forever is
audited anyway.

The tracker (``js/readiness_tracker.js``) lives in the page's own world (it has to see the
page's timers); a page that tampers with it can only change how long the wait lasts, never
what axe sees, since axe runs in isolated worlds.

The main document's HTTP status and MIME type come from ``Network.responseReceived`` (the
navigation's own response, matched by loader id), with the Navigation Timing entry and
``document.contentType`` as fall-backs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial
from typing import Any

import trio

from cdpdriver import CDPError, NavigationTimeout, Page, evaluate, isolated_world
from cdpdriver.connection import Command
from cdpdriver.protocol import page as page_domain
from cdpdriver.scripts import call_expression, load_script

log = logging.getLogger(__name__)

#: How long network and DOM must both stay unchanged once no known work is pending.
QUIET = 0.05
SETTLE_CAP = 3.0
HTML_TYPES = ("text/html", "application/xhtml+xml")
#: The key under which the tracker (``js/readiness_tracker.js``) exposes its wait.
_TRACKER_WAIT = "globalThis[Symbol.for('a11y.readiness')]"


@dataclass
class DocumentInfo:
    """What the main document's response said."""

    url: str
    status: int | None
    mime_type: str

    @property
    def is_html(self) -> bool:
        return self.mime_type.split(";", 1)[0].strip().lower() in HTML_TYPES


class DocumentWatch:
    """Records the main frame's document responses; start it before navigating."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self._events = page.session.listen(["Network.responseReceived"], raw=True)
        self._seen: dict[str, DocumentInfo] = {}

    async def start(self) -> None:
        """Enable the Network domain and count requests (for the idle wait) from now on."""
        await self.page.track_network()

    def close(self) -> None:
        self._events.close()

    def _drain(self) -> None:
        while True:
            try:
                event = self._events.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                return
            params = event.params
            if params.get("type") != "Document" or params.get("frameId") != self.page.main_frame_id:
                continue
            response = params.get("response") or {}
            self._seen[str(params.get("requestId"))] = DocumentInfo(
                url=str(response.get("url", "")),
                status=response.get("status"),
                mime_type=str(response.get("mimeType", "")),
            )

    def last_response(self) -> DocumentInfo | None:
        """The latest main-document response, e.g. of a navigation that then failed
        (Chromium fails an error status with an empty body as ERR_HTTP_RESPONSE_CODE_FAILURE)."""
        self._drain()
        return next(reversed(self._seen.values()), None)

    async def document(self, loader_id: str | None) -> DocumentInfo:
        """The response of the navigation ``loader_id`` (its request id is the loader id).

        Ends the watch: later responses are no longer recorded.
        """
        self._drain()
        self.close()
        info = self._seen.get(str(loader_id)) if loader_id else None
        if info is not None and info.status is not None and info.mime_type:
            return info
        world = await isolated_world(self.page.session, self.page.main_frame_id, "a11y-doc")
        data = await evaluate(self.page.session, load_script("audit", "document_info"), world)
        return DocumentInfo(
            url=(info.url if info else "") or str(data.get("url", "")),
            status=(info.status if info else None) or data.get("status"),
            mime_type=(info.mime_type if info else "") or str(data.get("mimeType", "")),
        )


def tracker_command() -> Command[Any]:
    """The command that installs the tracker from the next document's first script on."""
    return page_domain.add_script_to_evaluate_on_new_document(source=load_script("audit", "readiness_tracker"))


async def install_tracker(page: Page, *also: Command[Any]) -> None:
    """Track the page's pending work from the next document's first script on; call it
    before navigating (``settle`` installs it late otherwise, missing earlier timers).

    ``also`` are further set-up commands of the tab, sent in the same round trip; a failure
    of any of them is raised."""
    async with page.session.batch() as batch:
        replies = [batch.execute(tracker_command()), *(batch.execute(command) for command in also)]
    for reply in replies:
        reply.result()
    await page.track_network()


async def settle(page: Page, cap: float = SETTLE_CAP, quiet: float = QUIET) -> bool:
    """Wait until the page has no pending work and stayed quiet for ``quiet`` seconds.

    Returns False when ``cap`` seconds passed first (the audit goes ahead regardless)."""
    await page.track_network()
    deadline = trio.current_time() + cap
    while (remaining := deadline - trio.current_time()) > 0:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(partial(page.wait_for_network_quiet, quiet, timeout=remaining))
            idle = await _page_idle(page, quiet, deadline)
        if idle and page.network_quiet_for() >= quiet:
            return True
    log.debug("page still busy after %.1f s; auditing anyway", cap)
    return False


async def _page_idle(page: Page, quiet: float, deadline: float) -> bool:
    """The tracker's verdict; a page that navigated meanwhile is waited for to load again.

    One evaluation installs the tracker if the document has none yet (it came before
    :func:`install_tracker`, or the init script was skipped) and then waits on it."""
    remaining = max(deadline - trio.current_time(), 0.0)
    wait = call_expression(_TRACKER_WAIT, round(quiet * 1000), round(remaining * 1000))
    expression = f"{load_script('audit', 'readiness_tracker')}\n{wait}"
    try:
        return bool(await page.evaluate(expression, timeout=remaining + 2))
    except CDPError as exc:  # e.g. the document was replaced while we waited
        log.debug("readiness check failed, waiting for the next document: %s", exc)
        try:
            await page.wait_for_load_state("load", timeout=max(deadline - trio.current_time(), 0.01))
        except NavigationTimeout:
            pass
        await trio.sleep(0.05)  # never spin on a page that refuses every evaluation
        return False
