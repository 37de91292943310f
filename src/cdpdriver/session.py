"""A flat session: one attached target on the shared connection."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from .connection import ANY_METHOD, Batch, Command, Connection, Subscription
from .event_buffer import DEFAULT_BOUND

T = TypeVar("T")


class Session:
    """Commands and events of one target; ``session_id`` None is the browser itself."""

    def __init__(self, connection: Connection, session_id: str | None, target_id: str | None = None):
        self.connection = connection
        self.session_id = session_id
        self.target_id = target_id

    async def execute(self, command: Command[T], *, timeout: float | None = None) -> T:
        return await self.connection.execute(command, session_id=self.session_id, timeout=timeout)

    async def send(
        self, method: str, params: dict[str, Any] | None = None, *, timeout: float | None = None
    ) -> dict[str, Any]:
        return await self.connection.send(method, params, session_id=self.session_id, timeout=timeout)

    def batch(self, *, timeout: float | None = None) -> Batch:
        """Commands to pipeline on this session: written together, replies awaited together."""
        return self.connection.batch(session_id=self.session_id, timeout=timeout)

    def subscribed(self, method: str) -> bool:
        """Whether something listens for ``method`` of this session by name now
        (:meth:`Connection.subscribed`)."""
        return self.connection.subscribed(method, session_id=self.session_id)

    def listen(
        self, methods: str | Iterable[str] = ANY_METHOD, *, raw: bool = False, buffer: float = DEFAULT_BOUND
    ) -> Subscription:
        """Subscribe to this session's events; use as a ``with`` block to unsubscribe.

        Holds at most ``buffer`` unread events, then drops the oldest and counts them in
        ``Subscription.dropped`` (see :meth:`Connection.subscribe`).
        """
        return self.connection.subscribe(methods, session_id=self.session_id, raw=raw, buffer=buffer)

    def __repr__(self) -> str:
        return f"<Session {self.session_id} target={self.target_id}>"
