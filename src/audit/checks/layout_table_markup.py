"""a11y-layout-table-markup: a table used for layout carries no data table markup.

WCAG 1.3.1 Info and Relationships (A); failure technique F46 (th, caption or non-empty summary
in layout tables). No ACT rule covers it.

A layout table is read as plain content only while it has no data table markup: a ``th``, a
``caption``, a ``summary`` or cells with ``scope`` or ``headers`` make screen readers announce
a table, its headers and its dimensions for content that has none. axe-core's ``layout-table``
rule was retired. The check applies to tables marked as layout (``role="presentation"`` or
``"none"``, which also strips the semantics of any real headers, so either the role or the
markup is wrong: a failure both ways), and to tables with no header cell whose cells hold
what only a layout puts in a table: a nested table, a heading, a form, a navigation or a list
of links. Markup of a nested table belongs to that table and is not counted.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-layout-table-markup",
    act_rules=(),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="moderate",
    description="Ensures tables used for layout have no th, caption, summary, scope or headers",
    help="Layout tables must not use data table markup",
    messages={
        "pass": "The layout table uses no data table markup",
        "fail": "This table is used for layout but has data table markup (th, caption, summary, "
        "scope or headers): remove it, or, if the table holds data, remove role=presentation",
    },
    script=load_script(__package__, "layout_table_markup"),
    matches=load_script(__package__, "layout_table_applies"),
    selector="table",
)
