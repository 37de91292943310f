"""Keep reading a request's body after the app stopped caring, so an early answer never
stalls its connection.

Hypercorn hands body chunks to the app through a bounded channel and, when the response
ends, puts ``http.disconnect`` into that same channel, from inside the app's final ``send``.
Once Quart has answered (a 404, a 405, a refused content type or size, a bad token), nothing
reads the channel any more: a client still sending its body fills it, the final ``send``
blocks on the full channel, and the connection hangs, neither answering the next request
nor closing. The pump below is the channel's one reader for the whole life of the request:
it forwards each message to the app while the app runs and discards what comes after, so
hypercorn can always finish the response and then either reuse the connection (the body
arrived in full) or close it (it did not).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

import trio

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[..., Awaitable[None]]


#: How long the pump waits, after the response ended, for hypercorn's ``http.disconnect``
#: (it is sent during the response's last ``send``, so this is only a safety net).
DISCONNECT_GRACE = 1.0


_ANSWERED: ContextVar[trio.Event | None] = ContextVar("a11y_answered", default=None)


def answered() -> trio.Event | None:
    """An event set once the current request's app has returned, its response handed to the
    server in full; None outside a pumped request (e.g. Quart's test client). Work that may
    wait for it (``Jobs.write_behind``) then never holds up the answer."""
    return _ANSWERED.get()


class ReceivePump:
    """An ASGI app around ``app`` whose HTTP requests read their messages through a pump."""

    def __init__(self, app: App) -> None:
        self._app = app

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        # Unbounded on purpose: Quart reads every chunk as it comes (and caps what it keeps),
        # and once the app is done nothing is queued any more.
        forward, inbox = trio.open_memory_channel[Message](math.inf)
        state = _Exchange()

        async def tracked_send(message: Message) -> None:
            if message.get("type") == "http.response.body" and not message.get("more_body"):
                state.answering = True
            await send(message)

        done = trio.Event()
        token = _ANSWERED.set(done)  # in this task's context, which the app's tasks inherit
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_pump, receive, forward, state)
            try:
                await self._app(scope, inbox.receive, tracked_send)
            finally:
                done.set()
                _ANSWERED.reset(token)
                inbox.close()  # from now on the pump discards
                if state.answering:  # the disconnect is on its way (see DISCONNECT_GRACE)
                    nursery.cancel_scope.deadline = trio.current_time() + DISCONNECT_GRACE
                else:  # hypercorn answers for the app, and disconnects, only after we return
                    nursery.cancel_scope.cancel()


class _Exchange:
    """Where one request/response exchange stands, as the pump needs to know it."""

    #: The last piece of the response is being (or has been) sent.
    answering: bool = False


async def _pump(receive: Receive, forward: trio.MemorySendChannel[Message], state: _Exchange) -> None:
    """Read until ``http.disconnect``: forward while the app listens, then discard.

    The disconnect that hypercorn sends while the last piece of the response goes out is not
    forwarded: Quart would take it for a client gone away and cancel its own send, and with
    it hypercorn's closing of a connection whose body never arrived in full."""
    # ``forward`` is never closed here: Quart takes the end of its channel for an error and
    # would cancel its send just the same; its own reader is cancelled once it has answered.
    while True:
        message = await receive()
        disconnect = message.get("type") == "http.disconnect"
        if not (disconnect and state.answering):
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                forward.send_nowait(message)
        if disconnect:
            return
