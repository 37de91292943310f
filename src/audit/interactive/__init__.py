"""Interactive checks: rules decided by using the page after the static pass.

Each check is one module here (its ACT rules, WCAG criteria and why, in its docstring; its
page-side functions in ``js/``), declared as an :class:`~.spec.InteractiveCheck` and listed in
:data:`INTERACTIVE`; ``docs/interactive-checks.md`` has a section per check. The
engine runs the ones the request's version and level select (:func:`selected`) through
:func:`~.phase.interact` when ``checks.interaction`` is on.

To add one: a module with ``CHECK = InteractiveCheck(...)`` whose ``run`` drives a
:class:`~.probe.Probe` and yields :class:`~.spec.Outcome`\\ s, its entry below, its section in
``docs/interactive-checks.md``, a row in the README's table, and a test with a failing page, a
passing look-alike and an inapplicable page. A check that starts by reading the page for
what it could act on declares that read (``scan=``, :class:`~.spec.Scan`) and takes it with
:func:`~.scans.first_read`: the phase makes every such read in one call (:mod:`.scans`).
"""

from __future__ import annotations

from ..rules import tags_for
from . import (
    change_on_focus,
    change_on_input,
    click_without_keyboard,
    contrast_over_image,
    device_motion,
    dialog_focus,
    error_identification,
    flashing,
    focus_contrast,
    focus_obscured,
    focus_obscured_enhanced,
    focus_order,
    focus_visible,
    hidden_image_text,
    hover_content,
    identical_links,
    image_name_text,
    image_of_text,
    keyboard_trap,
    moving_content,
    page_language,
    page_title_meaningful,
    part_language,
    paste_blocked,
    pointer_cancellation,
    reflow,
    revealed_state,
    single_key_shortcut,
    state_exposed,
    text_spacing,
    zoom_clipped_text,
)
from .phase import DEFAULT_BUDGET, InteractionReport, interact, merged
from .probe import PreparedWorld, prepare_world
from .spec import InteractiveCheck, Outcome, Target

INTERACTIVE: tuple[InteractiveCheck, ...] = (
    click_without_keyboard.CHECK,
    # The next six share one Tab walk (focus_walk), which stops navigations; first, so that
    # a page that navigates on focus is judged before another check's Tab leaves it, and
    # change_on_focus first of them, so that a navigation the walk cannot stop is reported
    # before the phase reloads the page.
    change_on_focus.CHECK,
    focus_order.CHECK,
    focus_obscured.CHECK,
    focus_obscured_enhanced.CHECK,
    focus_visible.CHECK,
    focus_contrast.CHECK,
    keyboard_trap.CHECK,
    page_language.CHECK,
    part_language.CHECK,
    page_title_meaningful.CHECK,
    identical_links.CHECK,
    revealed_state.CHECK,
    dialog_focus.CHECK,  # after revealed_state: it opens the dialogs that one saw revealed
    hover_content.CHECK,
    # Before anything pauses or changes what plays (moving_content's pause controls).
    flashing.CHECK,
    # Reads every image's pixels and runs OCR (tesseract): the dearest of the reading checks.
    image_of_text.CHECK,
    # Shoots the pixels behind text over background images (after the OCR's own reading).
    contrast_over_image.CHECK,
    # Read the text in images too (tesseract), with one reading for both (image_text_reading).
    image_name_text.CHECK,
    hidden_image_text.CHECK,
    # Last: they change the page's state (a shortcut's effect, a field's value and events;
    # a pause button, what device motion and the controls tried instead did).
    single_key_shortcut.CHECK,
    change_on_input.CHECK,
    paste_blocked.CHECK,
    pointer_cancellation.CHECK,
    error_identification.CHECK,
    state_exposed.CHECK,
    device_motion.CHECK,
    # Late: the page's own text edits since the interaction world was made count as watching time.
    moving_content.CHECK,
    # Relayouts (cost="relayout": the phase runs them after all of the above).
    reflow.CHECK,
    zoom_clipped_text.CHECK,
    text_spacing.CHECK,
)

__all__ = [
    "DEFAULT_BUDGET",
    "INTERACTIVE",
    "InteractionReport",
    "InteractiveCheck",
    "Outcome",
    "PreparedWorld",
    "Target",
    "interact",
    "interactive_act_rules",
    "interactive_impacts",
    "merged",
    "prepare_world",
    "selected",
    "start_ahead",
]


def selected(version: str, level: str) -> list[InteractiveCheck]:
    """The checks whose level tag ``version`` and ``level`` select, as axe selects rules."""
    wanted = set(tags_for(version, level))
    return [check for check in INTERACTIVE if wanted & set(check.tags)]


def start_ahead(checks: list[InteractiveCheck]) -> None:
    """Start what ``checks`` need before their page loads (:attr:`~.spec.InteractiveCheck.ahead`)."""
    for check in checks:
        if check.ahead is not None:
            check.ahead()


def interactive_impacts() -> dict[str, str]:
    return {check.rule_id: check.impact for check in INTERACTIVE}


def interactive_act_rules() -> dict[str, list[str]]:
    return {check.rule_id: list(check.act_rules) for check in INTERACTIVE}
