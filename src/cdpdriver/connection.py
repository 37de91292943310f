"""One connection per browser: command ids, pending replies, the reader, event fan-out.

Invariants the rest of the driver relies on:

* every command has a timeout, and a reply that arrives after it is dropped;
* when the reader stops (browser gone, socket closed), every pending command
  fails at once with the reason and every subscription ends;
* a detached or crashed target fails only the commands of its own session;
* nothing the browser sends (unknown session, unknown event, bad JSON) can
  raise out of the reader;
* the reader never waits for a subscriber: each subscription holds a bounded
  number of events and drops its oldest, counted, when its reader falls behind;
* a :class:`Batch` writes its commands in order before awaiting any reply, and one
  failing command fails no other.
"""

from __future__ import annotations

import itertools
import json
import logging
from collections import OrderedDict
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import trio

from .encoding import encode_message
from .errors import (
    BrowserClosed,
    CDPError,
    CommandTimeout,
    ConnectionClosed,
    ProtocolError,
    TargetClosed,
    TargetCrashed,
)
from .event_buffer import DEFAULT_BOUND, EventBuffer
from .protocol import util as protocol_util
from .transport import Transport

log = logging.getLogger(__name__)

T = TypeVar("T")
Command = Generator[dict[str, Any], dict[str, Any], T]
ANY_METHOD = "*"
DEFAULT_TIMEOUT = 30.0
CLOSE_TIMEOUT = 2.0
# Enough to answer "why did my command fail" for recent sessions without growing forever.
_DEAD_SESSIONS_KEPT = 4096


@dataclass(slots=True)
class RawEvent:
    """An event exactly as received, for subscribers that want the JSON."""

    method: str
    params: dict[str, Any]
    session_id: str | None


@dataclass(slots=True)
class _Pending:
    method: str
    session_id: str | None
    done: trio.Event = field(default_factory=trio.Event)
    reply: dict[str, Any] | None = None
    error: CDPError | None = None

    def resolve(self, reply: dict[str, Any] | None, error: CDPError | None = None) -> None:
        """Resolve once; a second resolution (late reply after a failure) is ignored."""
        if self.done.is_set():
            return
        self.reply, self.error = reply, error
        self.done.set()


class Subscription:
    """A stream of events for one session, closed when the session or connection ends.

    Events wait in a bounded buffer (:class:`~cdpdriver.event_buffer.EventBuffer`): the
    reader never waits for a subscriber, and a subscriber that falls ``buffer`` events
    behind loses the oldest ones. :attr:`dropped` counts them, so a reader that needs every
    event can tell when it did not get them.
    """

    def __init__(
        self,
        conn: Connection,
        keys: list[tuple[str | None, str]],
        raw: bool,
        buffer: float,
    ) -> None:
        self._conn = conn
        self._keys = keys
        self.raw = raw
        methods = ", ".join(method for _, method in keys)
        self._events: EventBuffer[Any] = EventBuffer(
            buffer, label=f"subscription to {methods} (session {keys[0][0] if keys else None})"
        )

    @property
    def dropped(self) -> int:
        """Events dropped so far because this subscriber fell ``buffer`` events behind."""
        return self._events.dropped

    async def receive(self) -> Any:
        """Next event; raises ``trio.EndOfChannel`` when the session or connection ended."""
        return await self._events.get()

    def receive_nowait(self) -> Any:
        """Next event if one is queued; ``trio.WouldBlock`` if none, ``trio.EndOfChannel`` once ended."""
        return self._events.get_nowait()

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self._events.get()
        except trio.EndOfChannel:
            raise StopAsyncIteration from None

    def close(self) -> None:
        """Stop delivery; events already queued can still be read. Safe to call twice."""
        self._conn._unsubscribe(self)
        self._events.close()

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _end(self) -> None:
        """End the stream from the connection's side (session or connection gone)."""
        self._events.close()

    def _deliver(self, event: Any) -> bool:
        """Queue ``event`` without waiting; False once the subscription is closed."""
        return self._events.put(event)


class Reply(Generic[T]):
    """The outcome of one command of a :class:`Batch`, known once the batch has run."""

    __slots__ = ("_command", "_error", "_result", "_settled", "method")

    def __init__(self, method: str, command: Command[T] | None) -> None:
        self.method = method
        self._command = command
        self._settled = False
        self._result: Any = None
        self._error: CDPError | None = None

    @property
    def error(self) -> CDPError | None:
        """Why the command failed, or None when it succeeded."""
        return self._error

    def result(self) -> T:
        """The command's result (typed for :meth:`Batch.execute`); raises its error."""
        if not self._settled:
            raise RuntimeError(f"{self.method}: its batch has not run yet")
        if self._error is not None:
            raise _fresh(self._error)
        return self._result  # type: ignore[no-any-return]

    def _settle(self, reply: dict[str, Any] | None, error: CDPError | None) -> None:
        """Record the reply, decoding it with the typed command that asked for it."""
        self._settled = True
        self._error = error
        if error is not None or self._command is None:
            self._result = reply
            return
        try:
            self._command.send(reply or {})
        except StopIteration as done:
            self._result = done.value
        else:
            self._error = CDPError(f"{self.method}: command generator did not finish")


