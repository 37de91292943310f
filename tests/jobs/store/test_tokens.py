"""API tokens in the store (made, found by value, listed, revoked; only hashes kept), and the
two things runs learned for them: who started a run, and lists limited to sites."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import select

from jobs.store import NotFound
from jobs.store.database import read_transaction
from jobs.store.schema import api_tokens
from jobs.store.tokens import (
    DuplicateName,
    create_token,
    find_token,
    list_tokens,
    revoke_token,
    tokens_exist,
)


def test_a_token_is_found_by_its_value_which_only_its_creator_ever_sees(store):
    assert tokens_exist(store) is False
    token, value = create_token(store, "ci-bot", "submit", ["https://b.test", "https://a.test", "https://a.test"])
    assert value.startswith("a11y_") and len(value) >= 5 + 43
    assert (token.name, token.scope, token.sites, token.revoked) == (
        "ci-bot", "submit", ("https://a.test", "https://b.test"), False)
    assert find_token(store, value) == token
    assert find_token(store, value + "x") is None
    assert find_token(store, "a11y_" + "A" * 43) is None
    with read_transaction(store.engine) as conn:
        rows = [tuple(row) for row in conn.execute(select(api_tokens))]
    assert len(rows) == 1 and not [cell for cell in rows[0] if value in str(cell)]
    assert hashlib.sha256(value.encode()).hexdigest() in rows[0]
    assert tokens_exist(store) is True
    every_site, _ = create_token(store, "reader", "read")
    assert every_site.sites is None
    assert [t.name for t in list_tokens(store)] == ["ci-bot", "reader"]


def test_revoking_refuses_the_token_at_once_and_keeps_its_name_taken(store):
    token, value = create_token(store, "ops", "admin")
    revoked, now = revoke_token(store, "ops")
    assert now is True and revoked.revoked and revoked.name == token.name
    assert find_token(store, value) is None
    again, now = revoke_token(store, "ops")
    assert now is False and again.revoked_at == revoked.revoked_at
    assert [t.revoked for t in list_tokens(store)] == [True]
    assert tokens_exist(store) is True  # a revoked token still keeps auth on
    with pytest.raises(DuplicateName):
        create_token(store, "ops", "read")
    with pytest.raises(NotFound):
        revoke_token(store, "nobody")


BAD = [
    ("", "read", None), ("-x", "read", None), ("has space", "read", None), ("x" * 65, "read", None),
    ("é", "read", None), ("ok", "write", None), ("ok", "read", []),
]


def test_a_bad_name_scope_or_site_list_is_refused(store):
    for name, scope, sites in BAD:
        with pytest.raises(ValueError):
            create_token(store, name, scope, sites)
    assert list_tokens(store) == []
    assert create_token(store, "x" * 64, "read")[0].name == "x" * 64


def test_a_run_keeps_who_started_it_and_lists_can_be_limited_to_sites(store):
    mine = store.create_run("https://a.test/x", {}, submitted_by="ci-bot")
    theirs = store.create_run("https://b.test:8443/", {})
    assert store.get_run(mine.id).submitted_by == "ci-bot"
    assert theirs.submitted_by is None
    assert [r.id for r in store.list_runs(sites=["https://a.test"])] == [mine.id]
    assert [r.id for r in store.list_runs(sites=["https://b.test:8443", "https://a.test"])] == [theirs.id, mine.id]
    assert store.list_runs(sites=[]) == []
