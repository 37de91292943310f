"""Each item of a page gets its problem: the id (:func:`.signature.problem_id`) and the
component as a person reads it, from the component ``element_identity.js`` described while
the page was open, or from the item's own markup and selector when it was not described."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from .signature import (
    component_signature,
    fallback_signature,
    problem_id,
    readable_component,
    review_signature,
)


class Groupable(Protocol):
    """What a finding or needs-review item offers to be grouped."""

    rule_id: str
    element: str
    html: str
    selector: str
    problem: str
    component: str


def signature_of(item: Groupable, described: Mapping[str, Any] | None) -> dict[str, Any]:
    """The item's signature: a visual rule's undecided item by its reason, else the
    component, from its description when there is one."""
    reason = getattr(item, "reason", None)  # only needs-review items have one
    question = review_signature(item.rule_id, reason) if reason is not None else None
    if question is not None:
        return question
    if described:
        return component_signature(item.rule_id, described)
    return fallback_signature(item.rule_id, item.element, item.html, item.selector)


def assign_problems(
    items: Iterable[Groupable], components: Mapping[str, Mapping[str, Any]]
) -> None:
    """Set ``problem`` and ``component`` on each item, looking its element up in
    ``components`` by selector."""
    for item in items:
        signature = signature_of(item, components.get(item.selector))
        item.problem = problem_id(item.rule_id, signature)
        item.component = readable_component(item.rule_id, signature)


def ensure_problems(items: Iterable[Groupable]) -> None:
    """Give every item that has no problem yet one from its markup and selector (items made
    after their page closed, or built from axe results alone)."""
    assign_problems((item for item in items if not item.problem), {})
