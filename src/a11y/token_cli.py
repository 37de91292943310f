"""``a11y token create|list|revoke``: the service's API tokens, kept in its store (the one
``serve`` opens with the same ``--database`` / ``--data-dir``; migrated first, as ``serve``
does). A running service sees a new or revoked token on its next request: no restart.

``create`` prints the token's value once, alone on stdout (so ``$(a11y token create …)``
captures it), and what it made on stderr; the store keeps only its hash. ``list`` never
shows a value or a hash. Exit codes: 0 done, 1 refused by the store (a name taken, no such
token, a store that cannot be reached), 2 bad options (argparse) or a store that cannot be
opened.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import datetime

from jobs.store import Store, StoreError, open_store
from jobs.store.tokens import ApiToken, create_token, list_tokens, revoke_token


def run(args: argparse.Namespace) -> int:
    action = args.token_command
    try:
        store = open_store(args.database or args.data_dir)
    except StoreError as exc:
        print(f"a11y token {action}: {exc}", file=sys.stderr)
        return 2
    with store:
        try:
            return _ACTIONS[action](store, args)
        except StoreError as exc:
            print(f"a11y token {action}: {exc}", file=sys.stderr)
            return 1


def _create(store: Store, args: argparse.Namespace) -> int:
    token, value = create_token(store, args.name, args.scope, args.sites)
    print(value)
    print(f"Made token {token.name} ({_rights(token)}). Its value, above, is shown only now: "
          "the store keeps its hash.", file=sys.stderr)
    return 0


def _list(store: Store, _: argparse.Namespace) -> int:
    rows = [("NAME", "SCOPE", "SITES", "CREATED", "REVOKED")]
    rows += [
        (t.name, t.scope, ",".join(t.sites) if t.sites else "*", _when(t.created_at), _when(t.revoked_at))
        for t in list_tokens(store)
    ]
    widths = [max(len(row[n]) for row in rows) for n in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    return 0


def _revoke(store: Store, args: argparse.Namespace) -> int:
    token, now = revoke_token(store, args.name)
    if not now:
        print(f"Token {token.name} was already revoked ({_when(token.revoked_at)}).", file=sys.stderr)
    else:
        print(f"Revoked token {token.name} ({_rights(token)}): refused from the service's next "
              "request on.", file=sys.stderr)
    return 0


def _rights(token: ApiToken) -> str:
    sites = ", ".join(token.sites) if token.sites else "every site"
    return f"scope {token.scope}, {sites}"


def _when(moment: datetime | None) -> str:
    return "-" if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%SZ")


_ACTIONS: dict[str, Callable[[Store, argparse.Namespace], int]] = {
    "create": _create,
    "list": _list,
    "revoke": _revoke,
}
