"""Turn one page's axe-core results into findings, needs-review items and best-practice items.

Input is the standard results object of ``axe.finishRun`` (or ``axe.run``): ``violations``,
``passes``, ``incomplete``, ``inapplicable``, each a list of rule results
``{id, impact, tags, description, help, helpUrl, nodes: [{html, impact, target,
failureSummary, any, all, none}]}``. Only plain dicts/lists are read, so JSON straight from
CDP works.

Routing, decided once here:

* violations of WCAG rules (a level tag, see :func:`audit.rules.is_wcag_rule`) -> ``Finding``;
* incomplete results of WCAG rules -> ``NeedsReviewItem`` (never findings);
* any result of a rule without a WCAG level tag (best-practice, experimental) ->
  ``BestPracticeItem`` via :func:`best_practices_from`, so it never reaches findings, stats,
  score or conformance.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from .axe_bundle import rule_act_ids
from .checks import engine_of
from .models import BestPracticeItem, Finding, NeedsReviewItem, clip
from .rules import IMPACT_RANK, is_wcag_rule, level_of, success_criteria

SELECTOR_HOP = " >>> "
DEFAULT_IMPACT = "moderate"

_TAG_NAME_RE = re.compile(r"\s*<([A-Za-z][A-Za-z0-9:_.-]*)")
# Last compound of a CSS selector, for a tag name when axe gave no markup.
_SELECTOR_TAG_RE = re.compile(r"(?:^|[\s>+~])([A-Za-z][A-Za-z0-9-]*)[^\s>+~]*$")

M = TypeVar("M", bound=BaseModel)


def selector_from_target(target: Any) -> str:
    """One selector string from an axe ``target``.

    ``target`` has one entry per frame hop; an entry that is itself a list is a shadow-DOM
    path (host selector(s), then the selector inside the shadow root). Every hop is joined
    with `` >>> ``: ``["iframe#a", ["my-el", "button"]]`` -> ``iframe#a >>> my-el >>> button``.
    """
    if isinstance(target, str):
        return target
    hops: list[str] = []
    for entry in target or []:
        if isinstance(entry, str):
            hops.append(entry)
        elif isinstance(entry, Sequence):
            hops.extend(str(part) for part in entry)
    return SELECTOR_HOP.join(hops)


def opening_tag(html: str | None, limit: int = 300) -> str:
    """The element's opening tag from axe's outer-HTML snippet, at most ``limit`` characters.

    The scan honours quoted attribute values, so a ``>`` inside ``title="a > b"`` does not end
    the tag. A snippet that is cut before its ``>`` is kept whole (then clipped).
    """
    if not html:
        return ""
    text = html.strip()
    start = text.find("<")
    if start < 0:
        return clip(text, limit)
    quote = ""
    for i in range(start + 1, len(text)):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == ">":
            return clip(text[start : i + 1], limit)
    return clip(text[start:], limit)


def element_name(html: str | None, selector: str = "") -> str:
    """Lower-case tag name of the element: from its markup, else from the type selector of
    the selector's last hop, else ``""`` (axe configured with ``noHtml`` and an id selector)."""
    if html:
        m = _TAG_NAME_RE.match(html)
        if m:
            return m.group(1).lower()
    last = selector.rsplit(SELECTOR_HOP, 1)[-1].strip() if selector else ""
    m = _SELECTOR_TAG_RE.search(last)
    return m.group(1).lower() if m else ""


def _impact(*candidates: Any) -> str:
    for value in candidates:
        if isinstance(value, str) and value in IMPACT_RANK:
            return value
    return DEFAULT_IMPACT


