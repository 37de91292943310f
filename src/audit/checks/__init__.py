"""a11y's own checks: rules axe-core runs beside its own, where axe is wrong or silent.

Each check is one module (its ACT rule, WCAG criteria and why, in its docstring) with its
page-side functions in ``js/``; ``docs/checks.md`` has a section per check, which is its help
page. Everything reaches axe through one ``axe.configure`` call made right after the bundle is
loaded into an isolated world (:func:`configuration_script`, called by
:func:`audit.axe.inject`), so the checks run wherever axe runs: every frame of an audit, the
finisher that merges frames, and every tool that loads axe the same way. Three kinds:

* :class:`~.spec.Check`: a rule of ours (id ``a11y-…``), selected by its WCAG tags;
* :class:`~.spec.Override`: a correction to one of axe's rules where the ACT test cases show it
  wrong, keeping axe's rule id;
* :data:`~.adopted.ADOPTED`: axe rules ACT maps that axe itself leaves out of tag selection.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Literal

from cdpdriver.scripts import load_script

from . import (
    adjacent_links_same_url,
    aria_prohibited_global,
    aria_prohibited_use,
    asterisk_required,
    autoplay_audio,
    autoplay_audio_brief,
    bypass_collapsible,
    bypass_heading,
    bypass_landmark,
    bypass_reaches_main,
    bypass_skip_link,
    duplicate_id_ref,
    field_boundary_contrast,
    field_name_unique,
    frame_name_purpose,
    header_has_cells,
    hidden_visible_text,
    hint_described,
    icon_contrast,
    image_name_meaningful,
    inert_frame,
    inline_text_color,
    input_purpose,
    judge_decorative_image,
    judge_field_label,
    judge_heading,
    judge_image_name,
    judge_image_text,
    judge_link_in_context,
    judge_link_purpose,
    judge_page_title,
    judge_video_captions,
    label_in_name_tolerance,
    layout_grid,
    layout_table,
    layout_table_markup,
    line_length,
    link_file_type,
    link_text_alone,
    link_text_in_context,
    long_passage_style,
    meta_refresh_first,
    new_window_warning,
    obsolete_element,
    orientation_without_styles,
    placeholder_contrast,
    placeholder_label,
    radio_group,
    reading_order,
    red_border_invalid,
    scope_direction,
    scroll_beyond_padding,
    sensory_instructions,
    spacer_image,
    spacing_markup,
    symbol_text_contrast,
    table_columns,
    table_nested,
    table_no_headers,
    text_list,
    text_not_justified,
    tiny_text,
    visual_heading,
    wrapped_line_height,
)
from .adopted import ADOPTED
from .spec import PREFIX, Check, Override

CHECKS: tuple[Check, ...] = (
    autoplay_audio.CHECK,
    autoplay_audio_brief.CHECK,
    bypass_reaches_main.CHECK,
    bypass_heading.CHECK,
    bypass_landmark.CHECK,
    bypass_skip_link.CHECK,
    bypass_collapsible.CHECK,
    frame_name_purpose.CHECK,
    header_has_cells.CHECK,
    judge_page_title.CHECK,
    judge_heading.CHECK,
    judge_image_name.CHECK,
    judge_decorative_image.CHECK,
    judge_image_text.CHECK,
    judge_link_in_context.CHECK,
    judge_link_purpose.CHECK,
    judge_field_label.CHECK,
    judge_video_captions.CHECK,
    visual_heading.CHECK,
    text_list.CHECK,
    layout_grid.CHECK,
    reading_order.CHECK,
    layout_table_markup.CHECK,
    table_no_headers.CHECK,
    scope_direction.CHECK,
    table_nested.CHECK,
    table_columns.CHECK,
    duplicate_id_ref.CHECK,
    radio_group.CHECK,
    field_name_unique.CHECK,
    placeholder_label.CHECK,
    placeholder_contrast.CHECK,
    field_boundary_contrast.CHECK,
    icon_contrast.CHECK,
    hint_described.CHECK,
    hidden_visible_text.CHECK,
    input_purpose.CHECK,
    asterisk_required.CHECK,
    red_border_invalid.CHECK,
    image_name_meaningful.CHECK,
    link_text_in_context.CHECK,
    link_text_alone.CHECK,
    adjacent_links_same_url.CHECK,
    link_file_type.CHECK,
    new_window_warning.CHECK,
    sensory_instructions.CHECK,
    text_not_justified.CHECK,
    line_length.CHECK,
    long_passage_style.CHECK,
    tiny_text.CHECK,
    obsolete_element.CHECK,
    spacer_image.CHECK,
    spacing_markup.CHECK,
    inline_text_color.CHECK,
    layout_table.CHECK,
    aria_prohibited_use.CHECK,
)
#: The judgment checks by rule id (:attr:`Check.judgment`).
JUDGMENT: dict[str, Check] = {check.rule_id: check for check in CHECKS if check.judgment}
OVERRIDES: tuple[Override, ...] = (
    aria_prohibited_global.OVERRIDE,
    inert_frame.OVERRIDE,
    label_in_name_tolerance.OVERRIDE,
    meta_refresh_first.OVERRIDE,
    orientation_without_styles.OVERRIDE,
    scroll_beyond_padding.OVERRIDE,
    symbol_text_contrast.OVERRIDE,
    wrapped_line_height.OVERRIDE,
)

__all__ = [
    "ADOPTED",
    "CHECKS",
    "OVERRIDES",
    "PREFIX",
    "act_rules_added",
    "check_impacts",
    "configuration_script",
    "engine_of",
]


def engine_of(rule_id: str) -> Literal["axe", "a11y"]:
    """Which engine decides a rule's results: a check of ours, or axe-core (overrides keep
    axe's rule ids: axe decides wherever an override does not apply)."""
    return "a11y" if rule_id.startswith(PREFIX) else "axe"


