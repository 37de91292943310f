"""``--confirm-actions``: risky actions go ahead only once the client's user confirms them.

Three actions can carry data off the machine or onto it: a download (a file written to the
server's disk), a file upload (a local file handed to a page) and a form submitted to another
origin (what was typed, sent elsewhere). Each is noticed where it cannot be missed — a
download by the browser's ``downloadWillBegin``, an upload in the one function that sets a
file input's files, a submission as its request is paused (:mod:`.requests`) — and asks the
current call's :class:`Confirmations`. The MCP layer builds that for each call from what the
client can do (:mod:`a11y.mcp_guard`):

- a client that takes server requests (protocol 2025-*) and declared elicitation is asked
  at once (``elicitation/create``); the action waits for the answer (``confirm_timeout``);
- a 2026-07-28 client that declared elicitation cannot be asked mid-call: the action is
  refused, and the call ends ``input_required`` with one question per refused action; the
  client's retry carries the answers and the call runs again with those actions granted;
- a client that cannot elicit, or an action outside any call (a page's own timer), is
  refused: never carried out silently.

A refusal stops the action (the download cancelled and its file deleted, the upload not
made, the request failed in the page like a network error) and turns the call's result into
a ``confirmation_declined`` / ``confirmation_unavailable`` error naming it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import trio

from ..errors import ToolError
from .policy import origin_of

if TYPE_CHECKING:
    from ..downloads import Download
    from ..locate import Element
    from ..session import ToolSession

log = logging.getLogger(__name__)

DECLINED, UNAVAILABLE, REQUIRED = "confirmation_declined", "confirmation_unavailable", "confirmation_required"
#: ``question -> True (accepted) / False (declined or cancelled)``.
Ask = Callable[[str], Awaitable[bool]]


@dataclass(frozen=True)
class Needed:
    """An action awaiting the client's answer (2026-07-28: asked when the call ends)."""

    kind: str  # download, upload, form
    target: str  # the origin it concerns
    question: str


@dataclass
class Confirmations:
    """How one tool call confirms the risky actions it sets off, and what it refused."""

    ask: Ask | None = None
    deferred: bool = False  # the client answers in a retry of the call (input_required)
    granted: frozenset[tuple[str, str]] = frozenset()
    declined: frozenset[tuple[str, str]] = frozenset()
    timeout: float = 120.0
    why_unavailable: str = "the client cannot be asked (it declared no elicitation capability)"
    needed: list[Needed] = field(default_factory=list)
    refused: list[ToolError] = field(default_factory=list)
    _pending: int = 0
    _settled: trio.Event = field(default_factory=trio.Event)

    async def confirm(self, kind: str, target: str, question: str) -> ToolError | None:
        """None when the action may go ahead, else the refusal (also kept in ``refused``)."""
        key = (kind, target)
        if key in self.granted:
            return None
        if key in self.declined:
            return self._refuse(DECLINED, f"{question} The client declined it.")
        if self.ask is not None:
            release = self.hold()
            answer = False
            try:
                with trio.move_on_after(self.timeout) as waited:
                    answer = await self.ask(question)
                if answer:
                    return None
                why = "no answer came in time" if waited.cancelled_caught else "the client declined it"
                return self._refuse(DECLINED, f"{question} Refused: {why}.")
            except Exception as exc:  # the client went away, or answered with an error
                log.debug("confirmation failed: %s", exc)
                return self._refuse(UNAVAILABLE, f"{question} Refused: asking the client failed ({exc}).")
            finally:
                release()
        if self.deferred:
            if all(n.kind != kind or n.target != target for n in self.needed):
                self.needed.append(Needed(kind, target, question))
            return self._refuse(REQUIRED, f"{question} It needs the client's confirmation.")
        return self._refuse(UNAVAILABLE, f"{question} Refused: {self.why_unavailable}.")

    def hold(self) -> Callable[[], None]:
        """Count work on an action as unsettled until the returned function is called."""
        self._pending += 1
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self._pending -= 1
                if not self._pending:
                    self._settled.set()
                    self._settled = trio.Event()

        return release

    async def settled(self) -> None:
        """Return once no question is waiting for its answer (each is bounded by ``timeout``)."""
        while self._pending:
            await self._settled.wait()

    def _refuse(self, code: str, message: str) -> ToolError:
        error = ToolError(code, message)
        self.refused.append(error)
        return error


#: Outside any call (a page's own timer): nobody to ask, so every risky action is refused.
def outside_a_call() -> Confirmations:
    return Confirmations(why_unavailable="it happened outside any tool call, so no one could be asked")


def current(session: ToolSession) -> Confirmations | None:
    """The confirmations of the session's current call; None when actions need none."""
    guard = session.guard
    if guard is None or not guard.config.confirm_actions:
        return None
    return guard.confirmations


async def confirm_upload(session: ToolSession, el: Element, paths: list[str]) -> None:
    """Raise the refusal unless uploading ``paths`` through ``el`` is confirmed."""
    confirmations = current(session)
    if confirmations is None:
        return
    try:
        origin = str(await el.call("function () { return location.origin; }") or "")
    except Exception:  # a frame gone meanwhile: ask about the page it was in
        origin = origin_of(await el.tab.url())
    names = ", ".join(p.rsplit("/", 1)[-1] for p in paths) or "no file"
    refusal = await confirmations.confirm(
        "upload", origin, f"Upload {len(paths)} file(s) ({names}) to a page of {origin}?")
    if refusal is not None:
        raise refusal


def gate_downloads(session: ToolSession) -> Callable[[Download], None]:
    """The hook a session's downloads call as each one begins: confirm it, or cancel it and
    delete what it wrote."""

    def begun(download: Download) -> None:
        confirmations = current(session)
        if confirmations is not None and session.browser is not None:
            # Held from now: the call reports only once the download is let be or undone.
            session.browser.start_task(_confirm_download, session, confirmations, download, confirmations.hold())

    return begun


async def _confirm_download(session: ToolSession, confirmations: Confirmations, download: Download,
                            release: Callable[[], None]) -> None:
    try:
        await _decide_download(session, confirmations, download)
    finally:
        release()


async def _decide_download(session: ToolSession, confirmations: Confirmations, download: Download) -> None:
    origin = origin_of(download.url)
    name = download.suggested_filename or "a file"
    refusal = await confirmations.confirm("download", origin, f"Save the download {name!r} from {origin}?")
    if refusal is None:
        return
    download.state = "refused"
    browser = session.browser
    if browser is not None and not download.done.is_set():
        params: dict[str, Any] = {"guid": download.guid}
        if session.context_id:
            params["browserContextId"] = session.context_id
        try:
            await browser.session.send("Browser.cancelDownload", params, timeout=10)
        except Exception as exc:  # it completed or the browser went away meanwhile
            log.debug("could not cancel download %s: %s", download.guid, exc)
    with trio.move_on_after(10):
        await download.done.wait()
    if download.path is not None:  # it completed before the answer: delete the kept file
        download.path.unlink(missing_ok=True)
        download.path = None
    download.state = "refused"