def _rules(axe_results: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    return [r for r in axe_results.get(key) or [] if isinstance(r, Mapping)]


def _check_messages(node: Mapping[str, Any]) -> list[str]:
    messages: list[str] = []
    for key in ("any", "all", "none"):
        for check in node.get(key) or []:
            msg = check.get("message") if isinstance(check, Mapping) else None
            if isinstance(msg, str) and msg.strip() and msg.strip() not in messages:
                messages.append(msg.strip())
    return messages


def _common(rule: Mapping[str, Any], node: Mapping[str, Any], page_url: str) -> dict[str, Any]:
    selector = selector_from_target(node.get("target"))
    html = node.get("html") if isinstance(node.get("html"), str) else ""
    summary = node.get("failureSummary")
    return {
        "rule_id": str(rule.get("id", "")),
        "description": str(rule.get("description") or ""),
        "impact": _impact(node.get("impact"), rule.get("impact")),
        "element": element_name(html, selector),
        "selector": selector,
        "html": opening_tag(html),
        "help": str(rule.get("helpUrl") or ""),
        "help_text": str(rule.get("help") or ""),
        "page_url": page_url,
        "failure_summary": summary if isinstance(summary, str) and summary else None,
        "act_rules": rule_act_ids(str(rule.get("id", ""))),
    }


def _nodes(rule: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
    return (n for n in rule.get("nodes") or [] if isinstance(n, Mapping))


def findings_from(
    axe_results: Mapping[str, Any],
    page_url: str,
    start_index: int = 1,
    *,
    review_start_index: int = 1,
) -> tuple[list[Finding], list[NeedsReviewItem]]:
    """Findings (one per WCAG rule and element) and needs-review items of one page.

    Ids run ``f{start_index}``, ``f{start_index+1}``, ... and ``r{review_start_index}``, ...;
    for a multi-page result either pass running counters or renumber everything at the end
    with :func:`number_findings`. Identical (rule, selector) pairs on the page are reported
    once. ``impact`` is the node's impact, else the rule's, else ``moderate``.
    """
    findings = [
        Finding(id=f"f{start_index + n}", level=level, success_criteria=scs, source=engine_of(data["rule_id"]), **data)
        for n, (level, scs, _, data) in enumerate(_wcag_nodes(axe_results, "violations", page_url))
    ]
    review = [
        NeedsReviewItem(
            id=f"r{review_start_index + n}",
            level=level,
            success_criteria=scs,
            reason="; ".join(_check_messages(node)) or data["failure_summary"] or data["help_text"]
            or "axe-core could not decide this element.",
            source=engine_of(data["rule_id"]),
            **data,
        )
        for n, (level, scs, node, data) in enumerate(_wcag_nodes(axe_results, "incomplete", page_url))
    ]
    return findings, review


def _wcag_nodes(
    axe_results: Mapping[str, Any], kind: str, page_url: str
) -> Iterator[tuple[str, list[str], Mapping[str, Any], dict[str, Any]]]:
    """(level, success criteria, node, common fields) of every node of the WCAG rules in
    ``axe_results[kind]``, each (rule, selector) pair once, in axe's order."""
    seen: set[tuple[str, str]] = set()
    for rule in _rules(axe_results, kind):
        tags = list(rule.get("tags") or [])
        if not is_wcag_rule(tags):
            continue
        level, scs = level_of(tags), success_criteria(tags)
        for node in _nodes(rule):
            data = _common(rule, node, page_url)
            key = (data["rule_id"], data["selector"])
            if key not in seen:
                seen.add(key)
                yield level, scs, node, data


def best_practices_from(
    axe_results: Mapping[str, Any], page_url: str, start_index: int = 1
) -> list[BestPracticeItem]:
    """Violations and incomplete results of non-WCAG rules (best-practice and the like), ids
    ``b{start_index}``, ... . Kept out of findings on purpose; see the module docstring."""
    items: list[BestPracticeItem] = []
    seen: set[tuple[str, str, str]] = set()
    for key, outcome in (("violations", "violation"), ("incomplete", "needs_review")):
        for rule in _rules(axe_results, key):
            if is_wcag_rule(rule.get("tags") or []):
                continue
            for node in _nodes(rule):
                data = _common(rule, node, page_url)
                dedupe = (outcome, data["rule_id"], data["selector"])
                if dedupe in seen:
                    continue
                seen.add(dedupe)
                items.append(
                    BestPracticeItem(id=f"b{start_index + len(items)}", outcome=outcome, **data)
                )
    return items


def rules_tested(axe_results: Mapping[str, Any]) -> list[str]:
    """Ids of the WCAG rules that applied on the page (in violations, passes or incomplete),
    sorted; for ``PageResult.rules_tested`` and the JUnit report."""
    ids: set[str] = set()
    for key in ("violations", "passes", "incomplete"):
        for rule in _rules(axe_results, key):
            if is_wcag_rule(rule.get("tags") or []) and rule.get("id"):
                ids.add(str(rule["id"]))
    return sorted(ids)


def number_findings(items: Sequence[M], prefix: str = "f") -> list[M]:
    """Copies of ``items`` with ids ``{prefix}1``, ``{prefix}2``, ... in list order: the final
    pass that makes ids unique across a multi-page result (use ``"r"`` for needs-review items
    and ``"b"`` for best-practice items)."""
    return [item.model_copy(update={"id": f"{prefix}{i}"}) for i, item in enumerate(items, 1)]
