"""Load a page and wait until it is worth auditing.

"Loaded" is not enough for pages that render after the load event (SPAs, deferred widgets),
so after ``load`` comes a bounded quiet window: first the network goes idle (no request in
flight for half a second, the driver's ``networkidle``), then the DOM stays unchanged for
``DOM_QUIET`` seconds (a MutationObserver in an isolated world, where page scripts cannot
disturb it). The order matters: content a timer renders shortly after the network settled is
still caught. The whole window is capped, so a page that polls or animates forever is audited
after ``SETTLE_CAP`` seconds anyway.

The main document's HTTP status and MIME type come from ``Network.responseReceived`` (the
navigation's own response, matched by loader id), with the Navigation Timing entry and
``document.contentType`` as fall-backs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import trio

from cdpdriver import CDPError, NavigationTimeout, Page

from .axe import evaluate, isolated_world

log = logging.getLogger(__name__)

DOM_QUIET = 0.3
SETTLE_CAP = 3.0
HTML_TYPES = ("text/html", "application/xhtml+xml")

_DOM_QUIET_JS = """new Promise(resolve => {
  const quiet = %d, cap = %d;
  let timer = 0, capTimer = 0;
  const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quiet); });
  function done(settled) {
    observer.disconnect(); clearTimeout(timer); clearTimeout(capTimer); resolve(settled !== false);
  }
  observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  timer = setTimeout(done, quiet);
  capTimer = setTimeout(() => done(false), cap);
})"""

_DOCUMENT_INFO_JS = """(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return {url: location.href, status: nav && nav.responseStatus || null,
          mimeType: document.contentType || ''};
})()"""


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
        data = await evaluate(self.page.session, _DOCUMENT_INFO_JS, world)
        return DocumentInfo(
            url=(info.url if info else "") or str(data.get("url", "")),
            status=(info.status if info else None) or data.get("status"),
            mime_type=(info.mime_type if info else "") or str(data.get("mimeType", "")),
        )


async def settle(page: Page, cap: float = SETTLE_CAP, dom_quiet: float = DOM_QUIET) -> None:
    """Wait for network idle, then a quiet DOM; returns after ``cap`` seconds regardless."""
    deadline = trio.current_time() + cap
    try:
        await page.wait_for_load_state("networkidle", timeout=cap)
    except NavigationTimeout:
        log.debug("network still busy after %.1f s; auditing anyway", cap)
    remaining = max(deadline - trio.current_time(), dom_quiet + 0.05)
    try:
        world = await isolated_world(page.session, page.main_frame_id, "a11y-ready")
        settled = await evaluate(
            page.session,
            _DOM_QUIET_JS % (int(dom_quiet * 1000), int(remaining * 1000)),
            world,
            await_promise=True,
            timeout=remaining + 2,
        )
        if not settled:
            log.debug("DOM still changing after %.1f s; auditing anyway", cap)
    except CDPError as exc:  # e.g. the page navigated itself meanwhile
        log.debug("DOM quiet wait failed: %s", exc)