def check_impacts() -> dict[str, str]:
    """Rule id -> impact of every check of ours (axe's are read from its bundle)."""
    return {check.rule_id: check.impact for check in CHECKS}


def act_rules_added() -> dict[str, list[str]]:
    """Rule id -> the ACT rules we declare for it: each check of ours, and the axe rules we
    map beyond axe's own ``actIds`` (:data:`~.adopted.ADOPTED`)."""
    added = {a.rule_id: list(a.act_rules) for a in ADOPTED if a.act_rules}
    return {**added, **{check.rule_id: list(check.act_rules) for check in CHECKS}}


def _functions(parts: dict[str, str | None]) -> str:
    """A JavaScript object literal of the given function sources (None left out)."""
    return "{" + ", ".join(f"{name}: {source}" for name, source in parts.items() if source) + "}"


@functools.cache
def configuration_script() -> str:
    """The expression that registers every check, override and adopted rule with the axe just
    loaded (function sources are code; everything else crosses as JSON)."""
    functions = {
        **{
            c.rule_id: _functions({"evaluate": c.script, "after": c.after, "matches": c.matches})
            for c in CHECKS
        },
        **{o.name: _functions({"wrap": o.script}) for o in OVERRIDES},
    }
    table, shared = _shared_once(
        "{" + ", ".join(f"{json.dumps(key)}: {value}" for key, value in functions.items()) + "}"
    )
    arguments = [
        json.dumps([c.axe_rule() for c in CHECKS]),
        json.dumps([c.axe_check() for c in CHECKS]),
        table,
        json.dumps(
            [{"name": o.name, "targets": list(o.targets), "part": o.part} for o in OVERRIDES]
        ),
        json.dumps(
            [
                {
                    "id": a.rule_id,
                    "select": a.select,
                    "reviewOnFail": a.review_on_fail,
                    "actIds": list(a.act_rules),
                }
                for a in ADOPTED
            ]
        ),
        json.dumps(sorted({rule for c in CHECKS for rule in c.supersedes})),
    ]
    call = f"({load_script(__package__, 'configure_checks')})({', '.join(arguments)})"
    return f"(({_SHARED}) => {call})([{', '.join(shared)}])"


#: The name the configuration script gives the page-side functions several checks share.
_SHARED = "a11ySharedFunctions"


def _shared_once(table: str) -> tuple[str, list[str]]:
    """``table`` with each ``js/`` file whose source occurs in it more than once replaced by
    ``a11ySharedFunctions[i]`` (:data:`_SHARED`), and the list of those sources, each to be
    evaluated once.

    Several functions are built from one file: ``link_text.js`` makes the evaluate and the
    matches of two link checks, ``bypass_technique.js`` the evaluate of five checks. Written
    out at each use, such sources made about 90 KB of the 290 KB that every injection of axe
    parses. Every file is a function expression, so its entry is what its text evaluated to;
    a factory called with a check's own arguments still makes that check's own functions."""
    shared: list[str] = []
    folder = resources.files(__package__).joinpath("js")
    files = sorted((entry for entry in folder.iterdir() if entry.name.endswith(".js")), key=lambda e: e.name)
    for entry in files:
        source = entry.read_text(encoding="utf-8").strip()  # as load_script gave it to the checks
        if table.count(source) > 1:
            table = table.replace(source, f"{_SHARED}[{len(shared)}]")
            shared.append(source)
    return table, shared
