"""a11y-scope-direction: a header cell's scope points at the cells it labels.

WCAG 1.3.1 Info and Relationships (A); technique H63 (scope to associate header and data
cells), failure technique F91. No ACT rule covers it.

``scope`` tells a screen reader which cells a ``th`` heads; pointing it the wrong way pairs
every cell with the wrong header (each price announced with "Banana" as its column). axe-core
checks only that a scope value is valid. The check reads the table's shape (spans honoured)
and fails a ``th`` with ``scope="col"`` that starts a data row (only headers to its left, data
cells to its right) in a column that, below the header rows, holds only headers: a row header;
and a ``th`` with ``scope="row"`` in a row made only of headers, at the top of the table,
above data cells in its column: a column header. Where every cell such a header would label
names its headers with a ``headers`` attribute, screen readers follow that instead of scope,
and the header is left alone.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-scope-direction",
    act_rules=(),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures the scope of header cells points along the row or column they label",
    help="scope must say col for column headers and row for row headers",
    messages={
        "pass": "Every scope points at the cells its header labels",
        "fail": "Some header cells have a scope pointing the wrong way: use scope=\"row\" for a "
        "header that starts a row of data, scope=\"col\" for one above a column",
    },
    script=load_script(__package__, "scope_direction"),
    matches=load_script(__package__, "scope_applies"),
    selector="table",
)
