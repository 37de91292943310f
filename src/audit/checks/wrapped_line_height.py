"""a11y-wrapped-line-height: tight !important line heights on wrapped text are caught.

ACT rule 78fd32 (Important line height in style attributes is wide enough); WCAG 1.4.12 Text
Spacing (AA, since 2.1).

axe-core's ``avoid-inline-spacing`` fails an ``!important`` line height below 1.5 only on text
that wraps, and decides whether it wraps from the boxes of its lines; with a line height of
``1em`` (or ``20px`` on 20px text) those boxes overlap, so the lines look like one and the
element passes. The override counts lines by their distance (at least half a line height
apart) and fails such an element; every other verdict stays axe's.
"""

from cdpdriver.scripts import load_script

from .spec import Override

OVERRIDE = Override(
    name="a11y-wrapped-line-height",
    rules=("avoid-inline-spacing",),
    part="evaluate",
    targets=("important-line-height",),
    script=load_script(__package__, "wrapped_line_height"),
    act_rules=("78fd32",),
    criteria=("1.4.12",),
    description="Fails a tight !important line height on text that wraps, which axe misses",
)
