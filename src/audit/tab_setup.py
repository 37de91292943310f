"""What every audit tab is set up with before its first document.

- the readiness tracker (:mod:`audit.readiness`), from each document's first script on;
- focus emulation: every tab acts as the focused one, so focus styles apply
  (:mod:`audit.interactive.focus_visible`) whichever tab the browser happens to focus;
- the counting of requests in flight, which the settle wait needs from the navigation on.

A page made for audits (:func:`new_audit_page`: spares, a crawl's further tabs) gets all of it
with the page's own set-up, in its first round trip: on a tab made while a request waits, two
round trips fewer. A page made otherwise (the CLI's launch tab) gets it when it becomes a tab
(:func:`set_up`).
"""

from __future__ import annotations

import weakref
from typing import Any

from cdpdriver import Browser, Page
from cdpdriver.connection import Command
from cdpdriver.protocol import emulation

from .readiness import install_tracker, tracker_command

#: Pages that have the set-up (made by :func:`new_audit_page` or given it by :func:`set_up`).
_SET_UP: weakref.WeakSet[Page] = weakref.WeakSet()


def _beside_tracker() -> list[Command[Any]]:
    """The tab's commands besides the tracker and the page's own set-up (made anew for each
    use: a command is a generator, good for one send)."""
    return [emulation.set_focus_emulation_enabled(True)]


async def new_audit_page(browser: Browser, context_id: str | None = None) -> Page:
    """A new blank tab in ``context_id``, set up for audits in its first round trip, in a
    window of its own: a crawl audits several pages at once, and each must be a visible
    document (drawn, animating, its screenshots taken at once), not a background tab."""
    page = await browser.new_page(
        context_id=context_id, setup=[tracker_command(), *_beside_tracker()], track_network=True,
        new_window=True,  # visible, beside the run's other tabs (Browser.new_page)
    )
    _SET_UP.add(page)
    return page


async def set_up(page: Page) -> None:
    """Give ``page`` the set-up if it does not have it yet; a failure is raised."""
    if page in _SET_UP:
        return
    await install_tracker(page, *_beside_tracker())  # the tracker, then these, then the network
    _SET_UP.add(page)
