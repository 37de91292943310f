"""a11y-table-columns: the rows of a data table span the same number of columns.

WCAG 1.3.1 Info and Relationships (A). No ACT rule covers it.

A row with fewer (or more) cells than the others, counting ``colspan`` and the ``rowspan`` of
cells above, shifts its cells against the column headers: a screen reader announces a cell
with the header of another column, or none. Sometimes a short last row is harmless, so the
check only asks for review, for tables that hold data (header cells, a caption, or axe-core's
data table heuristics) whose visible rows differ in width, naming the rows that differ from
the most common width.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-table-columns",
    act_rules=(),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="moderate",
    description="Flags data tables whose rows span different numbers of columns for review",
    help="Every row of a data table should span the same columns",
    messages={
        "pass": "Every row spans the same number of columns",
        "fail": "Some rows span a different number of columns",
        "incomplete": "Some rows span a different number of columns than the rest (counting "
        "colspan and rowspan); check that each cell still sits under its header",
    },
    script=load_script(__package__, "table_columns"),
    matches=load_script(__package__, "table_applies"),
    selector="table",
)
