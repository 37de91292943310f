"""The store's one exception hierarchy, shaped for the HTTP layer's error codes.

``NotFound`` becomes ``not_found`` and ``Conflict`` becomes ``conflict``;
``StoreUnavailable`` (the database cannot be reached, or is busy past its timeout) becomes
``503 store_unavailable`` with ``Retry-After``, and ``StoreFull`` (no room left to write)
``507 insufficient_storage``: a client can tell an outage from a bug, and knows to retry. Any
other ``StoreError`` (a database that cannot be opened or migrated) is the service's problem,
not the client's. Programming errors (an unknown status name, a negative offset) stay
``ValueError``: no client input should reach the store unvalidated.
"""

from __future__ import annotations


class StoreError(Exception):
    """Anything the store refuses or cannot do; the message never holds a password."""


class NotFound(StoreError):
    """The run (or the page of a run) named does not exist."""


class Conflict(StoreError):
    """The change contradicts the run's state, e.g. reopening or cancelling a finished run."""


class StoreUnavailable(StoreError):
    """The database could not be reached or did not answer in time (down, restarting, locked
    past the busy timeout): the same request may well succeed a little later."""


class StoreFull(StoreError):
    """The database has no room left to write (its disk or filesystem is full)."""
