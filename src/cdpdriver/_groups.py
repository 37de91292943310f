"""Unwrap single-exception groups at the edges of our nurseries.

A nursery wraps whatever escapes it in an ExceptionGroup. When a caller's own
exception (or one driver error) is the only thing in the group, callers
should see that exception, not a group they have to pick apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import trio


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    found: list[BaseException] = []
    for exc in group.exceptions:
        if isinstance(exc, BaseExceptionGroup):
            found.extend(_leaves(exc))
        else:
            found.append(exc)
    return found


@contextmanager
def single_exception() -> Iterator[None]:
    """Re-raise the lone non-cancellation exception of a group as itself."""
    try:
        yield
    except BaseExceptionGroup as group:
        leaves = [e for e in _leaves(group) if not isinstance(e, trio.Cancelled)]
        if len(leaves) == 1:
            raise leaves[0] from None
        raise
