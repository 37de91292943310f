"""What the guard rails set up in every tab before its first document runs.

- WebRTC off (with any origin rule): peer connections talk UDP (STUN) and TURN over TCP to
  hosts no request or proxy sees, so ``RTCPeerConnection`` and its kin are removed from
  every window by an init script (``webrtc_off.js``). It runs in the tab's frames, same-
  process ones included (about:blank and srcdoc iframes too, checked on this Chromium), in
  popups (adopted paused, so set up as tabs are) and, through a child hook, in each
  out-of-process iframe before it runs. Workers have no ``RTCPeerConnection``. A browser the
  server launches also gets ``--webrtc-ip-handling-policy=disable_non_proxied_udp``.
- Form submissions: the tab's ``Page.frameRequestedNavigation`` events are handed to the
  request guard, which reads them when it judges a document request (:mod:`.requests`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cdpdriver.scripts import load_script

from .policy import GuardConfig

if TYPE_CHECKING:
    from cdpdriver import Batch
    from cdpdriver.page import ChildTarget

    from ..session import TabSetup, ToolSession
    from ..tab import Tab

log = logging.getLogger(__name__)

WEBRTC_LAUNCH_ARGS = ("--webrtc-ip-handling-policy=disable_non_proxied_udp",)


def launch_args(config: GuardConfig | None) -> tuple[str, ...]:
    """Chromium flags for a browser the server launches under these rules."""
    return WEBRTC_LAUNCH_ARGS if config is not None and config.origins_ruled else ()


def tab_setup(session: ToolSession, config: GuardConfig) -> TabSetup | None:
    """The set-up each new tab of ``session`` gets, or None when the rules need none."""
    if not (config.origins_ruled or config.confirm_actions):
        return None

    def setup(tab: Tab, batch: Batch) -> None:
        if config.origins_ruled:
            batch.send("Page.addScriptToEvaluateOnNewDocument", {"source": load_script("tools", "webrtc_off")})
            tab.page.child_hooks.append(_webrtc_off_in_frame)
        guard = session.host.browser_guard
        if guard is not None:
            guard.watch_forms(tab)

    return setup


async def _webrtc_off_in_frame(child: ChildTarget) -> None:
    """An out-of-process iframe, still paused: its documents get the script too (which, on
    this Chromium, takes the Page domain enabled on the frame's session first)."""
    if child.type == "iframe":
        async with child.session.batch(timeout=10) as batch:
            batch.send("Page.enable")
            added = batch.send("Page.addScriptToEvaluateOnNewDocument", {"source": load_script("tools", "webrtc_off")})
        added.result()
