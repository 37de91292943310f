"""Interactive checks: rules decided by using the page after the static pass.

Each check is one module here (its ACT rules, WCAG criteria and why, in its docstring; its
page-side functions in ``js/``), declared as an :class:`~.spec.InteractiveCheck` and listed in
:data:`INTERACTIVE`; ``docs/checks.md`` has a section per check, under Interactive checks. The
engine runs the ones the request's version and level select (:func:`selected`) through
:func:`~.phase.interact` when ``checks.interaction`` is on.

To add one: a module with ``CHECK = InteractiveCheck(...)`` whose ``run`` drives a
:class:`~.probe.Probe` and yields :class:`~.spec.Outcome`\\ s, its entry below, its section in
``docs/checks.md``, and a test with a failing page, a passing look-alike and an inapplicable page.
"""

from __future__ import annotations

from ..rules import tags_for
from . import keyboard_trap
from .phase import DEFAULT_BUDGET, InteractionReport, interact, merged
from .spec import InteractiveCheck, Outcome, Target

INTERACTIVE: tuple[InteractiveCheck, ...] = (
    keyboard_trap.CHECK,
)

__all__ = [
    "DEFAULT_BUDGET", "INTERACTIVE", "InteractionReport", "InteractiveCheck", "Outcome", "Target",
    "interact", "interactive_act_rules", "interactive_impacts", "merged", "selected",
]


def selected(version: str, level: str) -> list[InteractiveCheck]:
    """The checks whose level tag ``version`` and ``level`` select, as axe selects rules."""
    wanted = set(tags_for(version, level))
    return [check for check in INTERACTIVE if wanted & set(check.tags)]


def interactive_impacts() -> dict[str, str]:
    return {check.rule_id: check.impact for check in INTERACTIVE}


def interactive_act_rules() -> dict[str, list[str]]:
    return {check.rule_id: list(check.act_rules) for check in INTERACTIVE}
