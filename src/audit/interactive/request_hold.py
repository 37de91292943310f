"""Requests held while a check acts: only those that cannot change anything leave the browser.

An interactive check that submits a form (:mod:`.error_identification`) must never send
anything to a server on the user's behalf. The phase's submission guard stops native form
submissions, but a page's own script may post what the form holds with ``fetch``, an
``XMLHttpRequest`` or a beacon. For the block of :func:`held_requests`, every request of the
page's document is paused with the Fetch domain on the page's session before it leaves the
browser: GET, HEAD and OPTIONS go on, every other method is failed with ``BlockedByClient``
(a network error in the page) and counted. The page's own requests bypass its service worker
meanwhile, so that none reaches the network from there unseen.

Two users of the Fetch domain on one session would take each other's requests (the second
``Fetch.enable`` replaces the first's patterns, and a ``Fetch.disable`` ends both): when the
audit already pauses this page's requests (the private-network guard, :mod:`audit.netguard`,
or the audit's own headers, :mod:`audit.auth`), :func:`requests_intercepted` says so and the
check must not act. Not held: what workers the page already runs send by themselves, frames
in other processes, and messages over sockets the page has open.
"""

from __future__ import annotations

import logging
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import trio

from cdpdriver import CDPError, Page, Session, TargetClosed

from ..urls import without_credentials

log = logging.getLogger(__name__)

#: Methods that only read: the requests let through while held.
READING_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
PAUSED = "Fetch.requestPaused"
#: One CDP command of the hold at most, in seconds.
COMMAND_TIMEOUT = 5.0


@dataclass
class Held:
    """What the page asked for while held: the refused requests as (method, URL)."""

    refused: list[tuple[str, str]] = field(default_factory=list)


def requests_intercepted(page: Page) -> bool:
    """Whether something of the audit's already pauses the requests of ``page``'s session."""
    return page.session.subscribed(PAUSED)


@asynccontextmanager
async def held_requests(page: Page) -> AsyncIterator[Held]:
    """Hold the page's requests for the block (see the module docstring). The answers run in
    the browser's own task, outside the check's cancel scopes: a request paused while the
    check is stopped is still answered, and every one is answered once the block ends."""
    session = page.session
    held = Held()
    events = session.listen([PAUSED], raw=True, buffer=math.inf)
    page.browser.start_task(_answer_all, session, events, held)
    released = False
    try:
        await session.send("Network.setBypassServiceWorker", {"bypass": True}, timeout=COMMAND_TIMEOUT)
        await session.send(
            "Fetch.enable",
            {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]},
            timeout=COMMAND_TIMEOUT,
        )
        yield held
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(2 * COMMAND_TIMEOUT):
            released = await _release(session)
        # Requests paused before the disable are queued before its reply: the task still
        # answers them once the subscription is closed. A session that refused the disable
        # keeps its task, which answers for as long as the session lives.
        if released:
            events.close()


async def _release(session: Session) -> bool:
    """Stop pausing and let the service worker serve again; False if the session is alive
    and still pauses requests."""
    try:
        await session.send("Network.setBypassServiceWorker", {"bypass": False}, timeout=COMMAND_TIMEOUT)
    except CDPError:
        pass
    try:
        await session.send("Fetch.disable", timeout=COMMAND_TIMEOUT)
    except TargetClosed:
        return True
    except CDPError as exc:
        log.warning("Fetch.disable failed; the held requests are still answered: %s", exc)
        return False
    return True


async def _answer_all(session: Session, events: Any, held: Held) -> None:
    with events:
        async with trio.open_nursery() as nursery:
            async for event in events:
                nursery.start_soon(_answer, session, event.params, held)


async def _answer(session: Session, params: dict[str, Any], held: Held) -> None:
    """Let a reading request go on, fail any other; shielded, so none is ever left paused."""
    request = params.get("request") or {}
    method = str(request.get("method") or "GET").upper()
    url = str(request.get("url") or "")
    answer: dict[str, Any] = {"requestId": params.get("requestId", "")}
    if method in READING_METHODS:
        command = "Fetch.continueRequest"
    else:
        command = "Fetch.failRequest"
        answer["errorReason"] = "BlockedByClient"
        held.refused.append((method, url))
        log.debug("refused a %s request to %s while a check acted", method, without_credentials(url))
    with trio.CancelScope(shield=True), trio.move_on_after(COMMAND_TIMEOUT):
        try:
            await session.send(command, answer, timeout=COMMAND_TIMEOUT)
        except CDPError as exc:  # the request or its target went away meanwhile
            log.debug("could not answer a held request to %s: %s", without_credentials(url), exc)
