"""A completed run's findings as a light index, for ``GET /audits/{id}/findings``: what
filtering them and ordering them by problem needs (row, rule, impact, page, problem), without
their bodies, in the result's order, so each entry's place is its number in the result
(``f1`` first); and the bodies of the rows a window of it names.

The result's order is :meth:`Store.findings`'s (page by page, then as each page listed them).
Like :class:`Store`, every function is one short transaction, synchronous and thread-safe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from .database import read_transaction
from .schema import findings
from .store import MAX_LIMIT, Store


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One finding: its row, rule, impact, page URL, and problem (None for a finding
    stored before findings had one)."""

    row: int
    rule: str
    impact: str | None
    page: str
    problem: str | None


def finding_index(store: Store, run_id: str) -> list[IndexEntry]:
    """Every finding of the run, in the result's order (entry ``n`` is ``f{n + 1}``)."""
    query = (
        select(findings.c.id, findings.c.rule_id, findings.c.impact,
               findings.c.data["pageUrl"].as_string(), findings.c.data["problem"].as_string())
        .where(findings.c.run_id == run_id, findings.c.kind == "finding")
        .order_by(findings.c.page_seq, findings.c.seq, findings.c.id)
    )
    with read_transaction(store.engine) as conn:
        rows = conn.execute(query).all()
    # Many findings share a rule, page and problem: one string each keeps a large index small.
    strings: dict[str, str] = {}

    def shared(text: str | None) -> str | None:
        return None if text is None else strings.setdefault(text, text)

    return [IndexEntry(int(row), shared(rule) or "", shared(impact), shared(page) or "", shared(problem) or None)
            for row, rule, impact, page, problem in rows]


def finding_bodies(store: Store, rows: Sequence[int]) -> dict[int, dict[str, Any]]:
    """The findings' JSON by row, for at most ``MAX_LIMIT`` rows."""
    if len(rows) > MAX_LIMIT:
        raise ValueError(f"at most {MAX_LIMIT} rows at once (got {len(rows)})")
    if not rows:
        return {}
    query = select(findings.c.id, findings.c.data).where(findings.c.id.in_(list(rows)))
    with read_transaction(store.engine) as conn:
        return {int(row): dict(data) for row, data in conn.execute(query)}
