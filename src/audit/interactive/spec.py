"""What an interactive check declares: a rule that acts on the rendered page and says what it saw.

axe-core, and every check of ours that runs inside it (:mod:`audit.checks`), judges the DOM as
it was loaded. Some barriers only show when somebody uses the page: focus that cannot leave a
widget, content that needs sideways scrolling at 320 CSS pixels, text in a language other than
the one declared. An :class:`InteractiveCheck` states, like a rule of Siteimprove's Alfa, its
requirements (WCAG criteria, ACT rules, level) and an asynchronous generator that drives the
page through a :class:`~audit.interactive.probe.Probe` and yields :class:`Outcome`\\ s: one
target element each, with a verdict and what was done to reach it. The phase
(:mod:`audit.interactive.phase`) turns outcomes into results of axe's shape, so findings,
needs-review items, scores, fingerprints and every report treat them like axe's own.

A check that cannot decide yields ``cantTell`` (a needs-review item), never ``failed``; a
``passed`` outcome only records that the rule applied, for the score and ``rulesTested``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..checks.spec import PREFIX, rule_tags

#: Where the interactive checks' help sections live.
DOCS_URL = "docs/interactive-checks.md"

if TYPE_CHECKING:
    from ..screenshots import StateShot
    from .probe import Probe

Verdict = Literal["failed", "cantTell", "passed"]


class CannotAct(Exception):
    """Raised by a check whose rule applies to the page but that cannot act on it as the
    audit is set up (a11y-error-identification, whose requests the audit already pauses):
    the phase lists it in ``interaction.skipped`` with the reason ``unsupported`` and this
    message, so a silent rule is never mistaken for a passed one."""


@dataclass(frozen=True)
class Target:
    """An element as axe names one: ``hops`` is axe's ``target`` (one entry per frame, a list
    for a path through shadow roots), ``html`` its opening markup."""

    hops: tuple[Any, ...]
    html: str

    @classmethod
    def from_page(cls, described: dict[str, Any]) -> Target:
        """From what ``js/describe_target.js`` returned for an element."""
        return cls(tuple(described.get("target") or ()), str(described.get("html") or ""))


@dataclass(frozen=True)
class Outcome:
    """One target's verdict. ``message`` says what was done and seen, in words a developer
    can act on ("after Tab ×14 focus stayed inside div#widget").

    An outcome may belong to another rule than the check's own: ``rule`` is then that rule's
    entry of axe's shape (``id``, ``impact``, ``tags``, ``description``, ``help``,
    ``helpUrl``; any ``nodes`` are ignored) and ``node`` the node as that rule reported it,
    kept whole (its messages already say what was done to reach it). This is how a check
    that runs axe-core again, on content only an action shows (:meth:`Probe.axe
    <audit.interactive.probe.Probe.axe>`), reports what axe found there under axe's own rule
    ids, so it reads like any other finding.

    ``shot`` is the element as the page showed it while the check held the state the barrier
    shows in (:meth:`Probe.state_shot <audit.interactive.probe.Probe.state_shot>`): the
    finding's screenshot, in place of one of the restored page."""

    target: Target
    verdict: Verdict
    message: str = ""
    rule: Mapping[str, Any] | None = field(default=None, compare=False)
    node: Mapping[str, Any] | None = field(default=None, compare=False)
    shot: StateShot | None = field(default=None, compare=False, repr=False)


#: The check itself: drives the page through the probe and yields outcomes as it finds them.
Run = Callable[["Probe"], AsyncIterator[Outcome]]


def _nothing_found(found: Any) -> bool:
    return not found


@dataclass(frozen=True)
class Scan:
    """A check's first page-side read, declared so that the phase makes it together with the
    other checks' in one call as it begins (:mod:`.scans`): the page-side function
    expression ``script`` (``load_script(...)``), called with ``args``. ``idle`` says from what it
    returned that the check has nothing to do on the page (no form, no image, nothing that
    can clip), which is what most pages answer to most checks: such a check then ends with
    no call of its own."""

    script: str
    args: tuple[Any, ...] = ()
    idle: Callable[[Any], bool] = field(default=_nothing_found, compare=False)


@dataclass(frozen=True)
class InteractiveCheck:
    """A rule that needs the page used, not only read (see the module docstring)."""

    rule_id: str
    act_rules: tuple[str, ...]
    criteria: tuple[str, ...]
    level: Literal["A", "AA", "AAA"]
    #: The WCAG version that introduced the criteria (chooses the level tag).
    since: Literal["2.0", "2.1", "2.2"]
    impact: Literal["critical", "serious", "moderate", "minor"]
    description: str
    help: str
    run: Run = field(compare=False)
    #: What the check costs a typical page, for ``docs/checks.md`` and the phase's order: cheap
    #: checks (reading state, a few key presses) run before ones that relayout the page.
    cost: Literal["low", "relayout"] = "low"
    #: The window (CSS px wide, high) the check lays the page out in through
    #: :meth:`Probe.screen <audit.interactive.probe.Probe.screen>`, or None. The phase runs
    #: such checks last, the widest first, and goes from one window straight to the next,
    #: putting the page's own size back once after the last (:mod:`.phase`).
    screen: tuple[int, int] | None = None
    #: Work the check starts before its page loads, so that it is done by the time the
    #: check runs (reading a model on a thread), or None. Started for each page the check
    #: is selected for; it must return at once and do nothing when already started.
    ahead: Callable[[], None] | None = field(default=None, compare=False)
    #: The check's first read, which the phase makes with the others' (:class:`Scan`), or
    #: None; the check reads it with :func:`~.scans.first_read`.
    scan: Scan | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not self.rule_id.startswith(PREFIX):
            raise ValueError(f"check ids start with {PREFIX!r}: {self.rule_id!r}")
        rule_tags(self.level, self.since, self.criteria)  # raises for a level axe cannot tag

    @property
    def tags(self) -> list[str]:
        return rule_tags(self.level, self.since, self.criteria)

    def axe_rule(self, nodes: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The rule's entry in a results list of axe's shape, with ``nodes``."""
        return {
            "id": self.rule_id,
            "impact": self.impact,
            "tags": self.tags,
            "description": self.description,
            "help": self.help,
            "helpUrl": f"{DOCS_URL}#{self.rule_id}",
            "nodes": list(nodes),
        }
