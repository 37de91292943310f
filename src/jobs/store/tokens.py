"""API tokens of the HTTP service: made, listed, revoked and looked up by value
(``api_tokens``).

A token's value is ``a11y_`` and 32 random bytes (``secrets.token_urlsafe``), handed out
once by :func:`create_token` and never stored: the table keeps its SHA-256. A fast hash is
the right one here: a slow, salted hash (bcrypt, scrypt) protects *guessable* secrets such
as passwords from a stolen table, and 256 random bits are not guessable, so a lookup can be
one indexed query by hash. The hash found is compared with ``hmac.compare_digest`` all the
same, so the comparison never depends on where two hashes first differ.

A token is never deleted: revoking stamps ``revoked_at``, and the lookup ignores it from the
next request on. So a name, once given, stays with its token (the runs it started name it).
Like :class:`Store`'s methods these are synchronous, one short transaction each.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import exists, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import read_transaction, write_transaction
from .errors import Conflict, NotFound
from .schema import api_tokens, utc_now
from .store import Store

#: What a token may do, each including the ones before it: ``read`` runs, reports and
#: history; ``submit`` also starts runs and cancels its own; ``admin`` also cancels and
#: deletes any run and sets baselines.
SCOPES = ("read", "submit", "admin")
#: A token's name: what logs and ``a11y token list`` show, and what runs are owned by.
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
TOKEN_PREFIX = "a11y_"
_NAME = re.compile(NAME_PATTERN)


class DuplicateName(Conflict):
    """A token of this name exists (perhaps revoked: names are never reused)."""


@dataclass(frozen=True, slots=True)
class ApiToken:
    """A stored token as it may be shown: everything but its hash. ``sites`` is None for a
    token of every site."""

    name: str
    scope: str
    sites: tuple[str, ...] | None
    created_at: datetime
    revoked_at: datetime | None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


def token_hash(value: str) -> str:
    """The SHA-256 (hex) the table keeps of a token's value."""
    return hashlib.sha256(value.encode()).hexdigest()


def check_name(name: str) -> str:
    """``name`` when it is a valid token name; ``ValueError`` saying what one is otherwise."""
    if not _NAME.fullmatch(name):
        raise ValueError(
            "a token name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
    return name


def create_token(store: Store, name: str, scope: str, sites: Iterable[str] | None = None) -> tuple[ApiToken, str]:
    """A new token and its value (shown once: only its hash is kept). ``sites`` are origins
    as runs store them (:func:`jobs.ids.site_of`), None for every site. ``ValueError`` for a
    bad name, scope or empty site list; ``DuplicateName`` when the name is taken."""
    check_name(name)
    if scope not in SCOPES:
        raise ValueError(f"a token's scope is one of {', '.join(SCOPES)}, not {scope!r}")
    limited = None if sites is None else sorted(set(sites))
    if limited is not None and not limited:
        raise ValueError("a token limited to sites needs at least one site")
    value = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = {"name": name, "scope": scope, "sites": limited, "hash": token_hash(value),
           "created_at": utc_now()}
    taken = DuplicateName(f"a token named {name!r} exists already (names are never reused)")
    try:
        with write_transaction(store.engine) as conn:
            if conn.execute(select(api_tokens.c.id).where(api_tokens.c.name == name)).first():
                raise taken
            conn.execute(insert(api_tokens).values(row))
    except IntegrityError:  # another process took the name between the look and the insert
        raise taken from None
    return _token(row), value


def list_tokens(store: Store) -> list[ApiToken]:
    """Every token, revoked ones included, oldest first."""
    query = select(api_tokens).order_by(api_tokens.c.id)
    with read_transaction(store.engine) as conn:
        return [_token(row._mapping) for row in conn.execute(query)]


def revoke_token(store: Store, name: str) -> tuple[ApiToken, bool]:
    """Revoke the token named ``name`` from the next request on: the token, and whether this
    call revoked it (a revoked one stays as it was). ``NotFound`` when there is none of that
    name."""
    with write_transaction(store.engine) as conn:
        revoked = conn.execute(
            update(api_tokens)
            .where(api_tokens.c.name == name, api_tokens.c.revoked_at.is_(None))
            .values(revoked_at=utc_now())
        ).rowcount
        row = conn.execute(select(api_tokens).where(api_tokens.c.name == name)).first()
    if row is None:
        raise NotFound(f"no token named {name!r}")
    return _token(row._mapping), bool(revoked)


def find_token(store: Store, value: str) -> ApiToken | None:
    """The unrevoked token whose value is ``value``, None when there is none."""
    digest = token_hash(value)
    query = select(api_tokens).where(api_tokens.c.hash == digest, api_tokens.c.revoked_at.is_(None))
    with read_transaction(store.engine) as conn:
        row = conn.execute(query).first()
    if row is None or not hmac.compare_digest(row.hash, digest):
        return None
    return _token(row._mapping)


def tokens_exist(store: Store) -> bool:
    """Whether any token was ever made here, revoked ones included: the service asks for a
    token from then on (revoking the last one must not open it to everyone)."""
    with read_transaction(store.engine) as conn:
        return bool(conn.execute(select(exists().select_from(api_tokens))).scalar())


def _token(row: Any) -> ApiToken:
    sites = row["sites"]
    return ApiToken(
        name=row["name"], scope=row["scope"], sites=None if sites is None else tuple(sites),
        created_at=row["created_at"], revoked_at=row.get("revoked_at"),
    )
