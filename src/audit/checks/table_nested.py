"""a11y-table-nested: a data table inside another data table's cell needs review.

WCAG 1.3.1 Info and Relationships (A). No ACT rule covers it.

When a table with headers sits in a cell of another table with headers, screen readers
announce the inner cells with the inner headers only, or mix both, and table navigation moves
between the two grids unpredictably; the outer cell's headers may be what gives the inner data
its meaning. Whether the nesting still reads correctly is for a person to judge, so the check
only asks for review, of every table with header cells or a caption that sits in a cell of a
table with header cells or a caption (both keeping their table role).
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-table-nested",
    act_rules=(),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="moderate",
    description="Flags data tables nested in a cell of another data table for review",
    help="Nested data tables must keep every cell's headers clear",
    messages={
        "pass": "The table is not nested in another data table",
        "fail": "This data table is nested in a cell of another data table",
        "incomplete": "This data table is nested in a cell of another data table; check that "
        "each cell's headers are still clear, or split the tables",
    },
    script=load_script(__package__, "table_nested"),
    matches=load_script(__package__, "table_nested_applies"),
    selector="table",
)