class Batch:
    """Several commands of one session written back to back before any reply is awaited.

    Set-up that must land before a paused target resumes (enable domains, add init
    scripts, then ``Runtime.runIfWaitingForDebugger``) costs one round trip instead of
    one per command, and Chromium runs a session's commands in the order they arrive::

        async with session.batch(timeout=10) as batch:
            batch.execute(page.enable())
            scripts = batch.send("Page.addScriptToEvaluateOnNewDocument", {"source": src})
            batch.send("Runtime.runIfWaitingForDebugger")
        scripts.result()  # raises if that command failed

    Leaving the block cleanly runs it; a body that raises sends nothing. Every command
    gets a :class:`Reply`: one failing command fails no other, so callers look at the
    replies they care about (``error`` or ``result()``).
    """

    def __init__(self, connection: Connection, session_id: str | None, timeout: float | None) -> None:
        self._connection = connection
        self._session_id = session_id
        self._timeout = timeout
        self._requests: list[tuple[dict[str, Any], Reply[Any]]] = []
        self._ran = False

    def send(self, method: str, params: dict[str, Any] | None = None) -> Reply[dict[str, Any]]:
        """Queue a raw command; its result is the reply's ``result`` object."""
        return self._queue(method, params, None)

    def execute(self, command: Command[T]) -> Reply[T]:
        """Queue a typed command (a generated builder); its result is decoded."""
        request = next(command)
        return self._queue(request["method"], request.get("params"), command)

    def _queue(self, method: str, params: dict[str, Any] | None, command: Command[Any] | None) -> Reply[Any]:
        if self._ran:
            raise RuntimeError("this batch has already run; start another")
        reply: Reply[Any] = Reply(method, command)
        self._requests.append(({"method": method, "params": params}, reply))
        return reply

    def __len__(self) -> int:
        return len(self._requests)

    @property
    def replies(self) -> list[Reply[Any]]:
        """Every queued command's reply, in order (settled once the batch has run)."""
        return [reply for _, reply in self._requests]

    async def run(self) -> list[Reply[Any]]:
        """Write every queued command, then await every reply; returns them in order."""
        if self._ran:
            raise RuntimeError("this batch has already run; start another")
        self._ran = True
        await self._connection._send_batch(self._requests, self._session_id, self._timeout)
        return self.replies

    async def __aenter__(self) -> Batch:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        if exc_type is None:
            await self.run()


