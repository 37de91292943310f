"""Looking inside the exception groups our nurseries raise, and waiting for the first of
several events.

A nursery wraps whatever escapes it in an ExceptionGroup, nested as deep as the nurseries
are. Code that decides what went wrong (the audit engine's failure mapping) needs every
leaf; a caller that expects one error needs that error, not a group to pick apart. Both
are here so there is one way to look inside a group.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import trio


def exception_leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside ``exc`` that are not groups, depth first; ``[exc]`` for a
    plain exception."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in exception_leaves(inner)]
    return [exc]


@contextmanager
def single_exception() -> Iterator[None]:
    """Re-raise the lone non-cancellation exception of a group as itself."""
    try:
        yield
    except BaseExceptionGroup as group:
        leaves = [e for e in exception_leaves(group) if not isinstance(e, trio.Cancelled)]
        if len(leaves) == 1:
            raise leaves[0] from None
        raise


async def first_of(*events: trio.Event) -> None:
    """Return as soon as any of ``events`` is set (at once if one already is)."""
    async with trio.open_nursery() as nursery:

        async def wait(event: trio.Event) -> None:
            await event.wait()
            nursery.cancel_scope.cancel()

        for event in events:
            nursery.start_soon(wait, event)
