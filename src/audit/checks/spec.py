"""What a check of ours declares, and how that becomes axe-core configuration.

A :class:`Check` is a rule of ours that axe-core runs as if it were its own (``axe.configure``
with one rule and one check of the same id): it is selected by the same WCAG tags, runs in the
same isolated world of every frame, is merged across frames by ``axe.finishRun`` and comes
back in axe's result shape, so findings, scoring and reports need nothing new. Its id starts
with :data:`PREFIX`, its help page is a section of ``docs/checks.md``.

An :class:`Override` is a correction to one of axe-core's own rules where axe is wrong (a
false positive the ACT test cases show): a function that receives axe's original ``matches``
(which elements the rule applies to), ``evaluate`` or ``after`` and returns the replacement.
It keeps axe's rule id and its verdict everywhere the correction does not apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

PREFIX = "a11y-"
#: Where the help sections live; every check's help URL is this plus ``#<rule id>``.
DOCS_URL = "docs/checks.md"
#: Marks every rule of ours among axe's tags.
OWN_TAG = "a11y"
#: Marks the judgment checks; axe leaves rules with this tag out unless a run enables them by
#: id (``tagExclude``, set in ``js/configure_checks.js``; see :func:`audit.rules.axe_run_options`).
JUDGMENT_TAG = "a11y-judgment"
#: axe-core's tag of rules outside WCAG, which a run selects only when asked for best practices.
BEST_PRACTICE_TAG = "best-practice"

#: What a judgment question is shown with (see :attr:`Check.judgment_context`).
JudgmentContext = Literal["title", "heading", "link", "label", "image", "video"]

# axe-core's level tags by (version that introduced the criterion, level); AAA criteria are
# all tagged wcag2aaa and axe has no tag for a 2.2 level A criterion (see audit.rules).
_LEVEL_TAGS = {
    ("2.0", "A"): "wcag2a",
    ("2.0", "AA"): "wcag2aa",
    ("2.1", "A"): "wcag21a",
    ("2.1", "AA"): "wcag21aa",
    ("2.2", "AA"): "wcag22aa",
}


def help_url(anchor: str) -> str:
    return f"{DOCS_URL}#{anchor}"


def rule_tags(level: str, since: str, criteria: tuple[str, ...], *extra: str) -> list[str]:
    """axe-core tags of a rule of ours: ours, ``extra``, the level tag of the version that
    introduced its criteria, one tag per criterion, ``ACT``. Raises ValueError for a level axe
    has no tag for (a 2.2 level A criterion)."""
    if level == "AAA":
        level_tag = "wcag2aaa"
    elif (since, level) in _LEVEL_TAGS:
        level_tag = _LEVEL_TAGS[(since, level)]
    else:
        raise ValueError(f"axe-core has no level tag for WCAG {since} {level}")
    return [OWN_TAG, *extra, level_tag, *("wcag" + sc.replace(".", "") for sc in criteria), "ACT"]


@dataclass(frozen=True, kw_only=True)
class Check:
    """One rule of ours. ``script`` names the check's ``evaluate`` function in ``checks/js``
    (``function (node, options, virtualNode)``, axe's check signature: true passes, false
    fails, undefined needs review); ``after`` and ``matches`` likewise, when given.

    A :attr:`best_practice` check belongs to no success criterion: it has no level, version or
    criteria, and is tagged ``best-practice`` instead, so it runs only when a request asks for
    best practices and its results are best-practice items, never WCAG findings
    (:func:`audit.rules.is_wcag_rule`)."""

    rule_id: str
    act_rules: tuple[str, ...]
    criteria: tuple[str, ...]
    #: None only for a best-practice check.
    level: Literal["A", "AA", "AAA"] | None = None
    #: The WCAG version that introduced the criteria (chooses the level tag); None only for a
    #: best-practice check.
    since: Literal["2.0", "2.1", "2.2"] | None = None
    impact: Literal["critical", "serious", "moderate", "minor"]
    description: str
    help: str
    #: axe check messages: ``pass``, ``fail`` and (if it can answer undefined) ``incomplete``.
    messages: Mapping[str, str]
    script: str
    selector: str = "html:not(html *)"
    after: str | None = None
    matches: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    page_level: bool = False
    exclude_hidden: bool = True
    review_on_fail: bool = False
    #: axe-core rules this check replaces: they no longer apply to any element.
    supersedes: tuple[str, ...] = ()
    #: Set for a check only judgment can answer (is this heading descriptive?): what the judge
    #: is shown with each question (``audit/llm/js/judgment_context.js``; the image kind also
    #: gets the picture). See :attr:`judgment`.
    judgment_context: JudgmentContext | None = None
    #: Advice beyond WCAG (obsolete markup, spacing with empty paragraphs, ...): see the class.
    best_practice: bool = False

    def __post_init__(self) -> None:
        if not self.rule_id.startswith(PREFIX):
            raise ValueError(f"check ids start with {PREFIX!r}: {self.rule_id!r}")
        if self.best_practice:
            if self.level or self.since or self.criteria or self.judgment_context:
                raise ValueError(f"a best-practice check has no WCAG level, criteria or judgment: {self.rule_id!r}")
            return
        if self.level is None or self.since is None:
            raise ValueError(f"a WCAG check needs a level and a version: {self.rule_id!r}")
        if self.level != "AAA" and (self.since, self.level) not in _LEVEL_TAGS:
            raise ValueError(f"axe-core has no level tag for WCAG {self.since} {self.level}")

    @property
    def judgment(self) -> bool:
        """Only judgment can answer it: every applicable element is a needs-review item whose
        ``incomplete`` message is the question, and the check runs only when the request asks
        the LLM judge (``llm.judgment``), since unanswered questions on every heading, link and
        image would bury a report."""
        return self.judgment_context is not None

    @property
    def tags(self) -> list[str]:
        if self.best_practice:
            return [OWN_TAG, BEST_PRACTICE_TAG]
        return rule_tags(self.level, self.since, self.criteria, *([JUDGMENT_TAG] if self.judgment else []))

    def axe_rule(self) -> dict[str, Any]:
        """The rule as ``axe.configure({rules: [...]})`` takes it (matches added page-side)."""
        return {
            "id": self.rule_id,
            **({"enabled": False} if self.judgment else {}),
            "selector": self.selector,
            "excludeHidden": self.exclude_hidden,
            "pageLevel": self.page_level,
            "reviewOnFail": self.review_on_fail,
            "impact": self.impact,
            "tags": self.tags,
            "actIds": list(self.act_rules),
            "metadata": {
                "description": self.description,
                "help": self.help,
                "helpUrl": help_url(self.rule_id),
            },
            "all": [],
            "any": [self.rule_id],
            "none": [],
        }

    def axe_check(self) -> dict[str, Any]:
        """The check as ``axe.configure({checks: [...]})`` takes it (functions added page-side)."""
        return {
            "id": self.rule_id,
            "options": dict(self.options),
            "metadata": {"impact": self.impact, "messages": dict(self.messages)},
        }


@dataclass(frozen=True)
class Override:
    """A correction to axe-core's rules ``rules`` (their ids are kept): ``script`` is a
    function expression ``function (original) { return replacement; }`` applied to the
    ``part`` of each of ``targets`` (check ids for ``evaluate``/``after``, rule ids for
    ``matches``). ``name`` is its section in ``docs/checks.md``."""

    name: str
    rules: tuple[str, ...]
    part: Literal["matches", "evaluate", "after"]
    targets: tuple[str, ...]
    script: str
    act_rules: tuple[str, ...]
    criteria: tuple[str, ...]
    description: str

    def __post_init__(self) -> None:
        if not self.name.startswith(PREFIX):
            raise ValueError(f"override names start with {PREFIX!r}: {self.name!r}")
