"""Which axe-core rules run for a WCAG version and level, and what a rule's tags mean.

axe-core marks every rule with level tags (``wcag2a``, ``wcag21aa``, ...) and one tag per
success criterion (``wcag143``). Selection and classification both derive from these tags, so
the rule set and the ``level``/``successCriteria`` of a finding can never disagree.

Best-practice rules (tag ``best-practice``, no WCAG level tag) run only on request and are
never WCAG findings: :func:`is_wcag_rule` is the single test every other module uses to keep
them out of findings, score and conformance.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal

from .checks import CHECKS

WcagVersion = Literal["2.0", "2.1", "2.2"]
WcagLevel = Literal["A", "AA", "AAA"]
Impact = Literal["critical", "serious", "moderate", "minor"]

VERSIONS: tuple[str, ...] = ("2.0", "2.1", "2.2")
LEVELS: tuple[str, ...] = ("A", "AA", "AAA")
#: Most severe first.
IMPACTS: tuple[str, ...] = ("critical", "serious", "moderate", "minor")
#: Higher is more severe.
IMPACT_RANK: dict[str, int] = {"minor": 1, "moderate": 2, "serious": 3, "critical": 4}

BEST_PRACTICE_TAG = "best-practice"

# The level tags axe-core actually defines, in (version, level) order. There is no
# wcag21aaa, wcag22a or wcag22aaa tag: AAA rules are all tagged wcag2aaa.
_LEVEL_TAGS: tuple[tuple[str, str, str], ...] = (
    ("wcag2a", "2.0", "A"),
    ("wcag2aa", "2.0", "AA"),
    ("wcag2aaa", "2.0", "AAA"),
    ("wcag21a", "2.1", "A"),
    ("wcag21aa", "2.1", "AA"),
    ("wcag22aa", "2.2", "AA"),
)

# Level tag: "wcag2" + optional minor digit + a/aa/aaa. Anchored, so "wcag2a-obsolete"
# (the withdrawn 4.1.1 rules) and SC tags such as "wcag211" do not match.
_LEVEL_TAG_RE = re.compile(r"^wcag2(\d?)(a{1,3})$")
# SC tag: principle digit, guideline digit, criterion number ("wcag1412" -> 1.4.12).
_SC_TAG_RE = re.compile(r"^wcag(\d)(\d)(\d+)$")


def _check(version: str, level: str) -> None:
    if version not in VERSIONS:
        raise ValueError(f"unknown WCAG version {version!r}; expected one of {VERSIONS}")
    if level not in LEVELS:
        raise ValueError(f"unknown WCAG level {level!r}; expected one of {LEVELS}")


def tags_for(version: str, level: str, best_practices: bool = False) -> list[str]:
    """axe-core tags selecting the rules of ``version`` at every level up to ``level``.

    2.0 -> wcag2a, wcag2aa, wcag2aaa; 2.1 adds wcag21a, wcag21aa; 2.2 adds wcag22aa; each
    only up to the target level. ``best-practice`` is appended when ``best_practices``.
    """
    _check(version, level)
    v_max = VERSIONS.index(version)
    l_max = LEVELS.index(level)
    tags = [
        tag
        for tag, v, lvl in _LEVEL_TAGS
        if VERSIONS.index(v) <= v_max and LEVELS.index(lvl) <= l_max
    ]
    if best_practices:
        tags.append(BEST_PRACTICE_TAG)
    return tags


def level_of(tags: Iterable[str]) -> WcagLevel | None:
    """The WCAG level of a rule from its tags, or None for a non-WCAG (best-practice,
    experimental-only, ...) rule. A rule carrying several level tags gets the lowest one,
    since it is required from that level on."""
    found: list[int] = []
    for tag in tags:
        m = _LEVEL_TAG_RE.match(tag)
        if m:
            found.append(len(m.group(2)) - 1)
    if not found:
        return None
    return LEVELS[min(found)]  # type: ignore[return-value]


def is_wcag_rule(tags: Iterable[str]) -> bool:
    """True when the rule belongs to WCAG (has a level tag); only these become findings."""
    return level_of(tags) is not None


def success_criteria(tags: Iterable[str]) -> list[str]:
    """Dotted success-criterion numbers from SC tags, in tag order, without duplicates
    (``wcag143`` -> ``1.4.3``, ``wcag1412`` -> ``1.4.12``; level tags do not match)."""
    out: list[str] = []
    for tag in tags:
        m = _SC_TAG_RE.match(tag)
        if m:
            sc = ".".join(m.groups())
            if sc not in out:
                out.append(sc)
    return out


def judgment_rules(version: str, level: str) -> list[str]:
    """Ids of the judgment checks (:attr:`audit.checks.spec.Check.judgment`) whose level tag
    ``version`` and ``level`` select."""
    selected = set(tags_for(version, level))
    return [c.rule_id for c in CHECKS if c.judgment and selected & set(c.tags)]


def axe_run_options(
    version: str, level: str, best_practices: bool = False, judgment: bool = False
) -> dict[str, Any]:
    """Options for ``axe.runPartial``/``axe.finishRun`` (and ``axe.run``).

    Rules are chosen by tag (OR over tags); a rule that is disabled by default, such as
    target-size (wcag22aa) or the AAA rules, runs because its tag is requested.
    ``resultTypes`` keeps full node lists only for violations and incomplete; passes and
    inapplicable still list every rule (with at most one node), which is all the score needs.

    The judgment checks carry a tag axe excludes from tag selection, so they run only with
    ``judgment`` (the LLM judge will answer them), enabled by id for this version and level.
    """
    options: dict[str, Any] = {
        "runOnly": {"type": "tag", "values": tags_for(version, level, best_practices)},
        "resultTypes": ["violations", "incomplete"],
    }
    if judgment:
        options["rules"] = {rule: {"enabled": True} for rule in judgment_rules(version, level)}
    return options