class Connection:
    """The single CDP connection to a browser; sessions are flat on top of it."""

    def __init__(self, transport: Transport, *, default_timeout: float = DEFAULT_TIMEOUT) -> None:
        self.transport = transport
        self.default_timeout = default_timeout
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._subscribers: dict[tuple[str | None, str], list[Subscription]] = {}
        self._dead_sessions: OrderedDict[str, CDPError] = OrderedDict()
        self._closing_sessions: list[str] = []
        self._session_targets: dict[str, str] = {}
        self._closed: CDPError | None = None
        self.closed = trio.Event()

    # -- lifecycle -------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self._closed is None

    async def run_reader(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Read until the transport ends; then fail everything pending."""
        task_status.started()
        reason: CDPError = BrowserClosed("connection closed")
        try:
            while True:
                message = await self.transport.receive()
                self._dispatch(message)
        except ConnectionClosed as exc:
            reason = exc
        except trio.Cancelled:
            reason = BrowserClosed("connection closed by the client")
            raise
        finally:
            self._shutdown(reason)

    def _shutdown(self, reason: CDPError) -> None:
        """Fail all pending commands and end every subscription with ``reason``."""
        if self._closed is None:
            self._closed = reason
        pending, self._pending = self._pending, {}
        for slot in pending.values():
            slot.resolve(None, reason)
        subscribers, self._subscribers = self._subscribers, {}
        for subs in subscribers.values():
            for sub in subs:
                sub._end()
        self.closed.set()

    async def aclose(self, *, handshake: bool = True) -> None:
        """Fail everything pending and close the transport.

        ``handshake=False`` drops the transport at once: for a caller whose cancellation
        has also ended the task that would read the peer's answer to a close frame.
        """
        self._shutdown(BrowserClosed("connection closed by the client"))
        # Bounded either way: never let a close keep a cancelled caller hanging.
        with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
            await self.transport.aclose(handshake=handshake)

    # -- commands --------------------------------------------------------

    async def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Send one command and return its ``result`` object."""
        if self._closed is not None:
            raise await _caller_failure(self._closed)
        if session_id is not None and session_id in self._dead_sessions:
            raise await _caller_failure(self._dead_sessions[session_id])
        command_id = next(self._ids)
        slot = _Pending(method, session_id)
        self._pending[command_id] = slot
        limit = self.default_timeout if timeout is None else timeout
        try:
            with trio.move_on_after(limit):
                await self.transport.send(_wire(command_id, method, params, session_id))
                await slot.done.wait()
        finally:
            self._pending.pop(command_id, None)
        if not slot.done.is_set():
            raise CommandTimeout(method, limit)
        if slot.error is not None:
            raise await _caller_failure(slot.error)
        return slot.reply  # type: ignore[return-value]

    async def execute(
        self,
        command: Command[T],
        *,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> T:
        """Drive a typed command generator: send its request, feed it the reply."""
        request = next(command)
        result = await self.send(
            request["method"], request.get("params"), session_id=session_id, timeout=timeout
        )
        try:
            command.send(result)
        except StopIteration as done:
            return done.value
        raise CDPError(f"{request['method']}: command generator did not finish")

    def batch(self, *, session_id: str | None = None, timeout: float | None = None) -> Batch:
        """Commands to pipeline on one session (see :class:`Batch`)."""
        return Batch(self, session_id, timeout)

    async def _send_batch(
        self, requests: list[tuple[dict[str, Any], Reply[Any]]], session_id: str | None, timeout: float | None
    ) -> None:
        """Register every command, write them all in order, then await their replies under
        one deadline; each reply settles with its result or its own failure."""
        refused = self._closed or (self._dead_sessions.get(session_id) if session_id is not None else None)
        if refused is not None:
            await trio.lowlevel.checkpoint_if_cancelled()
            for _, reply in requests:
                reply._settle(None, _fresh(refused))
            return
        slots: list[tuple[int, _Pending, Reply[Any]]] = []
        for request, reply in requests:
            command_id = next(self._ids)
            slot = _Pending(request["method"], session_id)
            self._pending[command_id] = slot
            slots.append((command_id, slot, reply))
        limit = self.default_timeout if timeout is None else timeout
        failure: CDPError | None = None
        try:
            with trio.move_on_after(limit):
                for (command_id, _, _), (request, _) in zip(slots, requests, strict=True):
                    await self.transport.send(_wire(command_id, request["method"], request["params"], session_id))
                for _, slot, _ in slots:
                    await slot.done.wait()
        except CDPError as exc:  # the transport failed mid-write: no reply can come
            failure = exc
        finally:
            for command_id, _, _ in slots:
                self._pending.pop(command_id, None)
        if failure is not None or any(slot.error is not None for _, slot, _ in slots):
            await trio.lowlevel.checkpoint_if_cancelled()
        for _, slot, reply in slots:
            if slot.done.is_set():
                reply._settle(slot.reply, _fresh(slot.error) if slot.error is not None else None)
            else:
                reply._settle(None, failure or CommandTimeout(slot.method, limit))

    # -- events ----------------------------------------------------------

    def subscribe(
        self,
        methods: str | Iterable[str] = ANY_METHOD,
        *,
        session_id: str | None = None,
        raw: bool = False,
        buffer: float = DEFAULT_BOUND,
    ) -> Subscription:
        """Subscribe before sending the command that triggers the events.

        At most ``buffer`` events wait unread; past that the oldest are dropped and counted
        in ``Subscription.dropped`` (``math.inf`` keeps every event, for a reader that
        drains them all anyway).
        """
        names = [methods] if isinstance(methods, str) else list(methods)
        keys = [(session_id, name) for name in names]
        sub = Subscription(self, keys, raw, buffer)
        if self._closed is not None or (session_id is not None and session_id in self._dead_sessions):
            sub._end()
            return sub
        for key in keys:
            self._subscribers.setdefault(key, []).append(sub)
        return sub

    def subscribed(self, method: str, *, session_id: str | None = None) -> bool:
        """Whether a subscriber listens for ``method`` by name on the session now (one that
        takes every event does not count): e.g. whether a user of the Fetch domain answers
        the session's paused requests."""
        return bool(self._subscribers.get((session_id, method)))

    def _unsubscribe(self, sub: Subscription) -> None:
        for key in sub._keys:
            subs = self._subscribers.get(key)
            if subs and sub in subs:
                subs.remove(sub)
                if not subs:
                    del self._subscribers[key]

    # -- the reader's work -------------------------------------------------

    def _dispatch(self, message: str | bytes) -> None:
        """Route one message; never raises (a bad message is logged and dropped)."""
        try:
            data = json.loads(message)
        except ValueError:
            log.warning("dropping a message that is not JSON: %.200r", message)
            return
        if not isinstance(data, dict):
            return
        command_id = data.get("id")
        if command_id is not None:
            self._resolve(command_id, data)
            return
        method = data.get("method")
        if not isinstance(method, str):
            return
        params = data.get("params")
        if not isinstance(params, dict):
            params = {}
        session_id = data.get("sessionId")
        try:
            self._track_targets(method, params, session_id)
        except Exception:  # a malformed bookkeeping event must not kill the reader
            log.exception("could not track %s", method)
        self._fan_out(method, params, session_id)

    def _resolve(self, command_id: Any, data: dict[str, Any]) -> None:
        slot = self._pending.pop(command_id, None)
        if slot is None:
            return  # a late reply after a timeout, or an id we never sent
        error = data.get("error")
        if error is not None:
            if not isinstance(error, dict):
                error = {"message": str(error)}
            slot.resolve(
                None,
                ProtocolError(slot.method, error.get("code"), str(error.get("message")), error.get("data")),
            )
        else:
            result = data.get("result")
            slot.resolve(result if isinstance(result, dict) else {})

    def _track_targets(self, method: str, params: dict[str, Any], session_id: str | None) -> None:
        """Keep target↔session bookkeeping so a crash or detach fails the right commands."""
        if method == "Target.attachedToTarget":
            info = params.get("targetInfo") or {}
            child = params.get("sessionId")
            if child and info.get("targetId"):
                self._session_targets[child] = info["targetId"]
        elif method == "Target.detachedFromTarget":
            child = params.get("sessionId")
            if child:
                self._end_session(child, TargetClosed(f"target detached (session {child})"))
        elif method == "Target.targetCrashed":
            target_id = params.get("targetId")
            for child, target in list(self._session_targets.items()):
                if target == target_id:
                    self._end_session(child, TargetCrashed(f"target {target_id} crashed"))
        elif method == "Inspector.targetCrashed" and session_id:
            self._end_session(session_id, TargetCrashed("target crashed"))

    def _end_session(self, session_id: str, reason: CDPError) -> None:
        """Fail the session's pending commands; later commands fail at once."""
        self._dead_sessions.setdefault(session_id, reason)
        while len(self._dead_sessions) > _DEAD_SESSIONS_KEPT:
            self._dead_sessions.popitem(last=False)
        self._session_targets.pop(session_id, None)
        for command_id, slot in list(self._pending.items()):
            if slot.session_id == session_id:
                self._pending.pop(command_id, None)
                slot.resolve(None, reason)
        # Deliver the bookkeeping event first, then end the session's streams.
        self._closing_sessions.append(session_id)

    def _fan_out(self, method: str, params: dict[str, Any], session_id: str | None) -> None:
        exact = self._subscribers.get((session_id, method))
        wildcard = self._subscribers.get((session_id, ANY_METHOD))
        if exact or wildcard:
            typed: Any = None
            raw_event: RawEvent | None = None
            for sub in [*(exact or ()), *(wildcard or ())]:
                if sub.raw:
                    raw_event = raw_event or RawEvent(method, params, session_id)
                    event = raw_event
                else:
                    if typed is None:
                        typed = _parse_event(method, params)
                    event = typed
                if not sub._deliver(event):
                    self._unsubscribe(sub)
        while self._closing_sessions:
            self._close_session_streams(self._closing_sessions.pop())

    def _close_session_streams(self, session_id: str) -> None:
        for key in [k for k in self._subscribers if k[0] == session_id]:
            for sub in self._subscribers.pop(key, []):
                sub._end()


def _wire(command_id: int, method: str, params: dict[str, Any] | None, session_id: str | None) -> str:
    """The text of one command as the browser reads it (empty params and no session left out)."""
    message: dict[str, Any] = {"id": command_id, "method": method}
    if params:
        message["params"] = params
    if session_id is not None:
        message["sessionId"] = session_id
    return encode_message(message)


async def _caller_failure(error: CDPError) -> CDPError:
    """The failure to raise to a caller: ``error``, unless the caller is cancelled.

    The reader fails every pending and later command when it is cancelled, and a caller
    cancelled by the same scope can be scheduled after it: that caller must see its own
    cancellation (raised here), not the secondary "closed by the client"."""
    await trio.lowlevel.checkpoint_if_cancelled()
    return _fresh(error)


def _fresh(error: CDPError) -> CDPError:
    """A new instance of a shared failure reason, so concurrent raisers don't share tracebacks."""
    if isinstance(error, (ConnectionClosed, TargetClosed)):
        return type(error)(str(error))
    return error


def _parse_event(method: str, params: dict[str, Any]) -> Any:
    """Typed event, or an unknown-event object: parsing never raises here."""
    try:
        return protocol_util.parse_event(method, params)
    except Exception:  # the generated parser is lenient; this is the last guard
        log.exception("event %s could not be parsed", method)
        return protocol_util.UnknownEvent(method, params)
