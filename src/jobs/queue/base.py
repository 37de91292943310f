"""The page queue's contract: what a task is, what a delivery is, what every queue promises.

Delivery guarantee — **at-least-once**:

- A task, once enqueued, is delivered to one consumer at a time. It stays *pending* (leased to
  that consumer) until the consumer acknowledges it, and a consumer acknowledges a task only
  after the task's result is committed to the store: a crash between the two repeats the page,
  it never loses it.
- A pending delivery whose consumer died (or hangs) is taken over by another consumer through
  ``reclaim`` once it has been idle for ``min_idle_ms`` (by default the queue's lease). A
  consumer working on a slow page calls ``touch`` every fraction of the lease (a third is a
  good rhythm) so that its live delivery never looks idle and is not stolen.
- Hence a task can be delivered more than once (the consumer died after committing but before
  acknowledging, or a touch came too late). Consumers must write results **idempotently**
  (the store's result write is keyed by run and normalised URL), and a task delivered too
  often (``Delivery.times_delivered`` above the caller's limit: a page that kills its worker
  every time) is recorded as failed and acknowledged by the caller instead of being run again.

A queue does not know about runs: cancelling a run does not remove its tasks. The coordinator
skips (and acknowledges) a task of a cancelled run when it receives it; the tasks left behind
are only as many as were enqueued ahead, because the frontier lives in the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

DEFAULT_LEASE_MS = 30_000
"""How long a delivery may stay silent before another consumer may reclaim it."""
MIN_LEASE_MS = 1_000
"""The shortest lease an operator may set: its holder renews it a few times per lease."""


class QueueError(Exception):
    """Base of every error the page queue raises."""


class QueueUnavailable(QueueError):
    """The queue's server could not be reached or did not answer in time."""


class QueueClosed(QueueError):
    """The queue was used after ``close``."""


class QueueFull(QueueError):
    """Enqueueing would grow the backlog past the queue's ``maxlen`` (back-pressure)."""


class MalformedTask(QueueError):
    """An entry's fields do not describe a page task (written by something else)."""


@dataclass(frozen=True, slots=True)
class PageTask:
    """One page of one run to audit; ``attempt`` counts the caller's own retries (a transient
    failure re-enqueued), independently of redeliveries by the queue."""

    run_id: str
    url: str
    url_key: str
    depth: int
    attempt: int = 0

    def to_fields(self) -> dict[str, str]:
        """Flat string fields, the shape of one stream entry."""
        return {
            "run_id": self.run_id,
            "url": self.url,
            "url_key": self.url_key,
            "depth": str(self.depth),
            "attempt": str(self.attempt),
        }

    @classmethod
    def from_fields(cls, fields: Mapping[str | bytes, str | bytes]) -> PageTask:
        """The inverse of ``to_fields``; accepts bytes too (a client without decoding)."""
        text = {_text(key): _text(value) for key, value in fields.items()}
        try:
            return cls(
                run_id=text["run_id"],
                url=text["url"],
                url_key=text["url_key"],
                depth=int(text["depth"]),
                attempt=int(text.get("attempt", "0")),
            )
        except (KeyError, ValueError) as exc:
            raise MalformedTask(f"not a page task: {sorted(text)}") from exc


def _text(value: str | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


@dataclass(frozen=True, slots=True)
class Delivery:
    """A task handed to ``consumer``: the handle for ``ack`` and ``touch``.

    ``times_delivered`` is 1 on the first delivery and grows by one at every reclaim, so the
    caller can tell a poison task from a first attempt."""

    entry_id: str
    task: PageTask
    times_delivered: int
    consumer: str


class PageQueue(Protocol):
    """What the coordinator and the workers need from a queue (see the module docstring for
    the guarantee). Every method is a Trio checkpoint and honours cancellation within about a
    second; consumer names must be unique per live worker (host, pid and a random suffix)."""

    lease_ms: int
    """The idle time after which ``reclaim`` takes a delivery over by default."""

    async def enqueue(self, tasks: Iterable[PageTask]) -> list[str]:
        """Append tasks in order; returns their entry ids. Raises ``QueueFull`` past maxlen."""
        ...

    async def receive(
        self, consumer: str, count: int = 1, block_ms: float | None = 0
    ) -> list[Delivery]:
        """Up to ``count`` never-delivered tasks, leased to ``consumer``. Waits up to
        ``block_ms`` for the first one (0: do not wait; None: until one arrives)."""
        ...

    async def ack(self, *deliveries: Delivery) -> int:
        """Forget the deliveries' tasks for good (after their results are committed); returns
        how many were still pending. Acknowledging twice is harmless."""
        ...

    async def touch(self, delivery: Delivery) -> bool:
        """Reset the delivery's idle time so it is not reclaimed; False when ``delivery.consumer``
        no longer holds it (acknowledged, or reclaimed by another consumer)."""
        ...

    async def reclaim(
        self, consumer: str, min_idle_ms: int | None = None, count: int = 10
    ) -> list[Delivery]:
        """Take over up to ``count`` pending deliveries idle for at least ``min_idle_ms``
        (default: the lease), oldest entries first; each one's ``times_delivered`` grows.
        The consumer's own idle deliveries count too: what it still works on, it touches."""
        ...

    async def pending_count(self) -> int:
        """Deliveries handed out and not yet acknowledged."""
        ...

    async def length(self) -> int:
        """Tasks not yet acknowledged: waiting ones plus pending ones."""
        ...

    async def close(self) -> None:
        """Release connections; later calls raise ``QueueClosed``. Idempotent."""
        ...
